// The one line editor behind every text field of the dashboard (a reply, the filter, the start
// prompt's command and branch): a line and a cursor in, an edit applied, a line and a cursor out.
// Pure; the cursor counts code points, so a character outside the BMP is one step.

export interface LineState {
  readonly text: string;
  /** Code points before the cursor (0 … length). */
  readonly cursor: number;
}

export type LineEdit =
  /** Typed or pasted text at the cursor; line breaks become spaces (a field is one line). */
  | { readonly kind: 'insert'; readonly text: string }
  | { readonly kind: 'backspace' }
  | { readonly kind: 'delete' }
  | { readonly kind: 'left' }
  | { readonly kind: 'right' }
  | { readonly kind: 'home' }
  | { readonly kind: 'end' }
  /** Ctrl-U: everything before the cursor. */
  | { readonly kind: 'kill-before' }
  /** Ctrl-K: everything after the cursor. */
  | { readonly kind: 'kill-after' }
  /** Ctrl-W: the word before the cursor, with the blanks after it. */
  | { readonly kind: 'kill-word' }
  /** The whole line. */
  | { readonly kind: 'clear' };

export const emptyLine: LineState = { text: '', cursor: 0 };

/** A line with the cursor at its end (a field that is opened again). */
export function lineAtEnd(text: string): LineState {
  return { text, cursor: [...text].length };
}

/** Text fit for a one-line field: line breaks as one space, other control characters dropped. */
export function fieldText(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\r\n]+/g, ' ').replace(/[\u0000-\u001f\u007f-\u009f]/g, '');
}

export function editLine(line: LineState, edit: LineEdit): LineState {
  const chars = [...line.text];
  const at = Math.max(0, Math.min(line.cursor, chars.length));
  const make = (before: readonly string[], after: readonly string[]): LineState => ({
    text: before.join('') + after.join(''),
    cursor: before.length,
  });
  const before = chars.slice(0, at);
  const after = chars.slice(at);
  switch (edit.kind) {
    case 'insert':
      return make([...before, ...fieldText(edit.text)], after);
    case 'backspace':
      return make(before.slice(0, -1), after);
    case 'delete':
      return make(before, after.slice(1));
    case 'left':
      return { text: line.text, cursor: Math.max(0, at - 1) };
    case 'right':
      return { text: line.text, cursor: Math.min(chars.length, at + 1) };
    case 'home':
      return { text: line.text, cursor: 0 };
    case 'end':
      return { text: line.text, cursor: chars.length };
    case 'kill-before':
      return make([], after);
    case 'kill-after':
      return make(before, []);
    case 'kill-word': {
      let cut = before.length;
      while (cut > 0 && /\s/u.test(before[cut - 1] as string)) cut--;
      while (cut > 0 && !/\s/u.test(before[cut - 1] as string)) cut--;
      return make(before.slice(0, cut), after);
    }
    case 'clear':
      return emptyLine;
  }
}
