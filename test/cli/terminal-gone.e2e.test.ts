// corral must leave when its terminal goes away: the tmux pane it runs in closes with its server,
// or the program reading its output quits. Nothing may be left spinning on writes that fail.
// Real tmux on private sockets, the built CLI.

import { spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { CLI, cliEnv } from '../helpers/cli.js';
import { startTestTmux, type TestTmux } from '../helpers/tmux-server.js';
import { waitUntil } from '../helpers/wait-until.js';

const servers: TestTmux[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.kill();
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function gone(pid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (alive(pid)) {
    if (Date.now() > deadline) {
      process.kill(pid, 'SIGKILL');
      return false;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return true;
}

function shellQuote(value: string): string {
  return `'${value.replaceAll("'", `'\\''`)}'`;
}

describe('when the terminal goes away', () => {
  it('a dashboard whose tmux server is killed exits', async () => {
    const watched = await startTestTmux();
    const host = await startTestTmux();
    servers.push(watched, host);
    await watched.spawn('sleep 600');
    // exec: the pane's process is corral itself.
    const pane = await host.spawn(`unset TMUX TMUX_PANE; exec ${shellQuote(process.execPath)} ${shellQuote(CLI)} -L ${watched.socketName} dashboard`);
    await host.waitForScreen(pane, (s) => s.includes('main:0.0'), 15_000);
    const pid = Number((await host.tmux('display-message', '-p', '-t', pane, '#{pane_pid}')).trim());
    expect(alive(pid)).toBe(true);
    await host.kill();
    expect(await gone(pid, 10_000), 'corral still runs after its terminal went away').toBe(true);
  });

  it('corral watch exits at its next event once the program reading its output quit', async () => {
    const watched = await startTestTmux();
    servers.push(watched);
    const panes: string[] = [];
    for (let i = 0; i < 3; i++) panes.push(await watched.spawn('sleep 600'));
    // After head quits, the reading side closes its end of the pipe and says so: from then on
    // nothing reads corral's output.
    const reader = `{ head -n 1; exec 0<&-; echo reader-gone; }`;
    const child = spawn('sh', ['-c', `${shellQuote(process.execPath)} ${shellQuote(CLI)} -L ${watched.socketName} watch | ${reader}`], {
      env: cliEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<number | null>((resolve) => {
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        resolve(-1);
      }, 15_000);
      child.on('exit', (c) => {
        clearTimeout(timer);
        resolve(c);
      });
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    let err = '';
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    // head has its line and quits, the reader is gone; the pane closing below is the next event
    // corral writes.
    await waitUntil(() => out.includes('reader-gone\n'), 10_000, 'head to take its line and the reader to close the pipe');
    await watched.tmux('kill-pane', '-t', panes[0]!);
    const code = await exited;
    expect(out, err).toContain('"type":"registered"');
    expect(code, `the pipeline did not end; stderr: ${err}; out: ${out}`).not.toBe(-1);
    // Like any well-behaved filter, it leaves without a word: its reader is gone, not broken.
    expect(err).toBe('');
  });
});
