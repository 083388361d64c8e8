// Text as the dashboard lays it out: in terminal cells, in a form no terminal measured draws wider
// than Ink counts it.
//
// Ink places each glyph of a line at the width string-width gives it, so a glyph the terminal draws
// wider pushes the rest of the line out: past the right edge the line wraps, the frame scrolls and
// rows of it are left where the header was. Terminals do not agree with string-width, or with each
// other, on some glyphs. Measured in tmux 3.3a and 3.5a (every code point from U+00A0 to U+3FFFF,
// and generated text):
// - emoji styled by a mark after them (U+FE0F, a skin tone, a keycap) or joined by U+200D are
//   drawn one width by one build and another by the other, or by neither as Ink counts them
//   (`x` + a skin tone: 3 cells in tmux 3.3, 1 for Ink);
// - invisible characters (the soft hyphen, Arabic number signs, Hangul fillers, unassigned code
//   points) that Ink counts 0 take a cell or two in tmux;
// - flags (two regional indicators) are 2 cells in tmux whatever letters they pair and whatever
//   follows them; Ink counts 2 only for a flag of a country with nothing after it; a lone regional
//   indicator is 1 cell in 3.3 and 2 in 3.5;
// - a few emoji (☝ ✌ ✍ ⛹ ...) are 1 cell for Ink and 2 in 3.5; circled numbers on black squares
//   are 1 for Ink and 2 in both; combining marks newer than 3.5's tables take a cell there;
// - letters a script joins in one cluster (नमस्ते's स्ते, Khmer subscripts, Thai and Lao AM) are
//   a cell each in tmux, and Ink counts the cluster as one letter (नमस्ते: 4 cells, 3 for Ink).
// So text is drawn in `cellSafe` form: marks and joiners that only style a glyph (or follow an
// emoji) are left out, the emoji 3.5 draws wide get U+FE0F (which Ink counts 2), invisible
// characters and what no style fixes are shown as `<U+XXXX>`, regional indicators as their letters
// (a flag as `FR`), joined letters are split into clusters of their own. In that form `cellWidth`
// (string-width) is what the terminals measured draw, or a cell more where one draws a glyph
// narrower: a line may be drawn a cell short, never wider.
// `node scripts/terminal-cells.mjs [tmux]` measures a build again and lists what it draws wider.

import stringWidth from 'string-width';
import { terminalSafe, visibleControl } from './terminal-text.js';

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

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
/** Joiners before an emoji (those after one go with EMOJI_MARKS): terminals that do not join draw both emoji. */
const EMOJI_JOINER = /\u200D+(?=\p{Extended_Pictographic})/gu;
/**
 * Combining marks and joiners after an emoji: they style nothing there, and Ink counts an emoji
 * with anything after it as its first code point alone (☝️ + a mark: 1 cell, where 3.5 draws 2).
 */
const EMOJI_MARKS = /(?<=\p{Extended_Pictographic})[\p{M}\u200C\u200D]+/gu;
/** Invisible characters some terminal draws a cell or two wide (joiners aside). */
const INVISIBLE = /[\p{Cf}\p{Cn}\u115F\u3164\uFFA0]/gu;
const JOINERS = new Set([0x200c, 0x200d]);
const SOFT_HYPHEN = 0xad;
const REGIONAL_INDICATORS = /[\u{1F1E6}-\u{1F1FF}]/gu;
const REGIONAL_A = 0x1f1e6;

/**
 * Emoji that tmux 3.5 draws 2 cells wide and Ink counts 1 (3.3 draws 1): written with U+FE0F, the
 * emoji style, which Ink counts 2. Pairs of first and last code point.
 */
const DRAWN_WIDE_EMOJI: readonly (readonly [number, number])[] = [
  [0x261d, 0x261d],
  [0x26f9, 0x26f9],
  [0x270c, 0x270d],
  [0x1f3cb, 0x1f3cc],
  [0x1f574, 0x1f575],
  [0x1f590, 0x1f590],
];
/**
 * What a measured tmux draws a cell wider than Ink counts and no style fixes: circled numbers on
 * black squares (2 cells in both builds) and combining marks newer than tmux 3.5's tables (a cell
 * of their own there). Shown as `<U+XXXX>`.
 */
