// The process tree of a host behind a real sshd: a pane whose screen reads as an idle prompt while
// its program runs a silent child is never stuck while the child runs, and is stuck once the child
// is gone and the prompt stays. The table comes over the same control connection as the listing.

import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settingsSlices } from '../../src/cli/settings-slices.js';
import { resolveSettings } from '../../src/engine/settings/config.js';
import { createEngine, type Engine } from '../../src/engine/engine.js';
import { openTmux, type OpenedTmux } from '../../src/engine/tmux/open.js';
import type { CorralEvent, PaneView } from '../../src/engine/types.js';
import { startTestSshd, type TestSshd } from '../helpers/sshd.js';
import { startTestTmux, type TestTmux } from '../helpers/tmux-server.js';
import { waitUntil } from '../helpers/wait-until.js';
import { TMUX_FORMATS } from '../../src/engine/records/tmux-formats.js';
import { realEngineTime, realTmuxTime } from '../helpers/real-time.js';

let server: TestTmux;
let sshd: TestSshd;
let folder: string;
let opened: OpenedTmux | null = null;
let engine: Engine | null = null;

/**
 * A program (not a shell: a shell in the foreground is at its prompt) that prints `loading`, then
 * after `delayS` a bare `>` prompt, and runs `sleep childS` without a word (`childS` 0: none). The
 * child starts well after the program (the tree takes a child started with the agent for one of
 * its helpers). `done` is written when the child has ended; the program then idles at its prompt.
 */
function idleProgram(name: string, delayS: number, childS: number): { command: string; done: string } {
  const done = join(folder, `${name}.done`);
  const script = join(folder, `${name}.cjs`);
  writeFileSync(
    script,
    [
      "const { spawnSync } = require('node:child_process');",
      "const { writeFileSync } = require('node:fs');",
      "process.stdout.write('loading\\n');",
      'setTimeout(() => {',
      "  process.stdout.write('ready\\n> ');",
      `  if (${childS} > 0) spawnSync('sleep', ['${childS}']);`,
      `  writeFileSync(${JSON.stringify(done)}, '');`,
      '  setInterval(() => {}, 1e6);',
      `}, ${delayS * 1000});`,
    ].join('\n'),
  );
  return { command: `exec ${process.execPath} ${script}`, done };
}

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'corral-tree-'));
  server = await startTestTmux();
  sshd = await startTestSshd();
}, 60_000);

afterAll(async () => {
  await engine?.stop();
  await opened?.close();
  await server?.kill();
  await sshd?.dispose();
  rmSync(folder, { recursive: true, force: true });
});

describe('a remote pane whose program runs a silent child', () => {
  it('is not stuck while the child runs, and is stuck once it is gone and the prompt stays', { timeout: 60_000 }, async () => {
    const busy = idleProgram('busy', 7, 6);
    // The same prompt with no child: stuck after the quiet threshold, as the rules read that screen.
    const idle = idleProgram('idle', 7, 0);
    const busyPane = await server.spawn(busy.command);
    const idlePane = await server.spawn(idle.command);
    // Defaults (ask 1 s, quiet 3 s), with a poll well inside the quiet threshold.
    const settings = resolveSettings({ flags: { socketName: server.socketName, pollIntervalMs: '500' }, env: {}, file: null });
    const host = sshd.host('box', server.socket);
    opened = openTmux(host, { ...realTmuxTime, formats: TMUX_FORMATS, persistent: true, retryMs: 0, sshOptions: sshd.sshOptions, controlDir: mkdtempSync(join(sshd.controlDir, 't')) });
    engine = createEngine({ ...realEngineTime, settings: settingsSlices(settings).engine, tmux: opened.client, host });
    const events: CorralEvent[] = [];
    engine.onEvent((event) => events.push(event));
    const seen = new Set<string>();
    const view = (paneId: string): PaneView | undefined => engine!.getSnapshot().panes.find((v) => v.key === `box/${paneId}`);
    engine.subscribe(() => {
      const v = view(busyPane);
      if (v?.verdict?.rule) seen.add(v.verdict.rule);
    });
    const stuck = (paneId: string) => events.filter((e) => e.type === 'stuck' && e.key === `box/${paneId}`);
    engine.start();

    await waitUntil(() => existsSync(idle.done), 20_000, 'the prompts to be drawn');
    // The pane without a child shows that this screen alone reads as waiting.
    await waitUntil(() => stuck(idlePane).length > 0, 10_000, 'the prompt without a child to be stuck');
    expect(view(idlePane)?.verdict?.reason).toBe('stopped');
    await waitUntil(() => seen.has('process/foreground-child'), 10_000, 'the child to make the prompt busy');

    await waitUntil(() => existsSync(busy.done), 20_000, 'the child to end');
    const endedAt = statSync(busy.done).mtimeMs;
    // Never stuck while the child ran.
    expect(stuck(busyPane)).toEqual([]);
    await waitUntil(() => stuck(busyPane).length > 0, 10_000, 'the prompt to be stuck once the child is gone');
    const [event] = stuck(busyPane);
    // Stuck only after the quiet threshold (3 s) counted from the child's end (less a second for
    // tmux's whole-second stamps and a poll).
    expect(event!.timestamp - endedAt).toBeGreaterThanOrEqual(2_000);
    expect(view(busyPane)?.verdict?.reason).toBe('stopped');
    // The table went through a buffer: no pane was put in view mode by run-shell.
    const modes = await server.tmux('list-panes', '-a', '-F', '#{pane_id} #{pane_in_mode}');
    expect(modes.trim().split('\n').sort()).toEqual([`${busyPane} 0`, `${idlePane} 0`].sort());
  });
});
