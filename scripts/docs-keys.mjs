// `npm run docs:keys`: writes the dashboard's keys table (generated from src/ui/keymap.ts) into
// README.md between the <!-- keys:start --> and <!-- keys:end --> markers.

import { readFileSync, writeFileSync } from 'node:fs';
import { renderKeysMarkdown } from '../dist/ui/keymap.js';

const path = new URL('../README.md', import.meta.url);
const readme = readFileSync(path, 'utf8');
const block = `<!-- keys:start -->\n${renderKeysMarkdown()}\n<!-- keys:end -->`;
const markers = /<!-- keys:start -->[\s\S]*?<!-- keys:end -->/;
if (!markers.test(readme)) {
  console.error('README.md has no <!-- keys:start --> ... <!-- keys:end --> block; add one where the table belongs.');
  process.exit(1);
}
const next = readme.replace(markers, block);
if (next !== readme) writeFileSync(path, next);
console.log(next === readme ? 'README keys table is up to date' : 'README keys table updated');
