// What of a screen is content and what is animation. Programs animate while they wait: a bullet
// that blinks, a spinner inside a dialog, a clock, a timer. The content hash is the screen's hash
// with those masked, so a pane that only animates shows the same content from one capture to the
// next: what it waits for, what a person saw and what a snooze or an answer was meant for stay put.

import { hashLines } from './screen-hash.js';

/**
 * A glyph programs draw and erase in place, standing alone (after the start of the line, a space
 * or a box edge, before a space or the end): Claude Code's blinking `●`/`⏺` and its spinner
 * glyphs, dots and circles that pulse. Braille dots (U+2800..U+28FF) are spinners wherever they are.
 */
const ANIMATED_GLYPH = /(^|[\s│┃║▌])[●⏺◉○◌◍◎◐◑◒◓◴◵◶◷·•∙✢✳✶✻✽✱✲✴✵✷✸✹✺✼✾✿❀❁❂❃❇❈❉❊❋✤✥✦✧](?=\s|$)/gu;
const BRAILLE = /[\u2800-\u28ff]/gu;
/** Running times: `12s`, `1m 2s`, `340ms`, `1.5s`, and clock times `9:41`, `12:03:04`. */
const TIMES = /\b\d+(?:\.\d+)?(?:ms|[smh])\b|\b\d{1,2}:\d{2}(?::\d{2})?\b/g;
/** Whether a line may hold any of the above: most lines hold none, and skip the replacements. */
const MAYBE_ANIMATED = /[\u2800-\u28ff●⏺◉○◌◍◎◐◑◒◓◴◵◶◷·•∙✢✳✶✻✽✱✲✴✵✷✸✹✺✼✾✿❀❁❂❃❇❈❉❊❋✤✥✦✧]|\d(?:ms|[smh:])/u;

/** A line with its animation masked: animated glyphs become spaces, running times `#`. */
export function stillLine(line: string): string {
  if (!MAYBE_ANIMATED.test(line)) return line;
  return line.replace(ANIMATED_GLYPH, '$1 ').replace(BRAILLE, ' ').replace(TIMES, '#').trimEnd();
}

/**
 * The content hash of normalised screen lines whose plain hash is `hash`: the same value when no
 * line holds animation, so most screens cost one test per line and no second hash.
 */
export function contentHash(lines: readonly string[], hash: string): string {
  let still: string[] | null = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const masked = stillLine(line);
    if (masked !== line) {
      still ??= lines.slice(0, i);
      still.push(masked);
    } else if (still !== null) still.push(line);
  }
  return still === null ? hash : `c${hashLines(still)}`;
}
