import { ATTENTION_RECORD_FORMAT } from '../../../src/engine/attention/record.js';
import { describe, expect, it } from 'vitest';
import { activityListCommand, parseActivityList } from '../../../src/engine/tmux/pane-list.js';
import { chain, escapeArg, makeFraming } from '../../../src/engine/tmux/command-line.js';
import { parsePollCycle, pollCycleCommand } from '../../../src/engine/tmux/polling.js';
import { sendItemsCommands } from '../../../src/engine/tmux/pane-io.js';
import { HOOK_RECORD_FORMAT } from '../../../src/engine/hooks/hook-record.js';
import { LISTED_RECORDS } from '../../../src/engine/tmux-formats.js';

const framing = makeFraming('n0nce');

/** Builds what tmux prints for one list-panes record with the given fields. */
function record(fields: Partial<Record<string, string>>): string {
  const f = {
    pane_id: '%1',
    session_id: '$0',
    session_name: 'main',
    window_id: '@0',
    window_index: '0',
    window_name: 'bash',
    pane_index: '0',
    pane_title: 'host',
    pane_current_path: '/home/u',
    pane_current_command: 'bash',
    pane_pid: '100',
    pane_dead: '0',
    pane_width: '80',
    pane_height: '24',
    pane_in_mode: '0',
    alternate_on: '0',
    window_activity: '1700000000',
    hook_record: '',
    attention_record: '',
    quiet_record: '',
    ...fields,
  };
  return Object.values(f).join(framing.fieldSep) + framing.recordEnd + '\n';
}

describe('poll cycle command', () => {
  it('lists panes then captures each watched pane after a marker, in one invocation', () => {
    const args = pollCycleCommand(framing, LISTED_RECORDS, ['%1', '%22']);
    expect(args[0]).toBe('list-panes');
    expect(args.filter((a) => a === ';')).toHaveLength(4);
    expect(args).toContain('capture-pane');
    expect(args.slice(-4)).toEqual(['capture-pane', '-p', '-t', '%22']);
  });

  it('refuses pane ids that are not % and digits', () => {
    expect(() => pollCycleCommand(framing, LISTED_RECORDS, ['%1; kill-server'])).toThrow(/not a tmux pane id/);
  });
});

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

describe('parsePollCycle', () => {
  it('parses hostile titles and paths: separators, newlines, tabs, quotes, semicolons', () => {
    const out =
      record({ pane_id: '%1', pane_title: 'a|b\tc "quoted" ; #{x} <~fake~>' }) +
      record({ pane_id: '%2', pane_title: 'two\nlines', pane_current_path: '/tmp/dir with spaces/ü' }) +
      `${framing.blockStart}%1~>\nscreen of one\n$ \n` +
      `${framing.blockStart}%2~>\nline a\nline b\n`;
    const { panes, screens } = parsePollCycle(out, framing, true);
    expect(panes.map((p) => p.paneId)).toEqual(['%1', '%2']);
    expect(panes[0]?.title).toBe('a|b\tc "quoted" ; #{x} <~fake~>');
    expect(panes[1]?.title).toBe('two\nlines');
    expect(panes[1]?.cwd).toBe('/tmp/dir with spaces/ü');
    expect(panes[0]?.windowActivity).toBe(1_700_000_000_000);
    expect(screens.get('%1')).toBe('screen of one\n$ \n');
    expect(screens.get('%2')).toBe('line a\nline b\n');
  });

  it('keeps a screen line that looks like a marker of another nonce as content', () => {
    const other = makeFraming('other');
    const out = record({}) + `${framing.blockStart}%1~>\n${other.blockStart}%9~>\n`;
    const { screens } = parsePollCycle(out, framing, true);
    expect(screens.get('%1')).toBe(`${other.blockStart}%9~>\n`);
    expect(screens.has('%9')).toBe(false);
  });

  it('drops the screen cut short when tmux stopped at a vanished pane, keeping the full list', () => {
    const out = record({ pane_id: '%1' }) + record({ pane_id: '%3' }) + `${framing.blockStart}%1~>\nok\n${framing.blockStart}%2~>\n`;
    const { panes, screens } = parsePollCycle(out, framing, false);
    expect(panes).toHaveLength(2);
    expect(screens.get('%1')).toBe('ok\n');
    expect(screens.has('%2')).toBe(false);
  });

  it('skips malformed records instead of inventing fields', () => {
    const out = `garbage${framing.recordEnd}\n` + record({ pane_id: '%4' });
    expect(parsePollCycle(out, framing, true).panes.map((p) => p.paneId)).toEqual(['%4']);
  });
});

describe('argument safety', () => {
  it("escapes a trailing ';' so tmux does not split the command there", () => {
    expect(escapeArg('ls;')).toBe('ls\\;');
    expect(escapeArg('a;b')).toBe('a;b');
    expect(escapeArg('plain')).toBe('plain');
  });

  it('builds send-keys with -l for text and bare names for keys', () => {
    const cmds = sendItemsCommands('%3', [
      { kind: 'text', text: '-rf;' },
      { kind: 'key', key: 'Enter' },
    ]);
    expect(chain(cmds)).toEqual(['send-keys', '-t', '%3', '-l', '--', '-rf\\;', ';', 'send-keys', '-t', '%3', 'Enter']);
  });
});
