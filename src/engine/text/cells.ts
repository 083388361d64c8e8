// Text as the dashboard lays it out: in terminal cells, counted so that a line is never wider on
// the screen than it was planned.
//
// Terminals do not agree on the width of some characters, and Ink measures text one way
// (string-width). Measured in tmux 3.3a and 3.5a, every code point from U+00A0 to U+3FFFF:
// - emoji styled by a mark after them (U+FE0F, a skin tone, a keycap) or joined by U+200D are
//   drawn one width by one build and another by the other, or by neither as Ink counts them
//   (`x` + a skin tone: 3 cells in tmux 3.3, 1 for Ink);
// - invisible characters (the soft hyphen, Arabic number signs, Hangul fillers, unassigned code
//   points) that Ink counts 0 take a cell or two in tmux;
// - flags (two regional indicators) are 2 cells in tmux whatever letters they pair, and whatever
//   follows them; Ink counts 2 only for a flag of a country with nothing after it; a lone regional
//   indicator is 1 cell in 3.3 and 2 in 3.5;
// - a few emoji bases (☝ ✌ ✍ ⛹ ...) and circled numbers on black squares are 1 cell for Ink and 2
//   in 3.5; combining marks newer than a build's tables take a cell there.
// A line that is wider on the screen than Ink planned wraps, scrolls the frame and leaves rows of
// it where the header was. So text is drawn in `cellSafe` form, where the marks and joiners that
// only style a glyph are left out, invisible characters are shown as `<U+XXXX>` and regional
// indicators as their letters (a flag as `FR`); and `cellWidth` counts what still differs at the
// widest width measured. A line may then be drawn a cell narrower than planned, never wider.
// `node scripts/terminal-cells.mjs [tmux]` measures a build again and lists what it draws wider.

import stringWidth from 'string-width';
import { terminalSafe, visibleControl } from './terminal-text.js';

/**
 * Text of one cell a character and nothing to rewrite: printable ASCII, Latin and Greek letters,
 * punctuation (… · ›), arrows and box drawing, each 1 cell for Ink and in every tmux build
 * measured (test/engine/cells.test.ts checks every code point against string-width). Most of what
 * the dashboard draws; measured by its length, where string-width takes some 50 µs a row.
 */
export const PLAIN_RANGES: readonly (readonly [number, number])[] = [
  [0x20, 0x7e],
  [0xa0, 0xac],
  [0xae, 0x2ff],
  [0x384, 0x38a],
  [0x38c, 0x38c],
  [0x38e, 0x3a1],
  [0x3a3, 0x3ff],
  [0x2010, 0x2027],
  [0x2030, 0x205e],
  [0x2190, 0x21ff],
  [0x2500, 0x259f],
];

/** A character class of code point ranges. */
function rangeClass(ranges: readonly (readonly [number, number])[]): string {
  return `[${ranges.map(([a, b]) => `\\u{${a.toString(16)}}-\\u{${b.toString(16)}}`).join('')}]`;
}

const PLAIN = new RegExp(`^${rangeClass(PLAIN_RANGES)}*$`, 'u');

/** Results kept for the texts a dashboard draws again and again, the oldest dropped past 4,096. */
function remembered<T>(compute: (text: string) => T): (text: string) => T {
  const kept = new Map<string, T>();
  return (text) => {
    const known = kept.get(text);
    if (known !== undefined) return known;
    const value = compute(text);
    if (kept.size >= 4096) kept.delete(kept.keys().next().value as string);
    kept.set(text, value);
    return value;
  };
}

/**
 * Marks that only choose how the glyph before them looks: variation selectors (emoji or text
 * style), skin tones, the keycap, tag characters (the letters of a subdivision flag).
 */
// The marks themselves are what the class lists, not a glyph they would form.
// eslint-disable-next-line no-misleading-character-class
const STYLE_MARKS = /[\uFE00-\uFE0F\u20E3\u{1F3FB}-\u{1F3FF}\u{E0001}\u{E0020}-\u{E007F}\u{E0100}-\u{E01EF}]/gu;
/** Joiners with an emoji on either side: terminals that do not join draw both emoji. */
const EMOJI_JOINER = /(?<=\p{Extended_Pictographic})\u200D+|\u200D+(?=\p{Extended_Pictographic})/gu;
/** Invisible characters some terminal draws a cell or two wide (joiners aside). */
const INVISIBLE = /[\p{Cf}\p{Cn}\u115F\u3164\uFFA0]/gu;
const JOINERS = new Set([0x200c, 0x200d]);
const SOFT_HYPHEN = 0xad;
const REGIONAL_INDICATORS = /[\u{1F1E6}-\u{1F1FF}]/gu;
const REGIONAL_A = 0x1f1e6;

