import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveToken } from '../../src/cli/token.js';
import { ConfigError } from '../../src/engine/settings/config.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'corral-token-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('resolveToken', () => {
  it('prefers --token, then CORRAL_TOKEN', () => {
    const env = { CORRAL_TOKEN: 'from-the-environment-123' };
    expect(resolveToken({ flag: 'from-the-flag-1234567', env, configDir: dir })).toEqual({ token: 'from-the-flag-1234567', source: 'flag', path: null });
    expect(resolveToken({ env, configDir: dir })).toEqual({ token: 'from-the-environment-123', source: 'env', path: null });
  });

  it('creates a 0600 token file in a 0700 folder on first use, then reads it back', () => {
    const configDir = join(dir, 'corral');
    const first = resolveToken({ env: {}, configDir });
    expect(first.source).toBe('generated');
    expect(first.token).toMatch(/^[\w-]{43}$/);
    expect(statSync(join(configDir, 'token')).mode & 0o777).toBe(0o600);
    expect(statSync(configDir).mode & 0o777).toBe(0o700);
    expect(readFileSync(join(configDir, 'token'), 'utf8').trim()).toBe(first.token);
    expect(resolveToken({ env: {}, configDir })).toEqual({ token: first.token, source: 'file', path: join(configDir, 'token') });
  });

  it('refuses a token file other users can read, and says how to fix it', () => {
    mkdirSync(join(dir, 'c'));
    writeFileSync(join(dir, 'c', 'token'), 'a-token-that-is-long-enough\n');
    chmodSync(join(dir, 'c', 'token'), 0o644);
    expect(() => resolveToken({ env: {}, configDir: join(dir, 'c') })).toThrow(ConfigError);
    expect(() => resolveToken({ env: {}, configDir: join(dir, 'c') })).toThrow(/chmod 600/);
  });

  it('refuses short tokens', () => {
    expect(() => resolveToken({ flag: 'short', env: {}, configDir: dir })).toThrow(/at least 16/);
  });
});
