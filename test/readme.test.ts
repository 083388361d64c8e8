// The README and docs/ stay true: generated tables match the code (`npm run docs` refreshes them),
// every relative link reaches a file, and the README stays short with its two-command Quickstart.

import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: plain ESM script without types
import { README, TABLE_FILES, applyTables, docPath, generatedTables, tablesOf } from '../scripts/readme-tables.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DOCS = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as dashes, repeats numbered. */
function anchorsOf(text: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  let fenced = false;
  for (const line of text.split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    const heading = fenced ? null : /^#+ (.*)/.exec(line);
    if (!heading) continue;
    const slug = heading[1]!.trim().toLowerCase().replace(/[^\w\- ]/g, '').replaceAll(' ', '-');
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    anchors.add(n === 0 ? slug : `${slug}-${n}`);
  }
  return anchors;
}

describe('README and docs', () => {
  it('have up-to-date generated tables, each in the file that holds it', () => {
    const tables = (generatedTables as () => Record<string, string>)();
    for (const name of Object.keys(TABLE_FILES as Record<string, string[]>)) {
      const text = readFileSync((docPath as (n: string) => string)(name), 'utf8');
      expect(text, name).toBe((applyTables as (t: string, x: unknown) => string)(text, (tablesOf as (n: string, t: unknown) => unknown)(name, tables)));
    }
  });

  it.each(DOCS)('%s links only to files and headings that exist', (doc) => {
    const text = readFileSync(join(ROOT, doc), 'utf8');
    const links = [...text.matchAll(/\]\((?!https?:|mailto:)([^)\s]+)\)|src="(?!https?:)([^"]+)"/g)].map((m) => (m[1] ?? m[2]) as string);
    for (const link of links) {
      const [path, anchor] = link.split('#') as [string, string | undefined];
      const target = path === '' ? join(ROOT, doc) : join(ROOT, dirname(doc), path);
      expect(() => readFileSync(target), `${doc} → ${link}`).not.toThrow();
      if (anchor !== undefined) expect(anchorsOf(readFileSync(target, 'utf8')), `${doc} → ${link} (${relative(ROOT, target)})`).toContain(anchor);
    }
  });

  it('leads from the README to every document in docs/', () => {
    const text = readFileSync(README as string, 'utf8');
    for (const doc of DOCS.filter((d) => d !== 'README.md')) expect(text, doc).toContain(`](${doc}`);
  });

  it('keeps the README short enough to read in ten minutes', () => {
    expect(readFileSync(README as string, 'utf8').split('\n').length).toBeLessThanOrEqual(420);
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
