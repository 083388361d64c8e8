// Terminal input as key presses: what one read from the terminal holds (one key, many keys, a
// paste) in, one KeyPress per key out, named in the keymap's spelling. Pure.
//
// Ink's own key parser splits a read only at escape sequences: a run such as two Backspaces
// (`\x7f\x7f`) or `hello\x01` reaches a handler as one "key" whose text holds the control bytes,
// and its key flags tell the Delete key from Backspace apart no more. Decoding the raw text here
// makes every batching of the same keys give the same presses.

import type { KeyPress } from './key-dispatch.js';

const ESC = '\u001b';

/** CSI and SS3 finals and `~` codes to key names (xterm, rxvt, the Linux console, tmux). */
const FINALS: Record<string, string> = {
  A: 'up',
  B: 'down',
  C: 'right',
  D: 'left',
  H: 'home',
  F: 'end',
  Z: 'shift+tab',
};
const TILDE: Record<string, string> = {
  '1': 'home',
  '2': 'insert',
  '3': 'delete',
  '4': 'end',
  '5': 'pageup',
  '6': 'pagedown',
  '7': 'home',
  '8': 'end',
};

const press = (name: string, input: string, ctrl = false, meta = false): KeyPress => ({ name, input, ctrl, meta });

/** A control byte (below 0x20, or DEL) as the key it is. */
function controlKey(char: string): KeyPress {
  const code = char.codePointAt(0) as number;
  if (char === '\r' || char === '\n') return press('enter', '\r');
  if (char === '\t') return press('tab', '\t');
  if (char === '\u007f' || char === '\b') return press('backspace', '');
  if (code === 0) return press('ctrl+space', '', true);
  if (code <= 26) {
    const letter = String.fromCharCode(code + 96);
    return press(`ctrl+${letter}`, letter, true);
  }
  // 0x1c … 0x1f: Ctrl-\ ] ^ _
  const sign = String.fromCharCode(code + 64);
  return press(`ctrl+${sign}`, sign, true);
}

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

/** The escape sequence at `at` (which holds ESC): the key and how many characters it took. */
function escapeKey(raw: string, at: number): { key: KeyPress; length: number } {
  const next = raw[at + 1];
  if (next === undefined) return { key: press('escape', ''), length: 1 };
  if (next === ESC) {
    // ESC ESC: Esc pressed twice in a row, or Alt with an arrow (ESC ESC [ A).
    const inner = raw[at + 2] === '[' || raw[at + 2] === 'O' ? escapeKey(raw, at + 1) : null;
    if (inner !== null && inner.key.name !== 'escape')
      return { key: { ...inner.key, meta: true }, length: inner.length + 1 };
    return { key: press('escape', '', false, true), length: 2 };
  }
  if (next === '[' || next === 'O') {
    const body = /^[\x20-\x3f]*[\x40-\x7e]/.exec(raw.slice(at + 2));
    if (body !== null) {
      const text = body[0];
      const final = text[text.length - 1] as string;
      const params = text.slice(0, -1).split(';');
      const modifier = Number(params[1] ?? '1') - 1;
      const ctrl = (modifier & 4) !== 0;
      const meta = (modifier & 10) !== 0;
      const name = final === '~' ? TILDE[params[0] ?? ''] : FINALS[final];
      return { key: press(name ?? 'unknown', '', ctrl, meta), length: 2 + text.length };
    }
    // An unfinished sequence: the Esc key, then the rest as typed.
    return { key: press('escape', ''), length: 1 };
  }
  // Alt with a key: the key, marked meta (Alt-q is q, as Ink reported it).
  const char = String.fromCodePoint(raw.codePointAt(at + 1) as number);
  const inner = CONTROL.test(char) ? controlKey(char) : press(char === ' ' ? 'space' : char, char);
  return { key: { ...inner, meta: true }, length: 1 + char.length };
}

/**
 * The keys in one read of terminal input, in order. A run of printable characters is one press
 * (`name` and `input` the run itself), so a paste stays one edit; the caller splits it where one
 * character at a time matters.
 */
export function decodeKeys(raw: string): KeyPress[] {
  const keys: KeyPress[] = [];
  let at = 0;
  while (at < raw.length) {
    const char = raw[at] as string;
    if (char === ESC) {
      const { key, length } = escapeKey(raw, at);
      keys.push(key);
      at += length;
      continue;
    }
    if (CONTROL.test(char)) {
      keys.push(controlKey(char));
      at += 1;
      continue;
    }
    // eslint-disable-next-line no-control-regex
    const run = /^[^\u0000-\u001f\u007f]+/.exec(raw.slice(at))?.[0] as string;
    keys.push(run === ' ' ? press('space', ' ') : press(run, run));
    at += run.length;
  }
  return keys;
}

/** A press of several printable characters, one press per character (`space` for a blank). */
export function splitRun(key: KeyPress): KeyPress[] {
  const chars = [...key.input];
  if (chars.length <= 1 || key.name !== key.input) return [key];
  return chars.map((c) => (c === ' ' ? press('space', ' ', key.ctrl, key.meta) : press(c, c, key.ctrl, key.meta)));
}
