// Regenerates the tables in README.md and docs/ that come from code (between <!-- NAME:start/end -->
// markers). `npm run docs` writes them; test/readme.test.ts fails when they are stale.

import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { classifyScreen } from '../dist/engine/prompt/matcher.js';
import { settingsMarkdown } from '../dist/engine/settings/settings-table.js';
import { renderKeysMarkdown } from '../dist/ui/keymap.js';
import { statesMarkdown } from '../dist/engine/pane/pane-status.js';
import { accuracy, accuracyMarkdown, readExceptions, readHandWritten, readRecorded } from './agents/accuracy.mjs';
import { peerMarkdown } from './agents/peer-check.mjs';
import { coverageMarkdown } from './agents/coverage.mjs';
import { animationMarkdown, readFilms } from './agents/films.mjs';
import { RECORDED_DIR } from './agents/recorded-fixtures.mjs';
import { readLines } from '../dist/engine/pane/screen-hash.js';
import { contentHash } from '../dist/engine/pane/screen-content.js';
import { driftMarkdown, readRuleExpectations, recordedVersions, ruleDrift } from './agents/rule-drift.mjs';

export const README = fileURLToPath(new URL('../README.md', import.meta.url));

/** Which file holds each generated table. */
export const TABLE_FILES = {
  'README.md': ['keys', 'states'],
  'docs/configuration.md': ['settings'],
  'docs/detection.md': ['accuracy-recorded', 'accuracy-fixtures', 'peer-cases', 'coverage', 'film-animation', 'rule-drift'],
};

/** The path of a file named in TABLE_FILES. */
export function docPath(name) {
  return fileURLToPath(new URL(`../${name}`, import.meta.url));
}

/** The tables of one file, by marker name. */
export function tablesOf(name, tables = generatedTables()) {
  return Object.fromEntries(TABLE_FILES[name].map((table) => [table, tables[table]]));
}

export function generatedTables() {
  return {
    settings: settingsMarkdown(),
    keys: renderKeysMarkdown(),
    states: statesMarkdown(),
    // Prompt rules over labelled screens: recorded from the real programs, and hand-written.
    'accuracy-recorded': accuracyMarkdown(accuracy(readRecorded(), (lines, context) => classifyScreen(lines, undefined, context), readExceptions())),
    'accuracy-fixtures': accuracyMarkdown(accuracy(readHandWritten(), (lines, context) => classifyScreen(lines, undefined, context))),
    // The peers' detector test cases (test/fixtures/peer-cases/).
    'peer-cases': peerMarkdown((lines) => classifyScreen(lines)),
    // Agent × state: recorded, written or none, with accuracy.
    coverage: coverageMarkdown((lines, context) => classifyScreen(lines, undefined, context)),
    // What animates while the filmed agents wait.
    'film-animation': animationMarkdown(readFilms(RECORDED_DIR), (lines) => {
      const read = readLines(lines.join('\n'));
      return contentHash(read.lines, read.hash);
    }),
    // Per agent release: the rules that decide its recorded screens, and those that no longer match.
    'rule-drift': driftMarkdown(ruleDrift(readRecorded(), recordedVersions(), readRuleExpectations(), (lines, context) => classifyScreen(lines, undefined, context))),
  };
}

export function applyTables(text, tables) {
  let out = text;
  for (const [name, body] of Object.entries(tables)) {
    const re = new RegExp(`(<!-- ${name}:start -->)[\\s\\S]*?(<!-- ${name}:end -->)`);
    if (!re.test(out)) throw new Error(`no <!-- ${name}:start --> / <!-- ${name}:end --> markers where that table belongs`);
    out = out.replace(re, (_, start, end) => `${start}\n${body}\n${end}`);
  }
  return out;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const tables = generatedTables();
  for (const name of Object.keys(TABLE_FILES)) {
    writeFileSync(docPath(name), applyTables(readFileSync(docPath(name), 'utf8'), tablesOf(name, tables)));
  }
  console.log(`tables updated in ${Object.keys(TABLE_FILES).join(', ')}`);
}
