// Regenerates the tables in README.md that come from code (between <!-- NAME:start/end --> markers).
// `npm run docs` writes them; test/readme.test.ts fails when they are stale.

import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { classifyScreen } from '../dist/engine/prompt/matcher.js';
import { settingsMarkdown } from '../dist/engine/settings-table.js';
import { renderKeysMarkdown } from '../dist/ui/keymap.js';
import { statesMarkdown } from '../dist/engine/pane-status.js';
import { accuracy, accuracyMarkdown, readExceptions, readHandWritten, readRecorded } from './agents/accuracy.mjs';
import { peerMarkdown } from './agents/peer-check.mjs';
import { coverageMarkdown } from './agents/coverage.mjs';

export const README = fileURLToPath(new URL('../README.md', import.meta.url));

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
  };
}

export function applyTables(text, tables) {
  let out = text;
  for (const [name, body] of Object.entries(tables)) {
    const re = new RegExp(`(<!-- ${name}:start -->)[\\s\\S]*?(<!-- ${name}:end -->)`);
    if (!re.test(out)) throw new Error(`README.md has no <!-- ${name}:start --> / <!-- ${name}:end --> markers`);
    out = out.replace(re, (_, start, end) => `${start}\n${body}\n${end}`);
  }
  return out;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(README, applyTables(readFileSync(README, 'utf8'), generatedTables()));
  console.log('README.md tables updated');
}
