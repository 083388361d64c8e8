import { describe, expect, it } from 'vitest';
import {
  bufferedScreensCommands,
  decodeEscaped,
  parseProbe,
  screenRows,
  screensFromReplies,
  screensToRows,
  shownScreen,
} from '../../../src/engine/tmux/control-capture.js';

describe('screens shown from paste buffers', () => {
  it('undoes tmux 3.2/3.3 escaping: doubled backslashes, C escapes and octal', () => {
    expect(decodeEscaped('a\\\\b')).toBe('a\\b');
    expect(decodeEscaped('tab\\there')).toBe('tab\there');
    expect(decodeEscaped('\\033[1mbold\\033[0m')).toBe('\x1b[1mbold\x1b[0m');
    expect(decodeEscaped('bell\\a nul\\0 x')).toBe('bell\x07 nul\0 x');
    expect(decodeEscaped('\\\\033 is text')).toBe('\\033 is text');
    expect(decodeEscaped('ü 🚀 ❯ plain')).toBe('ü 🚀 ❯ plain');
  });

  it('undoes the backslash tmux writes before a dollar that a letter, `_` or `{` follows', () => {
    expect(decodeEscaped('echo \\$HOME \\${PATH} \\$_x $1 $ $')).toBe('echo $HOME ${PATH} $_x $1 $ $');
    expect(decodeEscaped('x\\\\\\$y')).toBe('x\\$y');
  });

  it('reads escaped bytes of 0x80 and above as UTF-8, as the bytes they stand for', () => {
    // A lone lead byte and a cut sequence are not characters: each reads as U+FFFD, like the bytes would.
    expect(decodeEscaped('a\\303b')).toBe(Buffer.from([0x61, 0xc3, 0x62]).toString('utf8'));
    expect(decodeEscaped('\\342\\202x')).toBe(Buffer.from([0xe2, 0x82, 0x78]).toString('utf8'));
    expect(decodeEscaped('\\0001 \\0x')).toBe('\x001 \x00x');
  });

  it('tells the two ways a server shows a buffer from the probe', () => {
    expect(parseProbe('corral\\probe\n')).toBe('raw');
    expect(parseProbe('corral\\\\probe\n')).toBe('escaped');
    expect(parseProbe('something else\n')).toBeNull();
  });

  it('drops the line end the buffer keeps, as capture-pane -p does', () => {
    expect(shownScreen('one\ntwo\n\n', 'raw')).toBe('one\ntwo\n');
    expect(shownScreen('a\\\\b\n\n', 'escaped')).toBe('a\\b\n');
  });
});

describe('screens cut to their rows', () => {
  it('drops what follows the last row, and leaves a screen of its rows or fewer as it is', () => {
    expect(screenRows('a\nb\n0\u0004\n', 2)).toBe('a\nb\n');
    expect(screenRows('a\nb\n', 2)).toBe('a\nb\n');
    expect(screenRows('a\n\n\n\n', 2)).toBe('a\n\n');
    expect(screenRows('a\nb', 2)).toBe('a\nb');
    expect(screenRows('a\n', 3)).toBe('a\n');
  });

  it('cuts each screen of a cycle to the rows its pane was listed with', () => {
    const screens = new Map([
      ['%1', 'x\ny\n\u0010\u0004\n'],
      ['%2', 'z\n'],
    ]);
    screensToRows(screens, [
      { paneId: '%1', height: 2 },
      { paneId: '%2', height: 5 },
    ]);
    expect([...screens]).toEqual([
      ['%1', 'x\ny\n'],
      ['%2', 'z\n'],
    ]);
  });
});

describe('screens answered command by command', () => {
  const reply = (number: number, lines: string[], ok = true) => ({ number, flags: 1, ok, text: lines.map((line) => `${line}\n`).join('') });

  it('captures and shows each pane through the buffer, and deletes it once at the end', () => {
    expect(bufferedScreensCommands(['%1', '%22'], 'buf')).toEqual([
      ['capture-pane', '-b', 'buf', '-t', '%1'],
      ['show-buffer', '-b', 'buf'],
      ['capture-pane', '-b', 'buf', '-t', '%22'],
      ['show-buffer', '-b', 'buf'],
      ['delete-buffer', '-b', 'buf'],
    ]);
    expect(bufferedScreensCommands([], 'buf')).toEqual([]);
    expect(() => bufferedScreensCommands(['%1; kill-server'], 'buf')).toThrow(/not a tmux pane id/);
  });

  it('takes each screen from its show-buffer reply, decoded, in the order of the panes', () => {
    const replies = [reply(1, []), reply(2, ['$ ls', 'a\\\\b', '']), reply(3, []), reply(4, ['top', '']), reply(5, [])];
    const screens = screensFromReplies(['%1', '%2'], replies, 'escaped');
    expect([...screens]).toEqual([
      ['%1', '$ ls\na\\b\n'],
      ['%2', 'top\n'],
    ]);
  });

  it('leaves out the panes from the first failed command on', () => {
    const replies = [reply(1, []), reply(2, ['one', '']), reply(3, ["can't find pane: %2"], false)];
    expect([...screensFromReplies(['%1', '%2', '%3'], replies, 'raw').keys()]).toEqual(['%1']);
  });
});
