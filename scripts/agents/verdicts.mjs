// Lists the verdict the built rules (dist/) give each recorded screen, next to its label:
// `node scripts/agents/verdicts.mjs [--wrong] [TOOL...]`. For writing rules against the recordings.

import { classifyScreen } from '../../dist/engine/prompt/matcher.js';
import { kindOf, readExceptions, readRecorded } from './accuracy.mjs';
import { verdictName } from './recorded-fixtures.mjs';

const args = process.argv.slice(2);
const onlyWrong = args.includes('--wrong');
const tools = args.filter((a) => !a.startsWith('--'));
const excepted = new Set(readExceptions().map((e) => e.file));
let wrong = 0;
let shown = 0;
for (const f of readRecorded()) {
  if (tools.length > 0 && !tools.includes(f.tool)) continue;
  const verdict = classifyScreen(f.lines, undefined, f.context);
  const right = kindOf(verdict) === f.label;
  if (!right) wrong++;
  if (onlyWrong && right) continue;
  shown++;
  const mark = right ? 'right' : excepted.has(f.file) ? 'known' : 'WRONG';
  process.stdout.write(`${mark}  ${f.file}  ->  ${verdictName(verdict)}  ${JSON.stringify(verdict.line)}\n`);
}
process.stdout.write(`${wrong} wrong of ${shown} shown\n`);