/**
 * Code points a measured terminal draws wider than string-width counts them (by one cell), after
 * cellSafe: emoji bases that tmux 3.5 draws wide, circled numbers on black squares, and combining
 * marks newer than tmux 3.5's tables. Pairs of first and last code point.
 */
const WIDER: readonly (readonly [number, number])[] = [
  [0x0897, 0x0897],
  [0x0ece, 0x0ece],
  [0x1acf, 0x1aeb],
  [0x261d, 0x261d],
  [0x26f9, 0x26f9],
  [0x270c, 0x270d],
  [0x3248, 0x324f],
  [0x10d69, 0x10d6d],
  [0x10efa, 0x10eff],
  [0x11241, 0x11241],
  [0x113bb, 0x113c0],
  [0x113ce, 0x113d2],
  [0x113e1, 0x113e2],
  [0x11b60, 0x11b66],
  [0x11f00, 0x11f01],
  [0x11f36, 0x11f42],
  [0x11f5a, 0x11f5a],
  [0x13440, 0x13455],
  [0x1611e, 0x1612f],
  [0x1e08f, 0x1e08f],
  [0x1e4ec, 0x1e4ef],
  [0x1e5ee, 0x1e5ef],
  [0x1e6e3, 0x1e6f5],
  [0x1f3cb, 0x1f3cc],
  [0x1f574, 0x1f575],
  [0x1f590, 0x1f590],
];
const WIDER_ANY = new RegExp(rangeClass(WIDER), 'u');

function isWider(codePoint: number): boolean {
  for (const [first, last] of WIDER) {
    if (codePoint < first) return false;
    if (codePoint <= last) return true;
  }
  return false;
}

/** A regional indicator (half of a flag) as the letter it stands for. */
function indicatorLetter(char: string): string {
  return String.fromCharCode(0x41 + (char.codePointAt(0) as number) - REGIONAL_A);
}

function shownInvisible(char: string): string {
  const codePoint = char.codePointAt(0) as number;
  if (JOINERS.has(codePoint)) return char;
  return codePoint === SOFT_HYPHEN ? '-' : visibleControl(char);
}

/**
 * Text for a layout in cells: terminal-safe (no control acts), and rewritten so that terminals
 * draw it at the width cellWidth gives, or a cell narrower (see the top of this file). Applying
 * it twice changes nothing more.
 */
export function cellSafe(text: string): string {
  return PLAIN.test(text) ? text : rewritten(text);
}

const rewritten = remembered((text) =>
  terminalSafe(text)
    .replace(STYLE_MARKS, '')
    .replace(EMOJI_JOINER, '')
    .replace(INVISIBLE, shownInvisible)
    .replace(REGIONAL_INDICATORS, indicatorLetter),
);

/** The cells `text` (in cellSafe form) takes: what Ink counts, plus what a terminal draws wider. */
export function cellWidth(text: string): number {
  return PLAIN.test(text) ? text.length : measured(text);
}

const measured = remembered((text) => {
  let width = stringWidth(text);
  if (WIDER_ANY.test(text)) {
    for (const char of text) if (isWider(char.codePointAt(0) as number)) width += 1;
  }
  return width;
});

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/**
 * The longest start of `text` (in cellSafe form) that fits in `width` cells, cut between
 * characters as a person reads them (a letter keeps its accents).
 */
export function sliceCells(text: string, width: number): string {
  if (PLAIN.test(text)) return text.slice(0, Math.max(0, width));
  let used = 0;
  let end = 0;
  for (const { segment, index } of graphemes.segment(text)) {
    const cells = cellWidth(segment);
    if (used + cells > width) return text.slice(0, index);
    used += cells;
    end = index + segment.length;
  }
  return text.slice(0, end);
}
