// Screen normalisation and hashing. The whole visible screen counts: a change in any line is
// output; trailing spaces and trailing blank lines are not.

import * as crypto from 'node:crypto';

// One-shot hashing (Node 20.12 and later) skips building a Hash object per screen.
const oneShot = typeof crypto.hash === 'function' ? crypto.hash : null;

/** Splits captured text into lines without trailing spaces, dropping trailing blank lines. */
export function normaliseScreen(text: string): string[] {
  const lines = text.split('\n').map((line) => line.replace(/[ \t\r]+$/, ''));
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
