// How a prompt is answered, read off the screen: the kind (a key, a line, a secret) comes from the
// rule that found the prompt; the quick answers valid for it (`1`–`3` for a three-option menu, `y`
// and `n` for `[y/N]`) from the prompt line and the menu around it. Pure.

import type { AnswerKind, PromptAnswer } from '../types.js';

/** A numbered menu entry, with or without a cursor glyph: `❯ 1. Yes`, `  2) No`, `● 3. Cancel`. */
const MENU_ENTRY = /^(?:[❯›>●◉○◯▶►→*]\s*)?(\d{1,2})[.)]\s+\S/;

/** The numbers of the menu around the prompt line: the entries below it, else the nearest above. */
export function menuNumbers(lines: readonly string[], promptIndex: number): string[] {
  const numberAt = (i: number): number | null => {
    const match = MENU_ENTRY.exec(lines[i] ?? '');
    return match ? Number(match[1]) : null;
  };
  const collect = (indexes: number[]): string[] => {
    const found = new Set<number>();
    for (const i of indexes) {
      const n = numberAt(i);
      if (n !== null) found.add(n);
    }
    // Only an unbroken run from 1 is a menu; a stray "3." in prose is not an option.
    const run: string[] = [];
    for (let n = 1; found.has(n); n++) run.push(String(n));
    return run;
  };
  // The prompt line is itself an entry (a cursor on "● 2. Use Gemini API Key"): the menu it belongs
  // to starts at the nearest "1." above it, or at it.
  if (numberAt(promptIndex) !== null) {
    let first = promptIndex;
    while (first > 0 && promptIndex - first < 12 && numberAt(first) !== 1) first--;
    if (numberAt(first) === 1) return collect(range(first, lines.length));
  }
  const below = collect(range(promptIndex + 1, lines.length));
  if (below.length > 0) return below;
  // A footer under its menu: the entries above, up to the question that heads them.
  let start = promptIndex - 1;
  while (start > 0 && !/\?$/.test(lines[start - 1] ?? '')) start--;
  return collect(range(Math.max(0, start), promptIndex));
}

function range(from: number, to: number): number[] {
  const out: number[] = [];
  for (let i = from; i < to; i++) out.push(i);
  return out;
}

/** `[y,n,q,a,d,e,?]`, `[y,n,q,a,d,j,J,g,/,s,e,?]` (git add -p, one hunk and several). */
const COMMA_CHOICES = /\[([A-Za-z?/](?:,[A-Za-z?/])+)\]\s*\??\s*$/;
/** `(Y)es/(N)o/(D)on't ask again` (aider). */
const LETTER_WORDS = /\(([A-Za-z])\)[A-Za-z']*/g;
/** Bracketed or parenthesised groups holding a slash: `[y/N]`, `(yes/no/[fingerprint])`, `([y]/n)`. */
const SLASH_GROUPS = /\(([^()]*\/[^()]*)\)|\[([^[\]]*\/[^[\]]*)\]/g;

/**
 * The letters of a comma list as the prompt writes them, `?` (help) left out: case is kept, since
 * git's `j` and `J` (or `k` and `K`) are different answers.
 */
function commaChoices(letters: readonly string[]): string[] {
  return unique(letters.filter((c) => c !== '?'));
}

/** The answers a line prompt accepts, as typed; `Enter` last when there is a default to take. */
export function lineChoices(line: string): string[] {
  const comma = COMMA_CHOICES.exec(line);
  if (comma) return commaChoices((comma[1] ?? '').split(','));

  const letters = [...line.matchAll(LETTER_WORDS)].map((m) => (m[1] ?? '').toLowerCase());
  if (letters.length >= 2) return withDefault(unique(letters), /\[[^\]]+\]:?\s*$/.test(line));

  const group = [...line.matchAll(SLASH_GROUPS)].at(-1);
  if (group) {
    // ssh's `[fingerprint]` is something to paste, not a default.
    const parts = (group[1] ?? group[2] ?? '')
      .split('/')
      .map((p) => p.trim())
      .filter((p) => p.toLowerCase() !== '[fingerprint]');
    const words = parts
      .map((p) => p.replace(/^\[|\]$/g, ''))
      .filter((p) => /^[A-Za-z]+$/.test(p));
    if (words.length >= 2) {
      const singleLetters = words.every((w) => w.length === 1);
      const hasDefault =
        parts.some((p) => /^\[[A-Za-z]+\]$/.test(p)) ||
        /\[default=[^\]]*\]/.test(line) ||
        (singleLetters && words.some((w) => w === w.toUpperCase()) && words.some((w) => w === w.toLowerCase()));
      return withDefault(unique(words.map((w) => w.toLowerCase())), hasDefault);
    }
  }
  // A single offered answer: npx's "Ok to proceed? (y)".
  const single = /\(([A-Za-z])\)\s*$/.exec(line);
  if (single) return [(single[1] ?? '').toLowerCase()];
  return [];
}

function withDefault(choices: string[], hasDefault: boolean): string[] {
  return hasDefault ? [...choices, 'Enter'] : choices;
}

function unique(items: readonly string[]): string[] {
  return [...new Set(items)];
}

/**
 * The answer for a prompt found on `lines[promptIndex]` (lines as the rules see them, top to
 * bottom). `fixed` options, when a rule gives them, win over what the screen shows.
 */
export function answerFor(
  kind: AnswerKind,
  lines: readonly string[],
  promptIndex: number,
  fixed?: readonly string[],
): PromptAnswer {
  if (fixed) return { kind, options: [...fixed] };
  switch (kind) {
    case 'secret':
      return { kind, options: [] };
    case 'key': {
      const numbers = menuNumbers(lines, promptIndex);
      return { kind, options: [...numbers, 'Enter'] };
    }
    case 'line':
      return { kind, options: lineChoices(lines[promptIndex] ?? '') };
  }
}
