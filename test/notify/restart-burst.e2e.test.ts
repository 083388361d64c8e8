// Storm control with real parts: `corral watch --on-stuck` notifies a prompt it saw appear, but a tmux
// server that restarts with panes already waiting (a restored session) makes no notification burst.

import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cliEnv, startCli, type LiveCli } from '../helpers/cli.js';
import { startTestTmux, type TestTmux } from '../helpers/tmux-server.js';

let tmux: TestTmux | null = null;
let cli: LiveCli | null = null;
const dir = mkdtempSync(join(tmpdir(), 'corral-burst-'));
afterAll(async () => {
  await cli?.stop();
  await tmux?.kill();
  rmSync(dir, { recursive: true, force: true });
});

const calls = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter((l) => l !== '') : []);

describe('no notification burst after a tmux restart', () => {
  it('notifies a prompt it watched appear, then stays silent for six panes restored at their prompts', async () => {
    tmux = await startTestTmux();
    const first = await tmux.spawn();
    await tmux.waitForScreen(first, (s) => /\$\s*$/.test(s.trimEnd()));
    const out = join(dir, 'calls.txt');
    cli = startCli(['watch', '-L', tmux.socketName, '--quiet-threshold', '800', '--poll-interval', '200', '--on-stuck', `echo "$CORRAL_COUNT $CORRAL_REASON $CORRAL_PANE" >> '${out}'`], cliEnv());
    await cli.waitForLine((l) => l.includes('"registered"'));
    await tmux.tmux('send-keys', '-t', first, '-l', `read -p 'Go on? [y/N] ' a`);
    await tmux.tmux('send-keys', '-t', first, 'Enter');
    const deadline = Date.now() + 15_000;
    while (calls(out).length === 0) {
      if (Date.now() > deadline) throw new Error(`no notification; stderr: ${cli.stderr()}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(calls(out)).toEqual([`1 permission ${first}`]);

    // The server dies and comes back with six panes already at their prompts.
    await tmux.tmux('kill-server').catch(() => {});
    await cli.waitForStderr(/no tmux server/);
    const waiting = `read -p 'Restored: deploy? [y/N] ' a`;
    await tmux.tmux('-f', '/dev/null', 'new-session', '-d', '-s', 'restored', 'bash', '--norc', '-c', waiting);
    for (let i = 0; i < 5; i++) await tmux.tmux('new-window', '-d', '-t', 'restored:', 'bash', '--norc', '-c', waiting);
    const stuckLines = () => cli!.stdoutLines.filter((l) => l.includes('"stuck"') && l.includes('Restored: deploy?')).length;
    const until = Date.now() + 20_000;
    while (stuckLines() < 6) {
      if (Date.now() > until) throw new Error(`the restored panes did not all get stuck:\n${cli.stdoutLines.join('\n')}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    // Long enough for the coalescing window and a tick, several times over.
    await new Promise((r) => setTimeout(r, 2_000));
    expect(calls(out)).toEqual([`1 permission ${first}`]);
  });
});
