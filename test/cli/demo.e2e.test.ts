// `corral demo` twice at once, in real tmux panes: each run has its own private server, quitting
// one leaves the other running; a demo asked to use a socket that is busy refuses and touches nothing.

import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAIN_JS, shellQuote } from '../helpers/corral-shim.js';
import { startTestTmux, type TestTmux } from '../helpers/tmux-server.js';

const run = promisify(execFile);

describe('corral demo, twice at once', () => {
  let host: TestTmux;
  const dir = mkdtempSync(join(tmpdir(), 'corral-demos-'));
  const sockets = () =>
    readdirSync(dir, { recursive: true })
      .map(String)
      .filter((entry) => /corral-(demo|test-demo)-/.test(entry));
  const demoServer = (socket: string) => run('tmux', ['-S', join(dir, socket), 'list-sessions']);
  const startDemo = (extraEnv = '') =>
    host.spawn(
      `unset TMUX TMUX_PANE; export TMUX_TMPDIR=${shellQuote(dir)} ${extraEnv}; ${shellQuote(process.execPath)} ${shellQuote(MAIN_JS)} demo; echo "EXIT=$?"; sleep 600`,
      { width: 100, height: 30 },
    );

  beforeAll(async () => {
    host = await startTestTmux();
  });
  afterAll(async () => {
    for (const socket of sockets()) await run('tmux', ['-S', join(dir, socket), 'kill-server']).catch(() => undefined);
    await host?.kill();
    rmSync(dir, { recursive: true, force: true });
  });

  it('gives each run its own server, and quitting one never breaks the other', async () => {
    const first = await startDemo();
    await host.waitForScreen(first, (s) => s.includes('6 total'), 15_000);
    const second = await startDemo();
    await host.waitForScreen(second, (s) => s.includes('6 total'), 15_000);
    const both = sockets();
    expect(both).toHaveLength(2);
    // Each header names its own server.
    const [one, two] = await Promise.all([host.capture(first), host.capture(second)]);
    const nameOf = (screen: string) => /-L (corral-demo-\d+)/.exec(screen)?.[1];
    expect(nameOf(one)).toBeDefined();
    expect(nameOf(two)).toBeDefined();
    expect(nameOf(one)).not.toBe(nameOf(two));

    await host.tmux('send-keys', '-t', first, 'q');
    await host.waitForScreen(first, (s) => s.includes('EXIT=0'));
    const left = sockets();
    expect(left).toHaveLength(1);
    expect(left[0]).toContain(nameOf(two) as string);
    await expect(demoServer(left[0] as string)).resolves.toBeDefined();
    // The second dashboard still lists its panes and reports no lost server.
    const later = await host.waitForScreen(second, (s) => s.includes('6 total') && !s.includes('no tmux server'), 5000);
    expect(later).toContain(`-L ${nameOf(two)}`);
    await host.tmux('send-keys', '-t', second, 'q');
    await host.waitForScreen(second, (s) => s.includes('EXIT=0'));
    expect(sockets()).toEqual([]);
  }, 60_000);

  it('refuses, and leaves the running demo alone, when told to use a socket that is busy', async () => {
    const name = `corral-test-demo-${randomBytes(4).toString('hex')}`;
    const first = await startDemo(`CORRAL_DEMO_SOCKET=${name}`);
    await host.waitForScreen(first, (s) => s.includes('6 total'), 15_000);
    const second = await startDemo(`CORRAL_DEMO_SOCKET=${name}`);
    const refused = await host.waitForScreen(second, (s) => s.includes('EXIT=1'), 15_000);
    expect(refused).toContain(`corral: a demo already runs on tmux -L ${name}`);
    await expect(demoServer(sockets()[0] as string)).resolves.toBeDefined();
    expect(await host.capture(first)).toContain('6 total');
    await host.tmux('send-keys', '-t', first, 'q');
    await host.waitForScreen(first, (s) => s.includes('EXIT=0'));
  }, 60_000);
});
