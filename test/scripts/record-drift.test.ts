// The recorder's drift report: which verdicts changed between the committed screens and the ones
// just recorded, and which differ from their label.

import { describe, expect, it } from 'vitest';
// @ts-expect-error: plain ESM script without types
import { driftReport } from '../../scripts/agents/record.mjs';
import { classifyScreen } from '../../src/engine/prompt/matcher.js';

const report = driftReport as (before: unknown[], results: unknown[], classify: typeof classifyScreen) => string;

const IDLE = ['dev@box:~$'];
const ASKING = ['Overwrite config.json? [y/N]'];

describe('drift report', () => {
  it('names each state whose verdict changed or is wrong, and the ones not reached', () => {
    const before = [
      { tool: 'demo', size: '80x24', state: 'idle', label: 'stopped', lines: IDLE, context: {} },
      { tool: 'demo', size: '80x24', state: 'question', label: 'permission', lines: ASKING, context: {} },
      { tool: 'demo', size: '80x24', state: 'gone', label: 'stopped', lines: IDLE, context: {} },
    ];
    const results = [
      {
        tool: 'demo',
        size: '80x24',
        recorded: [
          { state: 'idle', label: 'stopped', screen: IDLE.join('\n'), context: {} },
          // The new release asks differently, and the rules no longer see the question.
          { state: 'question', label: 'permission', screen: 'Overwrite config.json? type yes to go on', context: {} },
          { state: 'new-dialog', label: 'permission', screen: ASKING.join('\n'), context: {} },
        ],
        problems: [],
      },
    ];
    const text = report(before, results, classifyScreen);
    expect(text).toContain('3 screens recorded, 2 verdict(s) changed against the committed fixtures, 1 verdict(s) differ from their label.');
    expect(text).toContain('| demo | 80x24 | question | permission | permission (generic/yes-no) | none | **NO** |');
    expect(text).toContain('| demo | 80x24 | new-dialog | permission | (new state) | permission (generic/yes-no) | yes |');
    expect(text).not.toContain('| idle |');
    expect(text).toContain('Not reached this time (the committed fixture stays): demo/80x24/gone');
  });
});
