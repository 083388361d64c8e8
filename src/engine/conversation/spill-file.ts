// The file an answer past its cap writes every line to, so the answer can say where they are:
// one file per answer in a private folder (0700, files 0600: output can hold secrets), the newest
// few kept.

import { closeSync, mkdirSync, openSync, readdirSync, rmSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { SpillTarget } from './answer-cap.js';

/** Answers past their cap whose files are kept; older ones are removed when a new one starts. */
export const KEPT_SPILLS = 10;

/** Opens `<dir>/<pane>-<time>.txt` for one answer's lines. */
export function openSpillFile(dir: string, paneKey: string, now: number): SpillTarget {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  pruneSpills(dir, KEPT_SPILLS - 1);
  const stamp = new Date(now).toISOString().replace(/[:.]/g, '-');
  const path = join(dir, `${paneKey.replace(/[^A-Za-z0-9_-]/g, '_')}-${stamp}.txt`);
  const fd = openSync(path, 'w', 0o600);
  let open = true;
  return {
    where: path,
    write(lines) {
      if (!open || lines.length === 0) return;
      writeSync(fd, `${lines.join('\n')}\n`);
    },
    close() {
      if (!open) return;
      open = false;
      closeSync(fd);
    },
  };
}

/** Keeps the `keep` newest files of the folder. */
function pruneSpills(dir: string, keep: number): void {
  const files = readdirSync(dir)
    .filter((name) => name.endsWith('.txt'))
    .map((name) => ({ path: join(dir, name), at: statSync(join(dir, name)).mtimeMs }))
    .sort((a, b) => b.at - a.at);
  for (const file of files.slice(keep)) rmSync(file.path, { force: true });
}