const DRAWN_WIDE_SHOWN: readonly (readonly [number, number])[] = [
  [0x0897, 0x0897],
  [0x0ece, 0x0ece],
  [0x1acf, 0x1aeb],
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
];
const WIDE_EMOJI = new RegExp(rangeClass(DRAWN_WIDE_EMOJI), 'gu');
const WIDE_SHOWN = new RegExp(rangeClass(DRAWN_WIDE_SHOWN), 'gu');

/** A regional indicator (half of a flag) as the letter it stands for. */
function indicatorLetter(char: string): string {
  return String.fromCharCode(0x41 + (char.codePointAt(0) as number) - REGIONAL_A);
}

/** Thai and Lao AM as the two signs they are made of (Ink counts the sign alone no cell, tmux one). */
const VOWEL_AM = /[\u0E33\u0EB3]/g;
const AM_PARTS: Readonly<Record<string, string>> = { '\u0E33': '\u0E4D\u0E32', '\u0EB3': '\u0ECD\u0EB2' };

/**
 * Letters joined under one glyph cluster (a Devanagari, Bengali or Khmer conjunct: a consonant, a
 * virama, a consonant; a Malayalam dot reph before a letter) are a cell each in a terminal, and Ink
 * counts the cluster by its first letter. A zero-width non-joiner before each later character that
 * takes a cell makes it a cluster of its own, as a terminal draws it; a terminal cell never joins
 * letters, so nothing looks different.
 */
function splitJoinedLetters(text: string): string {
  let out = '';
  for (const { segment } of graphemes.segment(text)) {
    const chars = [...segment];
    if (chars.length < 2) {
      out += segment;
      continue;
    }
    // A letter after a joiner shares its cell in tmux: it neither counts nor is split off.
    const joined = (i: number) => i > 0 && chars[i - 1] === '\u200D';
    const separate = chars.reduce((sum, char, i) => sum + (joined(i) ? 0 : stringWidth(char)), 0);
    if (separate <= stringWidth(segment)) {
      out += segment;
      continue;
    }
    const splits = (char: string, i: number) =>
      i > 0 && !joined(i) && chars[i - 1] !== '\u200C' && !SPACING_MARK.test(char) && stringWidth(char) > 0;
    out += chars.map((char, i) => (splits(char, i) ? `\u200C${char}` : char)).join('');
  }
  return out;
}
/** Ink counts a spacing mark in its cluster already. */
const SPACING_MARK = /^\p{Mc}$/u;
/** Scripts whose letters can join in one cluster (Indic, Southeast Asian, Tibetan, Javanese ...). */
// Code point ranges, some ending on a mark; no glyph is meant.
// eslint-disable-next-line no-misleading-character-class
const JOINING_SCRIPTS = /[\u0900-\u0DFF\u0F00-\u109F\u1780-\u17FF\u1A00-\u1AAF\u1B00-\u1C4F\uA800-\uA8FF\uA980-\uAAFF\uABC0-\uABFF\u{11000}-\u{11FFF}]/u;

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
  return PLAIN.test(text) ? text : rewrittenText(text);
}

const rewritten = remembered((text) =>
  terminalSafe(text)
    .replace(STYLE_MARKS, '')
    .replace(EMOJI_MARKS, '')
    .replace(EMOJI_JOINER, '')
    .replace(INVISIBLE, shownInvisible)
    .replace(WIDE_SHOWN, visibleControl)
    .replace(REGIONAL_INDICATORS, indicatorLetter)
    .replace(WIDE_EMOJI, (emoji) => `${emoji}\uFE0F`)
    .replace(VOWEL_AM, (am) => AM_PARTS[am] as string),
);

/** cellSafe's rewriting, with joined letters split where a script can join them. */
function rewrittenText(text: string): string {
  const once = rewritten(text);
  return JOINING_SCRIPTS.test(once) ? splitJoinedLetters(once) : once;
}

/**
 * The cells `text` (in cellSafe form) takes: what Ink counts (string-width), which in that form is
 * what the terminals measured draw, or a cell more where one draws a glyph narrower. Ink places
 * each glyph at the width it counts, so any other count would be drawn wider than Ink planned.
 */
export function cellWidth(text: string): number {
  return PLAIN.test(text) ? text.length : measured(text);
}

const measured = remembered((text) => stringWidth(text));

/** `text` (in cellSafe form) with spaces after it up to `width` cells; text already as wide is left as it is. */
export function padCells(text: string, width: number): string {
  return text + ' '.repeat(Math.max(0, width - cellWidth(text)));
}

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
