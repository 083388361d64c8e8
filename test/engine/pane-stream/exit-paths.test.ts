// No tmux control client outlives corral, however it ends: the client detaches when its stdin
// closes, so even SIGKILL (no handler can run) leaves none behind.
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

describe.each(['SIGTERM', 'SIGINT', 'SIGKILL'] as const)('on %s', (signal) => {
  it('the control client goes away with the process', async () => {
    tmux = await startTestTmux();
    const pane = await tmux.spawn('bash --norc');
    const child = spawn(process.execPath, [fixture, tmux.socketName, pane], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (d: Buffer) => d.toString().includes('READY') && resolve());
      child.once('exit', (code) =>
        reject(new Error(`child exited early (${code}): ${stderr} (is dist/ built? run npm run build)`)),
      );
    });
    expect(await controlClients(tmux)).toBe(1);
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.once('exit', (_code, sig) => resolve(sig)));
    child.kill(signal);
    // The signal keeps its default effect: the process ends by it.
    expect(await exited).toBe(signal);
    const deadline = Date.now() + 3000;
    while ((await controlClients(tmux)) > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(await controlClients(tmux)).toBe(0);
  });
});
