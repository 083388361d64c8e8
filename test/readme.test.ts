// The README's generated tables must match the code (run `npm run docs` to refresh them).

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: plain ESM script without types
import { README, applyTables, generatedTables } from '../scripts/readme-tables.mjs';

describe('README', () => {
  it('has up-to-date generated tables', () => {
    const text = readFileSync(README as string, 'utf8');
    expect(text).toBe((applyTables as (t: string, x: unknown) => string)(text, (generatedTables as () => unknown)()));
  });

  it('links only to files that exist', () => {
    const text = readFileSync(README as string, 'utf8');
    const links = [...text.matchAll(/\]\((?!https?:|#)([^)\s]+)\)/g)].map((m) => m[1] as string);
    for (const link of links) expect(() => readFileSync(new URL(`../${link}`, import.meta.url)), link).not.toThrow();
  });
});
