import { describe, expect, it } from 'vitest';
import {
  ControlLimitError,
  ControlParser,
  LineSplitter,
  formatControlLine,
  parseControlLine,
  quoteControlArg,
  replyLines,
  unescapeOutput,
  type ControlEvent,
  type ControlReply,
} from '../../../src/engine/tmux/control-protocol.js';

const line = (s: string) => Buffer.from(s, 'utf8');

describe('unescapeOutput', () => {
  it('turns octal escapes back into bytes and leaves other bytes alone', () => {
    expect(unescapeOutput(line('a\\134b\\015\\012\\033[1m')).toString('latin1')).toBe('a\\b\r\n\x1b[1m');
    expect(unescapeOutput(line('é€')).toString('utf8')).toBe('é€');
    expect(unescapeOutput(line('plain')).toString()).toBe('plain');
  });
  it('keeps a backslash that is not followed by three octal digits', () => {
    expect(unescapeOutput(line('x\\9')).toString()).toBe('x\\9');
    expect(unescapeOutput(line('x\\01')).toString()).toBe('x\\01');
  });
});

describe('LineSplitter', () => {
  it('joins lines split across chunks', () => {
    const splitter = new LineSplitter();
    expect(splitter.push(line('%out')).map(String)).toEqual([]);
    expect(splitter.push(line('put %1 a\nsecond')).map(String)).toEqual(['%output %1 a']);
    expect(splitter.push(line('\n\n')).map(String)).toEqual(['second', '']);
  });
});

describe('bounded readers', () => {
  it('a line splitter refuses a line longer than its limit, across chunks', () => {
    const splitter = new LineSplitter(10);
    expect(splitter.push(line('12345')).map(String)).toEqual([]);
    expect(() => splitter.push(line('678901'))).toThrow(ControlLimitError);
    expect(new LineSplitter(10).push(line('1234567890\nab')).map(String)).toEqual(['1234567890']);
  });

  it('a control parser refuses an endless line and an endless reply, and keeps nothing of them', () => {
    const events: ControlEvent[] = [];
    const parser = new ControlParser({ maxLine: 64, maxReply: 256 });
    parser.push(line('%output %1 ' + 'x'.repeat(40)), (e) => events.push(e));
    expect(() => parser.push(line('x'.repeat(40)), (e) => events.push(e))).toThrow(/line longer than/);
    const replies = new ControlParser({ maxLine: 64, maxReply: 256 });
    replies.push(line('%begin 1 2 1\n'), (e) => events.push(e));
    for (let i = 0; i < 6; i++) replies.push(line(`${'y'.repeat(40)}\n`), (e) => events.push(e));
    expect(() => replies.push(line(`${'y'.repeat(40)}\n`), (e) => events.push(e))).toThrow(/reply longer than/);
    expect(events).toEqual([]);
  });

  it('a reply ends only at the guard that repeats its %begin: a screen line that looks like one is text', () => {
    const replies: ControlReply[] = [];
    const parser = new ControlParser();
    parser.push(line('%begin 1700000000 7 1\n%end 1700000001 7 1\n%end 1700000000 7 0\nscreen\n%end 1700000000 7 1\n'), (e) => {
      if (e.kind === 'reply') replies.push(e.reply);
    });
    expect(replies).toEqual([{ number: 7, flags: 1, ok: true, text: '%end 1700000001 7 1\n%end 1700000000 7 0\nscreen\n' }]);
  });
});

describe('parseControlLine', () => {
  it('reads output as bytes, with a UTF-8 character split between two notifications', () => {
    const euro = Buffer.from('€');
    const first = parseControlLine(Buffer.concat([line('%output %3 a'), euro.subarray(0, 1)]));
    const second = parseControlLine(Buffer.concat([line('%output %3 '), euro.subarray(1), line('\\134')]));
    expect(first).toMatchObject({ kind: 'output', paneId: '%3' });
    expect(second).toMatchObject({ kind: 'output', paneId: '%3' });
    if (first.kind !== 'output' || second.kind !== 'output') throw new Error('not output');
    expect(Buffer.concat([first.data, second.data]).toString('utf8')).toBe('a€\\');
  });

  it('reads extended output, pause, continue, exit and session changes', () => {
    const ext = parseControlLine(line('%extended-output %12 57 : hi\\015'));
    expect(ext).toMatchObject({ kind: 'output', paneId: '%12', ageMs: 57 });
    if (ext.kind === 'output') expect(ext.data.toString()).toBe('hi\r');
    expect(parseControlLine(line('%pause %4'))).toEqual({ kind: 'pause', paneId: '%4' });
    expect(parseControlLine(line('%continue %4'))).toEqual({ kind: 'continue', paneId: '%4' });
    expect(parseControlLine(line('%exit'))).toEqual({ kind: 'exit', reason: '' });
    expect(parseControlLine(line('%exit detached'))).toEqual({ kind: 'exit', reason: 'detached' });
    expect(parseControlLine(line('%session-changed $2 my session'))).toEqual({
      kind: 'session-changed',
      sessionId: '$2',
      name: 'my session',
    });
    expect(parseControlLine(line('%window-pane-changed @1 %5'))).toEqual({
      kind: 'window-pane-changed',
      windowId: '@1',
      paneId: '%5',
    });
    expect(parseControlLine(line('%layout-change @1 abc'))).toEqual({
      kind: 'notification',
      name: 'layout-change',
      args: '@1 abc',
    });
    expect(parseControlLine(line('%begin 1700000000 264 1'))).toEqual({
      kind: 'begin',
      time: 1700000000,
      number: 264,
      flags: 1,
    });
    expect(parseControlLine(line('%error 1700000000 264 1'))).toMatchObject({ kind: 'end', error: true, number: 264 });
  });

  it('takes only exact guard lines for guards: three numbers, single spaces, nothing after', () => {
    expect(parseControlLine(line('%end 1700000000 264 1'))).toEqual({ kind: 'end', time: 1700000000, number: 264, flags: 1, error: false });
    for (const near of ['%end 1 2', '%end 1 2 3 ', '%end 1 2 3x', '%end  1 2 3', '%end 1 -2 3', '%endx 1 2 3', '%begin', '%end']) {
      expect(parseControlLine(line(near)).kind, near).toBe('notification');
    }
  });
});

