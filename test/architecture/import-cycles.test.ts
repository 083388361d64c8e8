// No module in src/ may reach itself through its imports: a cycle means two modules each own part
// of the other, and ESM then hands one of them a half-initialised module.

import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '../../src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/**
 * The relative modules a file imports or re-exports at load time (`import ... from`,
 * `export ... from`, `import './x.js'`). `import type` is erased by the compiler and
 * `await import()` is lazy: neither counts.
 */
export function staticImports(text: string): string[] {
  const withoutComments = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  const found: string[] = [];
  for (const match of withoutComments.matchAll(/^\s*(?:import|export)\b(\s+type\b)?[^;'"]*?(?:\bfrom\s*)?['"](\.[^'"]+)['"]/gm)) {
    if (match[1] === undefined) found.push(match[2] as string);
  }
  return found;
}

function resolveImport(from: string, specifier: string): string | null {
  const base = resolve(dirname(from), specifier);
  for (const candidate of [base.replace(/\.js$/, '.ts'), base.replace(/\.js$/, '.tsx'), base]) {
    if (existsSync(candidate) && /\.tsx?$/.test(candidate)) return candidate;
  }
  return null;
}

/** Every elementary cycle found by a depth-first walk, each as the list of files around it. */
export function findCycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const cycles: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (node: string): void => {
    state.set(node, 'open');
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      if (state.get(next) === 'open') cycles.push([...stack.slice(stack.indexOf(next)), next]);
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(node, 'done');
  };
  for (const node of [...graph.keys()].sort()) if (!state.has(node)) visit(node);
  return cycles;
}

describe('import cycles', () => {
  it('reads the imports that run at load time', () => {
    const text = [
      "import { a } from './a.js';",
      "import type { B } from '../b.js';",
      "export type { E } from './e.js';",
      "import { type F, g } from './fg.js';",
      "export { c } from './c.js';",
      "import './side-effect.js';",
      'import {',
      '  d,',
      "} from './d.js';",
      "import { readFileSync } from 'node:fs';",
      "const lazy = await import('./lazy.js');",
      "// import { old } from './old.js';",
    ].join('\n');
    expect(staticImports(text)).toEqual(['./a.js', './fg.js', './c.js', './side-effect.js', './d.js']);
  });

  it('finds a cycle when there is one', () => {
    const graph = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a']],
      ['d', ['a']],
    ]);
    expect(findCycles(graph)).toEqual([['a', 'b', 'c', 'a']]);
    expect(findCycles(new Map([['a', ['b']], ['b', []]]))).toEqual([]);
  });

  it('has none in src/', () => {
    const graph = new Map<string, string[]>();
    const files = sourceFiles(SRC);
    for (const file of files) {
      const targets = staticImports(readFileSync(file, 'utf8')).map((s) => resolveImport(file, s));
      graph.set(file, targets.filter((t): t is string => t !== null));
    }
    expect(files.length).toBeGreaterThan(50);
    const cycles = findCycles(graph).map((cycle) => cycle.map((f) => relative(SRC, f)).join(' -> '));
    expect(cycles).toEqual([]);
  });
});
