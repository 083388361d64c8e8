// Storm control with real parts: `corral watch --on-stuck` notifies a prompt it saw appear, but a tmux
// server that restarts with panes already waiting (a restored session) makes no notification burst.

import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cliEnv, startCli, type LiveCli } from '../helpers/cli.js';
import { startTestTmux, type TestTmux } from '../helpers/tmux-server.js';
import { waitUntil } from '../helpers/wait-until.js';

let tmux: TestTmux | null = null;
let cli: LiveCli | null = null;
const dir = mkdtempSync(join(tmpdir(), 'corral-burst-'));
afterAll(async () => {
  await cli?.stop();
  await tmux?.kill();
  rmSync(dir, { recursive: true, force: true });
});

/** A call's count, reason and pane, without the message's first line that follows them. */
const head = (line: string) => line.split(' ').slice(0, 3).join(' ');
const calls = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter((l) => l !== '') : []);

describe('no notification burst after a tmux restart', () => {
  it('notifies a prompt it watched appear, stays silent for six panes restored at their prompts, and notifies the next one that appears', { timeout: 90_000 }, async () => {
    tmux = await startTestTmux();
    const first = await tmux.spawn();
    await tmux.waitForScreen(first, (s) => /\$\s*$/.test(s.trimEnd()));
    const out = join(dir, 'calls.txt');
    cli = startCli(['watch', '-L', tmux.socketName, '--quiet-threshold', '800', '--poll-interval', '200', '--on-stuck', `echo "$CORRAL_COUNT $CORRAL_REASON $CORRAL_PANE $(echo "$CORRAL_MESSAGE" | head -n 1)" >> '${out}'`], cliEnv());
    await cli.waitForLine((l) => l.includes('"registered"'));
    await tmux.tmux('send-keys', '-t', first, '-l', `read -p 'Go on? [y/N] ' a`);
    await tmux.tmux('send-keys', '-t', first, 'Enter');
    await waitUntil(() => calls(out).length > 0, 30_000, 'the first notification', 50).catch((error: Error) => {
      throw new Error(`${error.message}; stderr: ${cli!.stderr()}`);
    });
    expect(calls(out).map(head)).toEqual([`1 permission ${first}`]);

    // The server dies and comes back with six panes already at their prompts.
    await tmux.tmux('kill-server').catch(() => {});
    await cli.waitForStderr(/no tmux server/);
    const waiting = `read -p 'Restored: deploy? [y/N] ' a`;
    await tmux.tmux('-f', '/dev/null', 'new-session', '-d', '-s', 'restored', 'bash', '--norc', '-c', waiting);
    for (let i = 0; i < 5; i++) await tmux.tmux('new-window', '-d', '-t', 'restored:', 'bash', '--norc', '-c', waiting);
    const stuckLines = () => cli!.stdoutLines.filter((l) => l.includes('"stuck"') && l.includes('Restored: deploy?')).length;
    await waitUntil(() => stuckLines() >= 6, 30_000, 'the restored panes stuck', 50).catch((error: Error) => {
      throw new Error(`${error.message}:\n${cli!.stdoutLines.join('\n')}`);
    });
    // A prompt that appears now, while watched, must be notified: that notification is the known
    // point after which a burst for the restored panes would have gone out already, or with it.
    // Only a pane corral has seen change between two screens counts as watched: a new shell's first
    // capture may be empty, and one that goes from empty straight to a prompt looks restored. So the
    // new pane first shows a warm-up prompt that is answered; corral telling that it is no longer
    // stuck proves that it saw the pane change, whether or not the warm-up itself was notified.
    const later = (await tmux.tmux('new-window', '-d', '-P', '-F', '#{pane_id}', '-t', 'restored:', 'bash', '--norc')).trim();
    await cli.waitForLine((l) => l.includes('"registered"') && l.includes(`"${later}"`), 30_000);
    await tmux.tmux('send-keys', '-t', later, '-l', `read -p 'Warm-up: ready? [y/N] ' a`);
    await tmux.tmux('send-keys', '-t', later, 'Enter');
    await cli.waitForLine((l) => l.includes('"stuck"') && l.includes('Warm-up: ready?'), 30_000);
    await tmux.tmux('send-keys', '-t', later, '-l', 'n');
    await tmux.tmux('send-keys', '-t', later, 'Enter');
    await cli.waitForLine((l) => l.includes('"unstuck"') && l.includes(`"${later}"`), 30_000);
    await tmux.tmux('send-keys', '-t', later, '-l', `read -p 'Later: go on? [y/N] ' a`);
    await tmux.tmux('send-keys', '-t', later, 'Enter');
    const notified = () => calls(out).filter((line) => !line.includes('Warm-up'));
    await waitUntil(() => notified().length >= 2, 30_000, 'the notification for the later prompt', 50).catch((error: Error) => {
      throw new Error(`${error.message}; screen: ${JSON.stringify(cli!.stdoutLines.slice(-12))}; stderr: ${cli!.stderr()}`);
    });
    expect(notified().map(head)).toEqual([`1 permission ${first}`, `1 permission ${later}`]);
    expect(notified()[1]).toContain('Later: go on?');
  });
});
