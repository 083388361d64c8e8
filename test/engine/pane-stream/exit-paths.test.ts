// No tmux control client outlives corral, however it ends: each client runs under a supervisor
// that ends it when its input ends, so even SIGKILL (no handler can run) leaves none behind, also
// when tmux still holds output for it (which alone kept a client attached for minutes).
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestTmux, type TestTmux } from '../../helpers/tmux-server.js';

const fixture = fileURLToPath(new URL('../../fixtures/hold-stream.mjs', import.meta.url));

let tmux: TestTmux | null = null;
afterEach(async () => {
  await tmux?.kill();
  tmux = null;
});

async function controlClients(t: TestTmux): Promise<number> {
  return (await t.tmux('list-clients', '-F', '#{client_flags}')).split('\n').filter((l) => l.includes('control-mode'))
    .length;
}

describe.each([
  ['SIGTERM', false],
  ['SIGINT', false],
  ['SIGKILL', false],
  ['SIGKILL', true],
] as const)('on %s (hung with output queued: %s)', (signal, hang) => {
  it('the control client goes away with the process', async () => {
    tmux = await startTestTmux();
    // A pane that prints without a pause: a reader that stops reading falls behind at once.
    const pane = await tmux.spawn(hang ? 'yes corral-is-printing-a-lot' : 'bash --norc');
    const child = spawn(process.execPath, [fixture, tmux.socketName, pane, ...(hang ? ['hang'] : [])], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (d: Buffer) => d.toString().includes('READY') && resolve());
      child.once('exit', (code) =>
        reject(new Error(`child exited early (${code}): ${stderr} (is dist/ built? run npm run build)`)),
      );
    });
    expect(await controlClients(tmux)).toBe(1);
    // A time, not an event: tmux shows no sign of the output it holds for a client (the client only
    // polls, and nothing lists its queue), so the queue is given half a second to fill.
    if (hang) await new Promise((r) => setTimeout(r, 500));
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.once('exit', (_code, sig) => resolve(sig)));
    child.kill(signal);
    // The signal keeps its default effect: the process ends by it.
    expect(await exited).toBe(signal);
    const deadline = Date.now() + 3000;
    while ((await controlClients(tmux)) > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(await controlClients(tmux)).toBe(0);
  });
});
