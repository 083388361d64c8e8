// The engine's floor shows its parts: two files, and one folder per idea, each named in
// docs/architecture.md with what it owns, and each folder's files saying what they hold.

import { describe, expect, it } from 'vitest';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const ENGINE = join(import.meta.dirname, '../../src/engine');
const DOC = readFileSync(join(import.meta.dirname, '../../docs/architecture.md'), 'utf8');

const entries = readdirSync(ENGINE);
const folders = entries.filter((name) => statSync(join(ENGINE, name)).isDirectory()).sort();
const tableFolders = [...DOC.matchAll(/^\| `([a-z-]+)\/` \| .+ \|$/gm)].map((m) => m[1]!).sort();

describe("the engine's floor", () => {
  it('holds only engine.ts and types.ts beside its folders', () => {
    expect(entries.filter((name) => !folders.includes(name)).sort()).toEqual(['engine.ts', 'types.ts']);
  });

  it('names every folder in the architecture doc with what it owns, and no folder that is not there', () => {
    expect(tableFolders).toEqual(folders);
  });

  it('starts every file of a folder with a comment on what it holds', () => {
    const bare: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) walk(path);
        else if (name.endsWith('.ts') && !readFileSync(path, 'utf8').startsWith('//')) bare.push(path.slice(ENGINE.length + 1));
      }
    };
    for (const folder of folders) walk(join(ENGINE, folder));
    expect(bare).toEqual([]);
  });
});
