// Whether a pane's foreground program waits for input, read from the real /proc while a real shell
// in real tmux runs one short command after another: the moments between two commands (a process
// that has just exited, one not yet started) must never read as a program waiting for keys.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { foregroundWaitsForInput } from '../../../src/engine/conversation/input-wait.js';
import { startTestTmux, type TestTmux } from '../../helpers/tmux-server.js';
import { waitUntil } from '../../helpers/wait-until.js';

let tmux: TestTmux;
beforeAll(async () => {
  tmux = await startTestTmux();
});
afterAll(async () => {
  await tmux.kill();
});

/** Reads the answer as fast as it can for `ms`, counting each answer. */
function sample(panePid: number, ms: number): Record<string, number> {
  const counts: Record<string, number> = {};
  const end = Date.now() + ms;
  while (Date.now() < end) {
    const answer = String(foregroundWaitsForInput(panePid));
    counts[answer] = (counts[answer] ?? 0) + 1;
  }
  return counts;
}

describe.runIf(process.platform === 'linux')('foregroundWaitsForInput on a real shell', () => {
  it('says no at every moment of a loop of short commands, and yes at the prompt after it', async () => {
    const pane = await tmux.spawn();
    await tmux.waitForScreen(pane, (screen) => screen.includes('$'));
    const panePid = Number((await tmux.tmux('display-message', '-p', '-t', pane, '#{pane_pid}')).trim());
    // Short commands back to back for 4 s, then the prompt again.
    await tmux.tmux('send-keys', '-t', pane, '-l', 'end=$((SECONDS + 4)); while [ $SECONDS -lt $end ]; do sleep 0.001; done');
    await tmux.tmux('send-keys', '-t', pane, 'Enter');
    await waitUntil(() => foregroundWaitsForInput(panePid) === false, 10_000, 'the loop to start');
    const during = sample(panePid, 1500);
    expect(during).toEqual({ false: expect.any(Number) });
    await waitUntil(() => foregroundWaitsForInput(panePid) === true, 10_000, 'the prompt to wait for keys again');
  });
});
