// Text that a pane, a program, a remote host or a hook controls, made safe to write to a terminal:
// every control character is shown, never sent, so no escape sequence can form (no retitled
// window, no clipboard write through OSC 52, no cleared or forged screen, no reordered text).

/**
 * What is never written raw: C0 controls, DEL, C1 controls (U+0080-U+009F, which some terminals
 * act on like ESC [), and the invisible marks that reorder or hide text: bidi embeddings,
 * overrides and isolates, the zero-width space, direction marks, line and paragraph separators,
 * the BOM. Zero-width joiners stay: emoji and some scripts need them.
 */
// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200b\u200e\u200f\u2028-\u202e\u2060-\u2069\ufeff]/g;
// eslint-disable-next-line no-control-regex
const UNSAFE_KEEPING_LINES = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200b\u200e\u200f\u2028-\u202e\u2060-\u2069\ufeff]/g;
// eslint-disable-next-line no-control-regex
const ANY_UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200b\u200e\u200f\u2028-\u202e\u2060-\u2069\ufeff]/;

/** One unsafe character as visible text: `^[` for ESC, `^?` for DEL, `\x9b` for a C1, `<U+202E>` for a mark. */
export function visibleControl(char: string): string {
  const code = char.codePointAt(0) ?? 0;
  if (code < 0x20) return `^${String.fromCharCode(code + 0x40)}`;
  if (code === 0x7f) return '^?';
  if (code <= 0x9f) return `\\x${code.toString(16)}`;
  return `<U+${code.toString(16).toUpperCase().padStart(4, '0')}>`;
}

/** One line of text for a terminal: every control character (line breaks and tabs too) shown visibly. */
export function terminalSafe(text: string): string {
  return ANY_UNSAFE.test(text) ? text.replace(UNSAFE, visibleControl) : text;
}

/** Text of several lines for a terminal (a log, a message): line breaks and tabs kept, the rest shown visibly. */
export function terminalSafeLines(text: string): string {
  return ANY_UNSAFE.test(text) ? text.replace(UNSAFE_KEEPING_LINES, visibleControl) : text;
}

/**
 * JSON for a terminal: JSON.stringify escapes C0 controls, not DEL, C1 controls or bidi marks; they
 * are written as `\uXXXX` too. The value a reader parses is unchanged.
 */
export function terminalSafeJson(value: unknown, space?: number): string {
  const json = JSON.stringify(value, null, space);
  return ANY_UNSAFE.test(json) ? json.replace(UNSAFE_KEEPING_LINES, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`) : json;
}
