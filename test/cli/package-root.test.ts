import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/cli/package-root.js';

describe('packageRoot', () => {
  let dir: string | null = null;
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = null;
  });

  it('finds the nearest folder with a package.json, whatever the depth of the module', () => {
    dir = mkdtempSync(join(tmpdir(), 'corral-root-'));
    writeFileSync(join(dir, 'package.json'), '{}');
    mkdirSync(join(dir, 'dist/bin/chunks'), { recursive: true });
    mkdirSync(join(dir, 'dist/cli/commands'), { recursive: true });
    expect(packageRoot(pathToFileURL(join(dir, 'dist/bin/chunks/a.js')).href)).toBe(dir);
    expect(packageRoot(pathToFileURL(join(dir, 'dist/cli/commands/demo.js')).href)).toBe(dir);
  });

  it('is the checkout itself for the source tree', () => {
    expect(packageRoot()).toBe(join(import.meta.dirname, '../..'));
  });
});
