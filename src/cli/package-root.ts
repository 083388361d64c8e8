// The package's root folder (package.json, demo/), found by walking up from this module. The same
// code runs from the compiled module tree (dist/cli/) and from the bundle (dist/bin/), which sit at
// different depths, so no fixed `../..` would do for both.

import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export function packageRoot(from: string = import.meta.url): string {
  let dir = dirname(fileURLToPath(from));
  for (;;) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`corral: no package.json above ${fileURLToPath(from)}`);
    dir = parent;
  }
}

/** corral's version, from its package.json. */
export function corralVersion(): string {
  return (JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { version: string }).version;
}
