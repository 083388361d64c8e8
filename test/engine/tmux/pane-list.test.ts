// The activity listing's format and parser (src/engine/tmux/pane-list.ts).
import { describe, expect, it } from 'vitest';
import { ATTENTION_RECORD_FORMAT } from '../../../src/engine/attention/record.js';
import { HOOK_RECORD_FORMAT } from '../../../src/engine/hooks/hook-record.js';
import { makeFraming } from '../../../src/engine/tmux/command-line.js';
import { activityListCommand, parseActivityList } from '../../../src/engine/tmux/pane-list.js';
import { LISTED_RECORDS } from '../../../src/engine/records/tmux-formats.js';

describe('activity listing', () => {
  it('asks only for variables tmux generates itself, and the hook and attention records without a space or line break, space-separated', () => {
    const [, , , format] = activityListCommand(LISTED_RECORDS);
    const names = [...format!.matchAll(/#\{([a-z_]+)\}/g)].map((m) => m[1]);
    expect(names).toContain('window_activity');
    expect(names).toContain('pane_pid');
    for (const chosen of ['pane_title', 'window_name', 'session_name', 'pane_current_path', 'pane_current_command']) {
      expect(names).not.toContain(chosen);
    }
    expect(format!.endsWith(` ${HOOK_RECORD_FORMAT} ${ATTENTION_RECORD_FORMAT}`)).toBe(true);
    expect(format!.slice(0, -(HOOK_RECORD_FORMAT.length + ATTENTION_RECORD_FORMAT.length + 1)).replace(/#\{[a-z_]+\}/g, '')).toMatch(/^ +$/);
  });

  it('parses records and skips any line that is not one (a clock line, a short or a long line)', () => {
    const text = [
      '%3 $1 @4 2 0 4242 0 120 30 0 1 1700000001 h1.abc a1.5',
      `${makeFraming('n').blockStart}clock~>1700000002`,
      '%4 $1 @5 3 1 4243 1 80 24',
      '%5 $1 @5 3 1 4243 1 80 24 0 0 1700000000   extra',
      'x3 $1 @4 2 0 4242 0 120 30 0 1 1700000001 ',
      '%6 $2 @9 0 0 99 0 80 24 1 0   ',
      '',
    ].join('\n');
    expect(parseActivityList(text)).toEqual([
      { paneId: '%3', sessionId: '$1', windowId: '@4', windowIndex: 2, paneIndex: 0, pid: 4242, dead: false, width: 120, height: 30, inMode: false, alternateOn: true, windowActivity: 1_700_000_001_000, hookRecord: 'h1.abc', attentionRecord: 'a1.5' },
      // An empty stamp (a tmux that has none) reads as 0, as in a full listing.
      { paneId: '%6', sessionId: '$2', windowId: '@9', windowIndex: 0, paneIndex: 0, pid: 99, dead: false, width: 80, height: 24, inMode: true, alternateOn: false, windowActivity: 0, hookRecord: '', attentionRecord: '' },
    ]);
  });
});
