// Reads the recorded screens: test/fixtures/recorded/<tool>/<cols>x<rows>/<label>--<state>.txt.
// Shared by the recorder (its drift report), the tests and the prompt bench.

import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const RECORDED_DIR = fileURLToPath(new URL('../../test/fixtures/recorded/', import.meta.url));

/** Per size folder: what else was known about a pane when its screen was recorded, by state. */
export const CONTEXT_FILE = 'context.json';

export const LABELS = ['permission', 'stopped', 'busy', 'none'];

const FILE = /^(permission|stopped|busy|none)--([\w.-]+)\.txt$/;

export function readRecorded(dir = RECORDED_DIR) {
  if (!existsSync(dir)) return [];
  const out = [];
  for (const tool of readdirSync(dir, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name).sort()) {
    for (const size of readdirSync(join(dir, tool), { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name).sort()) {
      const contextFile = join(dir, tool, size, CONTEXT_FILE);
      const contexts = existsSync(contextFile) ? JSON.parse(readFileSync(contextFile, 'utf8')) : {};
      for (const file of readdirSync(join(dir, tool, size)).filter((f) => f.endsWith('.txt')).sort()) {
        const match = FILE.exec(file);
        if (!match) throw new Error(`recorded fixture ${tool}/${size}/${file}: name must be <${LABELS.join('|')}>--<state>.txt`);
        const text = readFileSync(join(dir, tool, size, file), 'utf8');
        const state = match[2];
        out.push({ tool, size, state, label: match[1], file: `${tool}/${size}/${file}`, lines: text.replace(/\n$/, '').split('\n'), context: contexts[state] ?? {} });
      }
    }
  }
  return out;
}

/** A verdict as one word and its rule: `permission (codex/approval)`, `busy (…)`, `none`. */
export function verdictName(verdict) {
  const kind = verdict.prompt ? verdict.reason : verdict.busy ? 'busy' : 'none';
  return verdict.rule ? `${kind} (${verdict.rule})` : kind;
}
