// Rule drift per agent release: every recorded screen is decided by the rule accepted for it in
// test/fixtures/recorded/rules.json, for the release recorded. A new release whose dialog changed
// (recorded by `npm run record:agents`) fails here and names the rules it no longer matches, before
// a user meets it; `node scripts/agents/rule-drift.mjs` prints the report, `--accept` takes it.

import { describe, expect, it } from 'vitest';
import { readRecorded, type LabelledScreen } from '../../../scripts/agents/recorded-fixtures.mjs';
import { driftMarkdown, readRuleExpectations, recordedVersions, ruleDrift } from '../../../scripts/agents/rule-drift.mjs';
import { classifyScreen } from '../../../src/engine/prompt/matcher.js';

const classify = (lines: readonly string[], context: { readonly alternateScreen?: boolean }) => classifyScreen(lines, undefined, context);
const fixtures = readRecorded();
const versions = recordedVersions();
const expectations = readRuleExpectations();

describe('rule drift per agent release', () => {
  it('has accepted rules for every recorded agent, for the release recorded', () => {
    for (const [tool, version] of Object.entries(versions)) {
      if (!fixtures.some((f) => f.tool === tool)) continue;
      expect(expectations[tool]?.version, `${tool}: rules.json was written for another release; run node scripts/agents/rule-drift.mjs, fix the rules or accept`).toBe(version);
    }
  });

  it('decides every recorded screen by the rule accepted for it', () => {
    const drift = ruleDrift(fixtures, versions, expectations, classify);
    const drifted = drift.filter((d) => d.changed.length > 0 || d.lost.length > 0 || d.added.length > 0);
    expect(drifted, driftMarkdown(drifted)).toEqual([]);
  });

  it('names the rules a new release no longer matches, and the screens that moved to another rule', () => {
    const screen = (state: string, lines: string[]): LabelledScreen => ({ tool: 'demo', size: '80x24', state, label: 'permission', file: `demo/80x24/permission--${state}.txt`, lines, context: {} });
    const dialog = ['Deploy to production? [y/N]'];
    const accepted = { demo: { version: '1.0.0', states: { '80x24/deploy': 'generic/yes-no', '80x24/other': 'generic/yes-no' } } };
    // Release 1.1 asks in words of its own: the yes/no rule no longer matches anything.
    const now = [screen('deploy', ['Deploy to production? type yes to go on']), screen('other', ['Overwrite it? yes/no'])];
    const [d] = ruleDrift(now, { demo: '1.1.0' }, accepted, classify);
    expect(d).toMatchObject({ tool: 'demo', was: '1.0.0', now: '1.1.0', kept: 0, lost: ['generic/yes-no'] });
    expect(d!.changed.map((c) => c.screen)).toEqual(['80x24/deploy', '80x24/other']);
    expect(driftMarkdown([d!])).toContain('| demo | 1.0.0 → 1.1.0 | 2 | 0 | 2 | `generic/yes-no` |');
    // The same release and screens: nothing to report.
    expect(ruleDrift([screen('deploy', dialog)], { demo: '1.0.0' }, { demo: { version: '1.0.0', states: { '80x24/deploy': 'generic/yes-no' } } }, classify)[0]).toMatchObject({ kept: 1, changed: [], lost: [] });
  });
});
