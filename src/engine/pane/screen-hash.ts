// Screen normalisation and hashing. The whole visible screen counts: a change in any line is
// output; trailing spaces and trailing blank lines are not.

import * as crypto from 'node:crypto';

// One-shot hashing (Node 20.12 and later) skips building a Hash object per screen.
const oneShot = typeof crypto.hash === 'function' ? crypto.hash : null;

const TRAILING_SPACE = /[ \t\r]+$/;

/** Splits captured text into lines without trailing spaces, dropping trailing blank lines. */
export function normaliseScreen(text: string): string[] {
  return normalise(text).lines;
}

function normalise(text: string): { lines: string[]; trimmed: boolean } {
  const lines = text.split('\n');
  let trimmed = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    // Most lines end in neither: those are kept as they are, without running the pattern.
    const last = line.charCodeAt(line.length - 1);
    if (last === 0x20 || last === 0x09 || last === 0x0d) {
      lines[i] = line.replace(TRAILING_SPACE, '');
      trimmed = true;
    }
  }
  let end = lines.length;
  while (end > 0 && lines[end - 1] === '') end--;
  lines.length = end;
  return { lines, trimmed };
}

function sha1(text: string): string {
  return oneShot ? oneShot('sha1', text, 'hex') : crypto.createHash('sha1').update(text).digest('hex');
}

export function hashLines(lines: readonly string[]): string {
  return sha1(lines.join('\n'));
}

export function hashScreen(text: string): string {
  return hashLines(normaliseScreen(text));
}

/**
 * A captured screen's normalised lines and their hash (the same as hashLines of those lines).
 * When no line lost trailing spaces, the lines joined are the start of the text itself: the hash
 * is taken of that, without joining the lines into a second copy of the screen.
 */
export function readLines(text: string): { lines: string[]; hash: string } {
  const { lines, trimmed } = normalise(text);
  if (trimmed) return { lines, hash: hashLines(lines) };
  let length = Math.max(0, lines.length - 1);
  for (const line of lines) length += line.length;
  return { lines, hash: sha1(text.slice(0, length)) };
}
