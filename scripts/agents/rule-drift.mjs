// Which rule decides each recorded screen, per agent release. test/fixtures/recorded/rules.json
// keeps, for every recorded agent, the release its screens come from and the rule that decided each
// screen (`<size>/<state>` → rule id). When the recorder records a new release, the screens change
// and this file does not: the test over it (test/engine/prompt/rule-drift.test.ts) fails and names
// the rules the new release no longer matches, until someone has looked and accepted the new
// release (rules fixed, or the drift taken as it is):
//
//   node scripts/agents/rule-drift.mjs            # the report: per agent release, which rules no longer match
//   node scripts/agents/rule-drift.mjs --accept   # write rules.json for the screens and releases recorded now

import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RECORDED_DIR, readRecorded } from './recorded-fixtures.mjs';

export const RULES_FILE = join(RECORDED_DIR, 'rules.json');
const VERSIONS_FILE = join(RECORDED_DIR, 'versions.json');

/** The releases recorded: tool → version (agents only; everyday programs are recorded apart). */
export function recordedVersions(file = VERSIONS_FILE) {
  const { tools } = JSON.parse(readFileSync(file, 'utf8'));
  return Object.fromEntries(Object.entries(tools).filter(([, v]) => v.package).map(([tool, v]) => [tool, v.version]));
}

export function readRuleExpectations(file = RULES_FILE) {
  return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')).agents : {};
}

const ruleOf = (classify, f) => classify(f.lines, f.context).rule ?? '(none)';

/** rules.json's content for the screens and releases recorded now. */
export function expectationsNow(fixtures, versions, classify) {
  const agents = {};
  for (const f of fixtures) {
    if (!(f.tool in versions)) continue;
    agents[f.tool] ??= { version: versions[f.tool], states: {} };
    agents[f.tool].states[`${f.size}/${f.state}`] = ruleOf(classify, f);
  }
  for (const entry of Object.values(agents)) entry.states = Object.fromEntries(Object.entries(entry.states).sort(([a], [b]) => a.localeCompare(b)));
  return agents;
}

/**
 * Per agent: the release the expectations were written for and the one recorded now, how many
 * screens keep their rule, the screens whose rule changed, and the rules no screen matches any more.
 */
export function ruleDrift(fixtures, versions, expectations, classify) {
  const now = expectationsNow(fixtures, versions, classify);
  return Object.keys({ ...now, ...expectations })
    .sort()
    .map((tool) => {
      const was = expectations[tool] ?? { version: null, states: {} };
      const is = now[tool] ?? { version: versions[tool] ?? null, states: {} };
      const changed = [];
      for (const [key, rule] of Object.entries(was.states)) {
        const current = is.states[key];
        if (current !== undefined && current !== rule) changed.push({ screen: key, was: rule, now: current });
      }
      const matchedNow = new Set(Object.values(is.states));
      const lost = [...new Set(Object.values(was.states))].filter((rule) => !matchedNow.has(rule)).sort();
      const kept = Object.entries(was.states).filter(([key, rule]) => is.states[key] === rule).length;
      const added = Object.keys(is.states).filter((key) => !(key in was.states));
      return { tool, was: was.version, now: is.version, screens: Object.keys(is.states).length, kept, changed, lost, added };
    });
}

/** The report as Markdown: one row per agent release, then each screen whose rule changed. */
export function driftMarkdown(drift) {
  const rows = drift.map((d) => {
    const release = d.was === d.now ? `${d.now}` : `${d.was ?? '(none)'} → ${d.now ?? '(not recorded)'}`;
    return `| ${d.tool} | ${release} | ${d.screens} | ${d.kept} | ${d.changed.length} | ${d.lost.length ? d.lost.map((r) => `\`${r}\``).join(', ') : '–'} |`;
  });
  const changes = drift.flatMap((d) => d.changed.map((c) => `| ${d.tool} | ${c.screen} | \`${c.was}\` | \`${c.now}\` |`));
  return [
    '| agent | release | screens | same rule | rule changed | rules no longer matching |',
    '|---|---|---:|---:|---:|---|',
    ...rows,
    ...(changes.length ? ['', '| agent | screen | rule before | rule now |', '|---|---|---|---|', ...changes] : []),
  ].join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { classifyScreen } = await import('../../dist/engine/prompt/matcher.js');
  const classify = (lines, context) => classifyScreen(lines, undefined, context);
  const fixtures = readRecorded();
  const versions = recordedVersions();
  if (process.argv.includes('--accept')) {
    const agents = expectationsNow(fixtures, versions, classify);
    writeFileSync(
      RULES_FILE,
      `${JSON.stringify({ about: 'The rule that decides each recorded screen, per agent release (scripts/agents/rule-drift.mjs).', agents }, null, 1)}\n`,
    );
    process.stdout.write(`wrote ${RULES_FILE}\n`);
  } else {
    process.stdout.write(`${driftMarkdown(ruleDrift(fixtures, versions, readRuleExpectations(), classify))}\n`);
  }
}
