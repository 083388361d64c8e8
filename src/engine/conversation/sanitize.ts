// Removes what a chat client cannot show: escape sequences (strip-ansi) and the C0/C1 control
// bytes that survive them. Newlines and tabs stay.

import stripAnsi from 'strip-ansi';

// C0 except \t (09) and \n (0a), DEL, and C1 (0x80-0x9f).
// eslint-disable-next-line no-control-regex
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

export function sanitizeText(text: string): string {
  return stripAnsi(text).replace(CONTROLS, '');
}

// eslint-disable-next-line no-control-regex
const ANY_CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/** One screen line: sanitized and without trailing spaces. Plain lines (the usual case) skip the regexes. */
export function sanitizeLine(line: string): string {
  return (ANY_CONTROL.test(line) ? sanitizeText(line) : line).trimEnd();
}