describe('ControlParser', () => {
  it('gathers reply blocks, including lines that look like notifications, and passes notifications', () => {
    const parser = new ControlParser();
    const events: ControlEvent[] = [];
    const text = [
      '%begin 1 10 0',
      '%end 1 10 0',
      '%session-changed $0 main',
      '%output %1 before',
      '%begin 2 11 1',
      '%output %1 this is capture text',
      'line two',
      '%end 2 11 1',
      '%output %1 after',
      '%begin 3 12 1',
      "can't find pane: %9",
      '%error 3 12 1',
      '',
    ].join('\n');
    // Feed byte by byte: framing must not depend on chunk boundaries.
    for (const byte of Buffer.from(text)) parser.push(Buffer.from([byte]), (e) => events.push(e));
    const kinds = events.map((e) => e.kind);
    expect(kinds).toEqual(['reply', 'session-changed', 'output', 'reply', 'output', 'reply']);
    expect(events[3]).toEqual({
      kind: 'reply',
      reply: { number: 11, flags: 1, ok: true, text: '%output %1 this is capture text\nline two\n' },
    });
    expect(events[5]).toEqual({
      kind: 'reply',
      reply: { number: 12, flags: 1, ok: false, text: "can't find pane: %9\n" },
    });
  });
});

describe('reply text in chunks of any size', () => {
  it('keeps a reply whole, UTF-8 and lines that start with % included, wherever the chunks end', () => {
    const body = ['héllo wörld ✓', '%not a guard', '', '%end 7 98 1', 'tail', '%%'].map((l) => `${l}\n`).join('');
    const stream = Buffer.from(`%begin 7 99 1\n${body}%end 7 99 1\n%output %3 x\n%begin 8 100 1\n%error 8 100 1\n`);
    for (const size of [1, 2, 3, 5, 7, 13, stream.length]) {
      const parser = new ControlParser();
      const events: ControlEvent[] = [];
      for (let at = 0; at < stream.length; at += size) parser.push(stream.subarray(at, at + size), (e) => events.push(e));
      expect(events, `chunks of ${size}`).toEqual([
        { kind: 'reply', reply: { number: 99, flags: 1, ok: true, text: body } },
        { kind: 'output', paneId: '%3', data: Buffer.from('x'), ageMs: null },
        { kind: 'reply', reply: { number: 100, flags: 1, ok: false, text: '' } },
      ]);
      expect(replyLines((events[0] as { reply: ControlReply }).reply)).toEqual(body.slice(0, -1).split('\n'));
    }
  });
});

describe('quoting command lines', () => {
  it('leaves simple words bare and quotes the rest', () => {
    expect(quoteControlArg('%3')).toBe("'%3'");
    expect(quoteControlArg('%3:continue')).toBe("'%3:continue'");
    expect(quoteControlArg('send-keys')).toBe('send-keys');
    expect(quoteControlArg('C-c')).toBe('C-c');
    expect(quoteControlArg(';')).toBe("';'");
    expect(quoteControlArg('#{cursor_x}')).toBe("'#{cursor_x}'");
    expect(quoteControlArg("it's $HOME")).toBe('"it\'s \\$HOME"');
    expect(quoteControlArg('')).toBe("''");
    expect(() => quoteControlArg('a\nb')).toThrow();
  });
  it('joins commands with " ; "', () => {
    expect(
      formatControlLine([
        ['capture-pane', '-p', '-t', '%1'],
        ['display', '-p', '#{pane_id}'],
      ]),
    ).toBe("capture-pane -p -t '%1' ; display -p '#{pane_id}'");
  });
});
