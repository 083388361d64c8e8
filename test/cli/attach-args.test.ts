import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { attachUrl, paneNumber, readToken } from '../../src/cli/commands/attach.js';

describe('corral attach arguments', () => {
  it('takes pane ids with or without %', () => {
    expect(paneNumber('%3')).toBe('3');
    expect(paneNumber('17')).toBe('17');
    expect(paneNumber('main:0.1')).toBeNull();
    expect(paneNumber('%')).toBeNull();
  });

  it('builds the raw-mode WebSocket URL', () => {
    expect(attachUrl('http://127.0.0.1:7878', '3', false)).toBe('ws://127.0.0.1:7878/attach/3?mode=raw');
    expect(attachUrl('https://box.example/corral/', '3', true)).toBe(
      'wss://box.example/corral/attach/3?mode=raw&write=1',
    );
  });

  it('reads the token from the flag, then the environment, then the token file', () => {
    const home = mkdtempSync(join(tmpdir(), 'corral-token-'));
    const env = { XDG_CONFIG_HOME: home } as NodeJS.ProcessEnv;
    expect(readToken(undefined, env)).toBeNull();
    mkdirSync(join(home, 'corral'));
    writeFileSync(join(home, 'corral', 'token'), 'from-file-token\n');
    expect(readToken(undefined, env)).toBe('from-file-token');
    expect(readToken(undefined, { ...env, CORRAL_TOKEN: 'from-env' })).toBe('from-env');
    expect(readToken('from-flag', { ...env, CORRAL_TOKEN: 'from-env' })).toBe('from-flag');
  });
});
