// The generated tables of the README and docs/ must match the code (run `npm run docs` to refresh them).

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: plain ESM script without types
import { README, applyTables, docFiles, generatedTables, unplacedTables } from '../scripts/readme-tables.mjs';

type Tables = Record<string, string>;
const tablesNow = generatedTables as () => Tables;
const fillTables = applyTables as (text: string, tables: Tables) => string;

describe('README', () => {
  it('has up-to-date generated tables, in the README or a docs/ page', () => {
    const tables = tablesNow();
    const files = (docFiles as () => string[])();
    const texts = files.map((file) => readFileSync(file, 'utf8'));
    // Every table has a place, whichever file holds its markers.
    expect((unplacedTables as (t: string[], x: Tables) => string[])(texts, tables)).toEqual([]);
    files.forEach((file, i) => expect(texts[i], file).toBe(fillTables(texts[i]!, tables)));
  });

  it('links only to files that exist', () => {
    const text = readFileSync(README as string, 'utf8');
    const links = [...text.matchAll(/\]\((?!https?:|#)([^)\s]+)\)/g)].map((m) => m[1] as string);
    for (const link of links) expect(() => readFileSync(new URL(`../${link}`, import.meta.url)), link).not.toThrow();
  });

  it('starts with a two-command Quickstart: one runs the dashboard from the `corral` on PATH, one the tests', () => {
    const text = readFileSync(README as string, 'utf8');
    const block = /## Quickstart\n\n```sh\n([\s\S]*?)```/.exec(text)?.[1] ?? '';
    const commands = block
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => line.replace(/\s+#.*$/, ''));
    expect(commands).toEqual(['npm install && npm link && corral', 'npm test']);
    // `npm link` puts the package's bin on PATH under that name, running the build `npm install` makes.
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
      bin: Record<string, string>;
      scripts: Record<string, string>;
    };
    expect(Object.keys(pkg.bin)).toEqual(['corral']);
    expect(pkg.bin.corral).toBe('dist/bin/corral.js');
    expect(pkg.scripts.prepare).toBe('npm run build');
    expect(pkg.scripts.test).toBeDefined();
    // test/install/ runs `npm link` and the other install commands the README gives.
    const installTest = readFileSync(new URL('./install/install.e2e.test.ts', import.meta.url), 'utf8');
    expect(installTest).toContain("['link']");
    expect(installTest).toContain("['install', '-g', '.']");
  });
});
