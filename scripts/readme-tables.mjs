// Regenerates the tables in README.md and docs/*.md that come from code (between <!-- NAME:start/end -->
// markers, in whichever file holds them). `npm run docs` writes them; test/readme.test.ts fails when they are stale.

import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { classifyScreen } from '../dist/engine/prompt/matcher.js';
import { settingsMarkdown } from '../dist/engine/settings-table.js';
import { renderKeysMarkdown } from '../dist/ui/keymap.js';
import { statesMarkdown } from '../dist/engine/pane-status.js';
import { accuracy, accuracyMarkdown, readExceptions, readHandWritten, readRecorded } from './agents/accuracy.mjs';
import { peerMarkdown } from './agents/peer-check.mjs';
import { coverageMarkdown } from './agents/coverage.mjs';
import { animationMarkdown, readFilms } from './agents/films.mjs';
import { RECORDED_DIR } from './agents/recorded-fixtures.mjs';
import { readLines } from '../dist/engine/screen-hash.js';
import { contentHash } from '../dist/engine/screen-content.js';
import { driftMarkdown, readRuleExpectations, recordedVersions, ruleDrift } from './agents/rule-drift.mjs';

export const README = fileURLToPath(new URL('../README.md', import.meta.url));
const DOCS_DIR = fileURLToPath(new URL('../docs/', import.meta.url));

/** The files that may hold generated tables: the README and every Markdown file of docs/. */
export function docFiles() {
  const docs = readdirSync(DOCS_DIR).filter((f) => f.endsWith('.md')).sort().map((f) => `${DOCS_DIR}${f}`);
  return [README, ...docs];
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

const markersOf = (name) => new RegExp(`(<!-- ${name}:start -->)[\\s\\S]*?(<!-- ${name}:end -->)`);

/** The text with each table whose markers it holds filled in; tables it has no markers for are left out. */
export function applyTables(text, tables) {
  let out = text;
  for (const [name, body] of Object.entries(tables)) {
    const re = markersOf(name);
    if (re.test(out)) out = out.replace(re, (_, start, end) => `${start}\n${body}\n${end}`);
  }
  return out;
}

/** Tables no file holds markers for (each table must have a place, or it would silently go stale). */
export function unplacedTables(texts, tables) {
  return Object.keys(tables).filter((name) => !texts.some((text) => markersOf(name).test(text)));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const tables = generatedTables();
  const files = docFiles();
  const texts = files.map((file) => readFileSync(file, 'utf8'));
  const missing = unplacedTables(texts, tables);
  if (missing.length > 0) throw new Error(`no file holds the markers of: ${missing.map((n) => `<!-- ${n}:start -->`).join(', ')}`);
  files.forEach((file, i) => {
    const next = applyTables(texts[i], tables);
    if (next !== texts[i]) writeFileSync(file, next);
  });
  console.log(`tables updated in ${files.length} files`);
}
