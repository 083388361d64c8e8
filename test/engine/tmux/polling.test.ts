// A poll cycle's command line and its parser (src/engine/tmux/polling.ts).
import { describe, expect, it } from 'vitest';
import { makeFraming } from '../../../src/engine/tmux/command-line.js';
import { parsePollCycle, pollCycleCommand } from '../../../src/engine/tmux/polling.js';
import { LISTED_RECORDS } from '../../../src/engine/records/tmux-formats.js';

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
