// Without a terminal the dashboard says what to do instead, and exits 2.

import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { MAIN_JS } from '../helpers/corral-shim.js';

const run = promisify(execFile);

describe('dashboard without a terminal', () => {
  it.each([[[]], [['dashboard']], [['demo']]])('corral %j exits 2 and suggests corral ls', async (args) => {
    const failure = await run(process.execPath, [MAIN_JS, ...args], { env: { ...process.env, TMUX: '' } }).then(
      () => null,
      (error: { code: number; stderr: string }) => error,
    );
    expect(failure?.code).toBe(2);
    expect(failure?.stderr).toMatch(/needs a terminal.*corral ls/);
  });
});
