// The attach page's script is built from src/page/ at build time into a committed module; these
// tests keep that module equal to what the source builds to now, and check it is a classic script.

import { readFileSync } from 'node:fs';
import { Script } from 'node:vm';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { GENERATED_MODULE, buildPageScript, generatedModule } from '../../scripts/page-script.mjs';
import { PAGE_SCRIPT } from '../../src/server/attach/page.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

describe('the attach page script', () => {
  it('is committed as src/page builds it now (npm run build refreshes it)', async () => {
    const committed = readFileSync(`${ROOT}${GENERATED_MODULE}`, 'utf8');
    expect(committed, `${GENERATED_MODULE} is out of date: run npm run build and commit it`).toBe(
      generatedModule(await buildPageScript()),
    );
  });

  it('is served exactly as esbuild wrote it', async () => {
    expect(PAGE_SCRIPT).toBe(await buildPageScript());
  });

  it('builds to the same bytes every time', async () => {
    expect(await buildPageScript()).toBe(await buildPageScript());
  });

  it('is one classic script in strict mode that imports nothing', () => {
    // The page loads it with a plain <script src>: an import or export would be a syntax error there.
    expect(() => new Script(PAGE_SCRIPT, { filename: 'attach-page.js' })).not.toThrow();
    expect(PAGE_SCRIPT.startsWith('"use strict";\n(() => {\n')).toBe(true);
    expect(PAGE_SCRIPT).not.toMatch(/\brequire\(|\bimport\(/);
  });

  it('holds only ASCII, whatever text the source writes', () => {
    expect([...PAGE_SCRIPT].filter((c) => c !== '\n' && (c < ' ' || c > '~'))).toEqual([]);
    // The page's own words survive the escaping: an ellipsis in "sending …".
    expect(PAGE_SCRIPT).toContain('\\u2026');
  });
});
