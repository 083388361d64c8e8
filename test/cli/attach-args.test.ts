import { existsSync, mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { attachUrl, paneNumber } from '../../src/cli/commands/attach.js';
import { findToken } from '../../src/cli/token.js';

describe('corral attach arguments', () => {
  it('takes pane ids with or without %', () => {
    expect(paneNumber('%3')).toBe('3');
    expect(paneNumber('17')).toBe('17');
    expect(paneNumber('main:0.1')).toBeNull();
    expect(paneNumber('%')).toBeNull();
  });

  it('takes a pane on another host with the host in front', () => {
    expect(paneNumber('build-box/%3')).toBe('build-box/3');
    expect(paneNumber('vm1/12')).toBe('vm1/12');
    expect(paneNumber('local/%3')).toBeNull();
    expect(paneNumber('a/b/%3')).toBeNull();
    expect(attachUrl('http://127.0.0.1:7878', 'build-box/3', false)).toBe('ws://127.0.0.1:7878/attach/build-box/3?mode=raw');
  });

  it('builds the raw-mode WebSocket URL', () => {
    expect(attachUrl('http://127.0.0.1:7878', '3', false)).toBe('ws://127.0.0.1:7878/attach/3?mode=raw');
    expect(attachUrl('https://box.example/corral/', '3', true)).toBe(
      'wss://box.example/corral/attach/3?mode=raw&write=1',
    );
  });

  it('finds the token from the flag, then the environment, then the token file, without creating one', () => {
    const home = mkdtempSync(join(tmpdir(), 'corral-token-'));
    const dir = join(home, 'corral');
    const env = { XDG_CONFIG_HOME: home } as NodeJS.ProcessEnv;
    expect(findToken({ env, configDir: dir })).toBeNull();
    expect(existsSync(join(dir, 'token'))).toBe(false);
    mkdirSync(dir);
    writeFileSync(join(dir, 'token'), 'from-file-token-0123456789\n', { mode: 0o600 });
    expect(findToken({ env, configDir: dir })?.token).toBe('from-file-token-0123456789');
    expect(findToken({ env: { ...env, CORRAL_TOKEN: 'from-env-0123456789' }, configDir: dir })?.token).toBe('from-env-0123456789');
    expect(findToken({ flag: 'from-flag-0123456789', env: { ...env, CORRAL_TOKEN: 'from-env-0123456789' }, configDir: dir })?.token).toBe('from-flag-0123456789');
  });
});
