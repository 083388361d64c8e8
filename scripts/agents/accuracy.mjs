// Accuracy of the prompt rules on labelled screens, per tool and label: how many verdicts are right
// (the same kind as the label: permission, stopped, busy, none), and, counted apart, how many
// screens of a working or not-waiting program would be called stuck (false stuck). Used by the
// README's generated tables and the prompt bench.

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readRecorded } from './recorded-fixtures.mjs';

export const SCREENS_DIR = fileURLToPath(new URL('../../test/fixtures/screens/', import.meta.url));
export const EXCEPTIONS_FILE = fileURLToPath(new URL('../../test/fixtures/recorded/exceptions.json', import.meta.url));

/** The hand-written fixtures, in the same shape as the recorded ones. */
export function readHandWritten(dir = SCREENS_DIR) {
  return readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort()
    .flatMap((tool) =>
      readdirSync(join(dir, tool))
        .filter((f) => f.endsWith('.txt'))
        .sort()
        .map((file) => {
          const [label, state] = file.replace(/\.txt$/, '').split('--');
          return { tool, size: '', state, label, file: `${tool}/${file}`, context: {}, lines: readFileSync(join(dir, tool, file), 'utf8').replace(/\n$/, '').split('\n') };
        }),
    );
}

export function readExceptions(file = EXCEPTIONS_FILE) {
  try {
    return JSON.parse(readFileSync(file, 'utf8')).exceptions;
  } catch (error) {
    if (error.code === 'ENOENT') return [];
    throw error;
  }
}

export const kindOf = (verdict) => (verdict.prompt ? verdict.reason : verdict.busy ? 'busy' : 'none');

const LABELS = ['permission', 'stopped', 'busy', 'none'];

/** Per tool: { label: [right, total] }, false stuck and documented exceptions. */
export function accuracy(fixtures, classifyScreen, exceptions = []) {
  const excepted = new Set(exceptions.map((e) => e.file));
  const byTool = new Map();
  for (const f of fixtures) {
    const row = byTool.get(f.tool) ?? { tool: f.tool, labels: Object.fromEntries(LABELS.map((l) => [l, [0, 0]])), falseStuck: 0, excepted: 0 };
    byTool.set(f.tool, row);
    const kind = kindOf(classifyScreen(f.lines, f.context));
    const cell = row.labels[f.label];
    cell[1]++;
    if (kind === f.label) cell[0]++;
    if ((f.label === 'busy' || f.label === 'none') && (kind === 'permission' || kind === 'stopped')) row.falseStuck++;
    if (excepted.has(f.file)) row.excepted++;
  }
  return [...byTool.values()];
}

const pct = (right, total) => (total === 0 ? '–' : `${right}/${total}`);

/** A Markdown table of accuracy(...) rows, with a total row. */
export function accuracyMarkdown(rows) {
  const total = { tool: '**all**', labels: Object.fromEntries(LABELS.map((l) => [l, [0, 0]])), falseStuck: 0, excepted: 0 };
  for (const r of rows) {
    for (const l of LABELS) {
      total.labels[l][0] += r.labels[l][0];
      total.labels[l][1] += r.labels[l][1];
    }
    total.falseStuck += r.falseStuck;
    total.excepted += r.excepted;
  }
  const line = (r) => {
    const right = LABELS.reduce((n, l) => n + r.labels[l][0], 0);
    const all = LABELS.reduce((n, l) => n + r.labels[l][1], 0);
    return `| ${r.tool} | ${LABELS.map((l) => pct(...r.labels[l])).join(' | ')} | ${right}/${all} (${((100 * right) / all).toFixed(1)}%) | ${r.falseStuck} |`;
  };
  return [
    '| tool | permission | stopped | busy | not waiting | right | false stuck |',
    '|---|---:|---:|---:|---:|---:|---:|',
    ...rows.map(line),
    line(total),
  ].join('\n');
}

export { readRecorded };
