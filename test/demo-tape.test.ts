// Plays demo.tape into the demo running in a real tmux pane and checks each "# expect:" line,
// so the recorded demo cannot drift from what corral really does.

import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseTape } from '../scripts/tape-player.mjs';
import { playTape } from '../scripts/tape-player.mjs';
import { corralShim, shellQuote } from './helpers/corral-shim.js';
import { processesWithEnv } from './helpers/processes.js';
import { removeSocketFile, startTestTmux, type TestTmux } from './helpers/tmux-server.js';

const execFileAsync = promisify(execFile);

describe('demo.tape', () => {
  let tmux: TestTmux;
  const shim = corralShim();
  const demoSocket = `corral-test-demo-${randomBytes(4).toString('hex')}`;
  const marker = `CORRAL_TAPE_RUN=${randomBytes(4).toString('hex')}`;

  beforeAll(async () => {
    tmux = await startTestTmux();
  });
  afterAll(async () => {
    await execFileAsync('tmux', ['-L', demoSocket, 'kill-server']).catch(() => {});
    removeSocketFile(demoSocket);
    await tmux?.kill();
    shim.remove();
  });

  it('plays in a real tmux pane and every expectation holds', async () => {
    const tape = parseTape(readFileSync(new URL('../demo.tape', import.meta.url), 'utf8'));
    const size = tape.size ?? { columns: 120, rows: 32 };
    const paneId = await tmux.spawn(
      `export PATH=${shellQuote(shim.dir)}:"$PATH" CORRAL_DEMO_SOCKET=${demoSocket} CORRAL_PORT=0 CORRAL_TOKEN=demo-token-shown-in-the-demo-only ${marker} PS1='$ '; exec bash --norc --noprofile -i`,
      { width: size.columns, height: size.rows },
    );
    await tmux.waitForScreen(paneId, (s) => s.includes('$'));
    const seen: number[] = [];
    await playTape({
      tape,
      tmux: (...args) => tmux.tmux(...args),
      paneId,
      typingDelayMs: 25,
      onStep: (step) => {
        if (step.kind === 'expect') seen.push(step.line);
      },
    });
    expect(seen.length).toBe(tape.steps.filter((s) => s.kind === 'expect').length);
    // Quitting removed the demo server and left no corral process behind.
    await expect(execFileAsync('tmux', ['-L', demoSocket, 'list-sessions'])).rejects.toThrow();
    const leftovers = processesWithEnv(marker).filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('main.js');
      } catch {
        return false;
      }
    });
    expect(leftovers).toEqual([]);
  }, 120_000);
});
