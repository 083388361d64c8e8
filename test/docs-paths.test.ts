// The docs name files of this project: every relative link and every `src/…`, `test/…`, `bench/…`,
// `scripts/…` or `docs/…` path in README.md and docs/*.md must exist (a glob must match something).
// Files of other projects that the docs cite by their own paths are listed, with whose they are.

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DOCS = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];

/** Paths in other projects' repositories that the docs cite (their owners in the docs' text). */
const ELSEWHERE = new Set([
  'src/utils/title.ts', // @librechat/agents
  'src/renderer/packages/prompts.ts', // Chatbox
  'src/services/stateDetector/*.test.ts', // ccmanager
]);

/** Whether a path of the project exists; `*` in its last part matches any run of characters. */
function exists(path: string): boolean {
  if (!path.includes('*')) return existsSync(join(ROOT, path));
  const dir = join(ROOT, dirname(path));
  const pattern = new RegExp(`^${path.slice(path.lastIndexOf('/') + 1).replace(/[.+?^${}()|[\]\\]/g, '\\$&').replaceAll('*', '.*')}$`);
  return existsSync(dir) && readdirSync(dir).some((name) => pattern.test(name));
}

describe('paths the docs name', () => {
  for (const doc of DOCS) {
    it(`${doc}: every relative link and project path exists`, () => {
      const text = readFileSync(join(ROOT, doc), 'utf8');
      const missing: string[] = [];
      for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^(?:[a-z]+:|#)/i.test(target!)) continue;
        const path = relative(ROOT, join(ROOT, dirname(doc), decodeURI(target!.split('#')[0]!)));
        if (!exists(path)) missing.push(`link ${target}`);
      }
      for (const [, path] of text.matchAll(/`((?:src|test|bench|scripts|docs)\/[A-Za-z0-9_./*-]+)`/g)) {
        if (!ELSEWHERE.has(path!) && !exists(path!.replace(/[.,:]$/, ''))) missing.push(`path ${path}`);
      }
      expect(missing).toEqual([]);
    });
  }
});
