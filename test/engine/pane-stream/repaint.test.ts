import { describe, expect, it } from 'vitest';
import { buildRepaint, parseCursorLine, repaintCommands } from '../../../src/engine/pane-stream/repaint.js';
import { sendBytesCommands, sendItemCommands } from '../../../src/engine/tmux/pane-io.js';

describe('repaint', () => {
  it('resets, draws the rows and places the cursor', () => {
    const cursor = parseCursorLine('4 1 1 80 3 0');
    expect(cursor).toEqual({ x: 4, y: 1, visible: true, width: 80, height: 3, alternate: false });
    const bytes = buildRepaint(['\x1b[31mred', 'two', '', 'extra'], cursor).toString();
    expect(bytes).toBe('\x1bc\x1b[H\x1b[2J\x1b[31mred\r\ntwo\r\n\x1b[0m\x1b[2;5H');
  });
  it('hides the cursor when tmux says it is hidden, and tolerates a missing cursor line', () => {
    expect(buildRepaint(['a'], parseCursorLine('0 0 0 10 1 1')).toString().endsWith('\x1b[?25l')).toBe(true);
    expect(parseCursorLine('garbage')).toBeNull();
    expect(buildRepaint(['a', 'b'], null).toString()).toBe('\x1bc\x1b[H\x1b[2Ja\r\nb\x1b[0m');
  });
  it('captures screen and cursor with one command line', () => {
    expect(repaintCommands('%3')).toEqual([
      ['capture-pane', '-p', '-e', '-t', '%3'],
      ['display-message', '-p', '-t', '%3', expect.stringContaining('#{cursor_x}')],
    ]);
  });
});

describe('input commands', () => {
  it('sends raw bytes as hex, in chunks', () => {
    expect(sendBytesCommands('%1', Buffer.from('a\r\x03'))).toEqual([
      ['send-keys', '-t', '%1', '-H', '61', '0d', '03'],
    ]);
    const many = sendBytesCommands('%1', Buffer.alloc(1100, 0x41));
    expect(many.map((c) => c.length - 4)).toEqual([512, 512, 76]);
    expect(() => sendBytesCommands('1; kill-server', Buffer.from('x'))).toThrow();
  });
  it('sends key names as keys and text as bytes', () => {
    expect(
      sendItemCommands('%2', [
        { kind: 'text', text: 'é;' },
        { kind: 'key', key: 'Enter' },
      ]),
    ).toEqual([
      ['send-keys', '-t', '%2', '-H', 'c3', 'a9', '3b'],
      ['send-keys', '-t', '%2', 'Enter'],
    ]);
  });
});
