// `corral new` and `corral end` as a person runs them, on a private tmux server: the key printed is
// the pane tmux made (read back with plain tmux and git), refusals are one line with exit code 1,
// usage errors exit 2, and `end` asks on a real terminal (a tmux pane) before it ends anything.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAIN_JS, shellQuote } from '../helpers/corral-shim.js';
import { runCli } from '../helpers/cli.js';
import { startTestTmux, type TestTmux } from '../helpers/tmux-server.js';
import { waitUntil } from '../helpers/wait-until.js';
import { git, makeRepo } from '../helpers/git-repo.js';


describe('corral new and corral end on a private tmux server', () => {
  let server: TestTmux;
  let dir = '';
  let repo = '';
  const corral = (...args: string[]) => runCli(['-L', server.socketName, ...args]);
  const show = async (pane: string, format: string) => (await server.tmux('display-message', '-p', '-t', pane, format)).trim();
  const paneIds = async () => (await server.tmux('list-panes', '-a', '-F', '#{pane_id}')).trim().split('\n');

  beforeAll(async () => {
    server = await startTestTmux();
    await server.spawn('sleep 600');
    dir = mkdtempSync(join(tmpdir(), 'corral-new-'));
    repo = makeRepo(join(dir, 'svc'));
  });

  afterAll(async () => {
    await server?.kill();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('starts the command in the folder and session asked for, and prints the new pane key', async () => {
    const result = await corral('new', '--cwd', dir, '--session', 'agents', '--name', 'worker', '--', 'sleep', '601');
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const key = result.stdout.trim();
    expect(key).toMatch(/^%\d+$/);
    expect(await show(key, '#{session_name} #{window_name}')).toBe('agents worker');
    await waitUntil(async () => (await show(key, '#{pane_current_path}')) === dir, 5000, `${key} to run in ${dir}`);
    expect(await show(key, '#{pane_start_command}')).toContain('sleep 601');
  });

  it('--worktree makes <repo>-<branch> on a new branch and starts there; --json says so', async () => {
    const result = await corral('new', '--json', '--cwd', repo, '--worktree', 'feat/cli', '--', 'sleep 602');
    expect(result.code).toBe(0);
    const started = JSON.parse(result.stdout) as { key: string; target: string; window: string; cwd: string; worktree: { branch: string; path: string } };
    const path = join(dir, 'svc-feat-cli');
    expect(started).toMatchObject({ window: 'sleep', cwd: path, worktree: { branch: 'feat/cli', path, repo } });
    expect(started.target).toBe(await show(started.key, '#{session_name}:#{window_index}.#{pane_index}'));
    expect(git(repo, 'worktree', 'list', '--porcelain')).toContain(`worktree ${path}\n`);
  });

  it('refuses with one line and exit code 1, and exit code 2 for usage; nothing is started', async () => {
    const before = await paneIds();
    const refusals: Array<[string[], RegExp]> = [
      [['new', '--cwd', repo, '--worktree', 'feat/cli', '--', 'sleep 9'], /branch feat\/cli already exists/],
      [['new', '--cwd', repo, '--worktree', 'a..b', '--', 'sleep 9'], /not a valid branch name/],
      [['new', '--cwd', dir, '--worktree', 'x', '--', 'sleep 9'], /is not in a git repository/],
      [['new', '--cwd', join(dir, 'missing'), '--', 'sleep 9'], /is not a folder/],
      [['new', '--session', 'a:b', '--', 'sleep 9'], /holds ':', '.', '\$' or/],
    ];
    for (const [args, message] of refusals) {
      const result = await corral(...args);
      expect(result.code, args.join(' ')).toBe(1);
      expect(result.stderr, args.join(' ')).toMatch(message);
      expect(result.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1);
    }
    const usage = await corral('new');
    expect(usage.code).toBe(2);
    expect(usage.stderr).toMatch(/no command to start/);
    expect(await paneIds()).toEqual(before);
    const help = await runCli(['new', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('--worktree BRANCH');
    expect((await runCli(['--help'])).stdout).toMatch(/\n {2}new +start a command/);
  });

  it('corral end asks on a terminal, naming the pane, and ends it only after y', async () => {
    const target = (await corral('new', '--cwd', dir, '--name', 'victim', '--', 'sleep 603')).stdout.trim();
    const where = await show(target, '#{session_name}:#{window_index}.#{pane_index}');
    const asker = await server.spawn(`${shellQuote(process.execPath)} ${shellQuote(MAIN_JS)} end -L ${server.socketName} ${target}; echo "exit=$?"; sleep 600`);
    await server.waitForScreen(asker, (s) => s.includes(`end ${where} (${target}: sleep`) && s.includes('[y/N]'));
    await server.tmux('send-keys', '-t', asker, 'n', 'Enter');
    await server.waitForScreen(asker, (s) => s.includes('exit=1'));
    expect(await server.capture(asker)).toContain('not ended');
    expect(await paneIds()).toContain(target);

    const confirmer = await server.spawn(`${shellQuote(process.execPath)} ${shellQuote(MAIN_JS)} end -L ${server.socketName} ${target}; echo "exit=$?"; sleep 600`);
    await server.waitForScreen(confirmer, (s) => s.includes('[y/N]'));
    await server.tmux('send-keys', '-t', confirmer, 'y', 'Enter');
    await server.waitForScreen(confirmer, (s) => s.includes('exit=0'));
    expect(await paneIds()).not.toContain(target);
  });

  it('corral end --yes ends at once; a pane that is gone, or no terminal without --yes, is refused', async () => {
    const key = (await corral('new', '--cwd', dir, '--', 'sleep 604')).stdout.trim();
    const piped = await corral('end', key);
    expect(piped.code).toBe(2);
    expect(piped.stderr).toMatch(/add --yes/);
    expect(await paneIds()).toContain(key);
    const ended = await corral('end', '--yes', key);
    expect(ended.code).toBe(0);
    expect(ended.stdout).toMatch(/^ended .*sleep/);
    expect(await paneIds()).not.toContain(key);
    const again = await corral('end', '--yes', key);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/no pane/);
  });
});
