// Quiet time is the pane's, whichever corral reads it: a pane idle beside a busy pane of the same
// window (tmux stamps only the window) is shown idle since its program last used the terminal by a
// corral that just started; and a corral that starts while another runs, or after it stopped,
// takes over the quiet time that one recorded in the pane (`@corral_quiet`), checked with plain tmux.

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli, startCli, type LiveCli } from '../helpers/cli.js';
import { startTestTmux, type TestTmux } from '../helpers/tmux-server.js';
import { waitUntil } from '../helpers/wait-until.js';

interface Listed {
  readonly paneId: string;
  readonly quietMs: number;
  readonly status: string;
}

/** Prints twice a second, for ever: its window's activity stamp is always fresh. */
const BUSY = 'while :; do date +%s.%N; sleep 0.5; done';

describe('quiet time across corral processes', () => {
  let server: TestTmux;
  let watch: LiveCli | null = null;

  beforeEach(async () => {
    server = await startTestTmux();
  });
  afterEach(async () => {
    await watch?.stop();
    watch = null;
    await server.kill();
  });

  /** `ls` saw the pane quiet since `since`, within a second, at some moment while it ran. */
  async function quietSince(pane: string, since: number): Promise<void> {
    const asked = Date.now();
    const quietMs = (await listed()).get(pane)!.quietMs;
    expect(quietMs).toBeGreaterThanOrEqual(asked - since - 1_000);
    expect(quietMs).toBeLessThanOrEqual(Date.now() - since + 1_000);
  }

  async function listed(): Promise<Map<string, Listed>> {
    const result = await runCli(['ls', '--json', '-L', server.socketName, '--quiet-threshold', '5000', '--ask-threshold', '5000']);
    expect(result.code, result.stderr).toBe(0);
    return new Map((JSON.parse(result.stdout) as Listed[]).map((pane) => [pane.paneId, pane]));
  }

  /** A pane running `command`, and a busy pane split off it in the same window. */
  async function besideBusy(command: string, prompt: string): Promise<{ idle: string; busy: string; shownBy: number }> {
    const idle = await server.spawn(command);
    const busy = (await server.tmux('split-window', '-d', '-t', idle, '-P', '-F', '#{pane_id}', 'bash', '--norc', '-c', BUSY)).trim();
    await server.waitForScreen(idle, (screen) => screen.includes(prompt));
    return { idle, busy, shownBy: Date.now() };
  }

  it('a corral that starts beside a busy pane shows an idle pane of its window idle since its terminal was last used', { timeout: 60_000 }, async () => {
    const startedAt = Date.now();
    const { idle, busy, shownBy } = await besideBusy(`read -p 'continue? [y/N] ' x; sleep 600`, 'continue?');
    // The terminal's stamps move in 8-second steps: 17 s after the prompt, the step it was printed in is over.
    await new Promise((r) => setTimeout(r, Math.max(0, shownBy + 17_000 - Date.now())));
    const activity = Number((await server.tmux('display-message', '-p', '-t', idle, '#{window_activity}')).trim()) * 1000;
    // tmux's own stamp for the window is fresh (the busy pane): it cannot tell the idle pane apart.
    expect(Date.now() - activity).toBeLessThan(3_000);
    const asked = Date.now();
    const panes = await listed();
    // Printed after the test started and before it was seen: quiet since then, give or take the 8-second step.
    expect(panes.get(idle)?.quietMs).toBeGreaterThanOrEqual(asked - shownBy - 8_000 - 1_000);
    expect(panes.get(idle)?.quietMs).toBeLessThanOrEqual(Date.now() - startedAt);
    expect(panes.get(idle)?.status).toBe('stuck');
    expect(panes.get(busy)?.status).toBe('active');
  });

  it('a corral that starts while another runs, or after it stopped, goes on with the quiet time that one recorded', { timeout: 60_000 }, async () => {
    // The pane's own process no longer holds its terminal (a child keeps it open, or tmux would close
    // the pane): its terminal's stamps cannot be read, as on a remote host; only the record can tell.
    const { idle, busy } = await besideBusy(`printf 'go on? [y/N] '; sleep 600 & exec 0</dev/null 1>/dev/null 2>&1; wait`, 'go on?');
    watch = startCli(['watch', '-L', server.socketName, '--quiet-threshold', '5000', '--ask-threshold', '5000']);
    const record = async () => (await server.tmux('show-options', '-p', '-q', '-v', '-t', idle, '@corral_quiet')).trim();
    await waitUntil(async () => (await record()) !== '', 20_000, 'the running corral to record the quiet pane');
    const since = Number((await record()).split('.')[0]);
    expect(Date.now() - since).toBeGreaterThanOrEqual(5_000);

    await quietSince(idle, since);
    expect((await listed()).get(busy)?.status).toBe('active');

    // The record outlives the corral that wrote it, for the next one.
    await watch.stop();
    watch = null;
    expect(await record()).not.toBe('');
    await quietSince(idle, since);

    // Once the pane shows another screen, the record is no longer believed.
    const typedAt = Date.now();
    await server.tmux('send-keys', '-t', idle, '-l', 'typed');
    await server.waitForScreen(idle, (screen) => screen.includes('typed'));
    expect((await listed()).get(idle)!.quietMs).toBeLessThanOrEqual(Date.now() - typedAt + 1_000);
  });
});
