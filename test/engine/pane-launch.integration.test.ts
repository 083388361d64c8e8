// Starting and ending panes on a real tmux server (a private socket) with a real git: what the
// pane runs, where and under which name is read back with plain tmux and git, the oracles. Folder
// names, window names and command text come from a seeded generator (CORRAL_TEST_SEED replays one).

import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endPane, startPane, PaneReplacedError, WorktreeError, StartRefusedError } from '../../src/engine/launch/pane-launch.js';
import { PaneGoneError } from '../../src/engine/tmux/core.js';
import { TmuxClient } from '../../src/engine/tmux/client.js';
import { quoteShellWord } from '../../src/engine/tmux/transport.js';
import { Rng, hostileFolderName, screenLine, testSeed } from '../helpers/hostile-text.js';
import { removeSocketFile, startTestTmux, type TestTmux } from '../helpers/tmux-server.js';
import { waitUntil } from '../helpers/wait-until.js';
import { git, makeRepo } from '../helpers/git-repo.js';
import { LISTED_RECORDS } from '../../src/engine/records/tmux-formats.js';
import { realClock } from '../helpers/real-time.js';

const seed = testSeed();
// Window names read back through a format, and text through a file: control characters left out.
// eslint-disable-next-line no-control-regex
const printable = (text: string) => text.replace(/[\u0000-\u001f\u007f]/g, '');

describe('starting and ending panes on a real tmux server', () => {
  let server: TestTmux;
  let client: TmuxClient;
  let dir: string;
  let repo: string;
  const show = async (paneId: string, format: string) => (await server.tmux('display-message', '-p', '-t', paneId, format)).replace(/\n$/, '');
  // tmux reads the folder from the pane's process, which changes into it a moment after the fork.
  const folderOf = async (paneId: string, expected: string) => {
    await waitUntil(async () => (await show(paneId, '#{pane_current_path}')) === expected, 5_000, `the folder of ${paneId} to be ${JSON.stringify(expected)} (seed ${seed})`).catch(() => {});
    return show(paneId, '#{pane_current_path}');
  };

  beforeAll(async () => {
    server = await startTestTmux();
    await server.spawn();
    client = new TmuxClient({ clock: realClock, records: LISTED_RECORDS, socket: server.socket });
    dir = mkdtempSync(join(tmpdir(), 'corral-launch-'));
    repo = makeRepo(join(dir, 'app'));
  });

  afterAll(async () => {
    await server?.kill();
    rmSync(dir, { recursive: true, force: true });
  });

  it('starts the command as typed, in the folder, under the name, whatever they hold', async () => {
    const rng = new Rng(seed);
    for (let i = 0; i < 12; i++) {
      const folder = join(dir, hostileFolderName(rng).replace(/^\.+$/, 'dots'));
      mkdirSync(folder, { recursive: true });
      const text = `${printable(screenLine(rng))};`;
      const name = printable(screenLine(rng, 3)) || 'n';
      const out = join(dir, `out-${i}`);
      const command = `printf %s ${quoteShellWord(text)} > ${quoteShellWord(out)}; sleep 60`;
      const started = await startPane(client, { command, cwd: folder, name, session: { name: 'main' } });
      expect(started.newSession, `seed ${seed}`).toBe(false);
      expect(await folderOf(started.paneId, folder), `seed ${seed}`).toBe(folder);
      expect(await show(started.paneId, '#{session_name}'), `seed ${seed}`).toBe('main');
      expect((await server.tmux('list-windows', '-a', '-F', '#{window_name}')).split('\n'), `seed ${seed}`).toContain(name);
      await waitUntil(() => existsSync(out), 5_000, `seed ${seed}: the command to write ${out}`);
      await waitUntil(() => readFileSync(out, 'utf8') === text, 2_000, `seed ${seed}: the command to write ${JSON.stringify(text)}; it wrote ${JSON.stringify(readFileSync(out, 'utf8'))}`);
    }
  });

  it('adds a worktree beside the repository on a new branch and starts there; git lists it', async () => {
    const started = await startPane(client, { command: 'sleep 60', cwd: repo, worktree: 'feat/one' });
    const path = join(dir, 'app-feat-one');
    expect(started.worktree).toEqual({ branch: 'feat/one', path, repo });
    expect(await folderOf(started.paneId, path)).toBe(path);
    expect(await show(started.paneId, '#{window_name}')).toBe('sleep');
    const listed = git(repo, 'worktree', 'list', '--porcelain');
    expect(listed).toContain(`worktree ${path}\n`);
    expect(listed).toContain('branch refs/heads/feat/one');
  });

  it('refuses a branch that exists, a name git refuses, a folder outside a repository or missing; no window is made', async () => {
    const windows = async () => (await server.tmux('list-windows', '-a', '-F', '#{window_id}')).trim().split('\n').length;
    const before = await windows();
    await expect(startPane(client, { command: 'sleep 60', cwd: repo, worktree: 'feat/one' })).rejects.toThrow(/branch feat\/one already exists/);
    await expect(startPane(client, { command: 'sleep 60', cwd: repo, worktree: 'a..b' })).rejects.toThrow(WorktreeError);
    await expect(startPane(client, { command: 'sleep 60', cwd: dir, worktree: 'x' })).rejects.toThrow(/not in a git repository/);
    await expect(startPane(client, { command: 'sleep 60', cwd: join(dir, 'missing') })).rejects.toThrow(StartRefusedError);
    await expect(startPane(client, { command: '  ', cwd: repo })).rejects.toThrow(/no command/);
    expect(await windows()).toBe(before);
    expect(git(repo, 'branch', '--list', 'a..b')).toBe('');
  });

  it('ends the pane it was shown, and only that one', async () => {
    const { paneId } = await startPane(client, { command: 'sleep 60', cwd: dir });
    const pid = Number(await show(paneId, '#{pane_pid}'));
    await expect(endPane(client, paneId, pid + 1)).rejects.toThrow(PaneReplacedError);
    expect(await show(paneId, '#{pane_id}')).toBe(paneId);
    await endPane(client, paneId, pid);
    expect(await server.tmux('list-panes', '-a', '-F', '#{pane_id}')).not.toContain(`${paneId}\n`);
    await expect(endPane(client, paneId, pid)).rejects.toThrow(PaneGoneError);
  });

  it('makes a session when the server has none running, and a named one when it is missing', async () => {
    const socketName = `${server.socketName}-fresh`;
    const fresh = new TmuxClient({ clock: realClock, records: LISTED_RECORDS, socket: { kind: 'name', name: socketName } });
    try {
      const first = await startPane(fresh, { command: 'sleep 60', cwd: dir });
      expect(first.newSession).toBe(true);
      const named = await startPane(fresh, { command: 'sleep 60', cwd: dir, session: { name: 'agents' } });
      expect(named.newSession).toBe(true);
      const again = await startPane(fresh, { command: 'sleep 60', cwd: dir, session: { name: 'agents' } });
      expect(again.newSession).toBe(false);
      const sessions = execFileSync('tmux', ['-L', socketName, 'list-sessions', '-F', '#{session_name}'], { encoding: 'utf8' });
      expect(sessions.split('\n').filter((s) => s === 'agents')).toHaveLength(1);
    } finally {
      try {
        execFileSync('tmux', ['-L', socketName, 'kill-server'], { stdio: 'ignore' });
      } catch {
        // already gone
      }
      removeSocketFile(socketName);
    }
  });
});
