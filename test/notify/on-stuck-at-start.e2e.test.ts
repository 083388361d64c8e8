// --on-stuck for a prompt that is already up when corral starts: `corral serve` on a private tmux
// server whose pane has waited at `[y/N]` since before it started runs the command for it, once,
// and "$CORRAL_TARGET: $CORRAL_MESSAGE" names the pane once. (Panes that turn up already waiting
// later, a restored session, stay silent: restart-burst.e2e.test.ts.)

import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cliEnv, startCli, type LiveCli } from '../helpers/cli.js';
import { startTestTmux, type TestTmux } from '../helpers/tmux-server.js';
import { waitUntil } from '../helpers/wait-until.js';

describe('--on-stuck at start', () => {
  let tmux: TestTmux | null = null;
  let cli: LiveCli | null = null;
  const dir = mkdtempSync(join(tmpdir(), 'corral-on-stuck-'));
  afterAll(async () => {
    await cli?.stop();
    await tmux?.kill();
    rmSync(dir, { recursive: true, force: true });
  });

  it('runs the command for a prompt already up, once', async () => {
    tmux = await startTestTmux();
    const pane = await tmux.spawn(`read -p 'Deploy now? [y/N] ' a; sleep 600`);
    await tmux.waitForScreen(pane, (s) => s.includes('[y/N]'));
    const target = (await tmux.tmux('display-message', '-p', '-t', pane, '#{session_name}:#{window_index}.#{pane_index}')).trim();
    // Quiet past the threshold before corral starts: stuck at its first look.
    await new Promise((r) => setTimeout(r, 1_500));
    const out = join(dir, 'out');
    cli = startCli(
      ['serve', '-L', tmux.socketName, '--port', '0', '--no-hooks', '--quiet-threshold', '500', '--poll-interval', '200', '--on-stuck', `echo "$CORRAL_TARGET: $CORRAL_MESSAGE" >> '${out}'`],
      cliEnv({ XDG_CONFIG_HOME: dir, CORRAL_TOKEN: 'a-token-for-the-on-stuck-test' }),
    );
    await waitUntil(() => existsSync(out) && readFileSync(out, 'utf8').includes('\n'), 15_000, 'the --on-stuck command to run');
    // Time for a second run, were there one.
    await new Promise((r) => setTimeout(r, 1_500));
    expect(readFileSync(out, 'utf8')).toBe(`${target}: Deploy now? [y/N]\n`);
  });
});
