import { describe, expect, it } from 'vitest';
import { decodeEscaped, parseProbe, shownScreen } from '../../../src/engine/tmux/control-capture.js';

describe('screens shown from paste buffers', () => {
  it('undoes tmux 3.2/3.3 escaping: doubled backslashes, C escapes and octal', () => {
    expect(decodeEscaped('a\\\\b')).toBe('a\\b');
    expect(decodeEscaped('tab\\there')).toBe('tab\there');
    expect(decodeEscaped('\\033[1mbold\\033[0m')).toBe('\x1b[1mbold\x1b[0m');
    expect(decodeEscaped('bell\\a nul\\0 x')).toBe('bell\x07 nul\0 x');
    expect(decodeEscaped('\\\\033 is text')).toBe('\\033 is text');
    expect(decodeEscaped('ü 🚀 ❯ plain')).toBe('ü 🚀 ❯ plain');
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
