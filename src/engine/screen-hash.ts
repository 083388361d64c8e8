// Screen normalisation and hashing. The whole visible screen counts: a change in any line is
// output; trailing spaces and trailing blank lines are not.

import * as crypto from 'node:crypto';

// One-shot hashing (Node 20.12 and later) skips building a Hash object per screen.
const oneShot = typeof crypto.hash === 'function' ? crypto.hash : null;

const TRAILING_SPACE = /[ \t\r]+$/;

/** Splits captured text into lines without trailing spaces, dropping trailing blank lines. */
export function normaliseScreen(text: string): string[] {
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    // Most lines end in neither: those are kept as they are, without running the pattern.
    const last = line.charCodeAt(line.length - 1);
    if (last === 0x20 || last === 0x09 || last === 0x0d) lines[i] = line.replace(TRAILING_SPACE, '');
  }
  let end = lines.length;
  while (end > 0 && lines[end - 1] === '') end--;
  return lines.slice(0, end);
}

export function hashLines(lines: readonly string[]): string {
  const text = lines.join('\n');
  return oneShot ? oneShot('sha1', text, 'hex') : crypto.createHash('sha1').update(text).digest('hex');
}

export function hashScreen(text: string): string {
  return hashLines(normaliseScreen(text));
}
