// Starting and ending panes on another host: tmux, git and test run over a real ssh (an sshd on
// 127.0.0.1), each word quoted by the transport, so folder names and command text with quotes,
// `$`, `;` and blanks arrive as typed. Read back with plain tmux and git on the same machine.

import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endPane, startPane } from '../../src/engine/launch/pane-launch.js';
import { openTmux, type OpenedTmux } from '../../src/engine/tmux/open.js';
import { quoteShellWord } from '../../src/engine/tmux/transport.js';
import { startTestSshd, type TestSshd } from '../helpers/sshd.js';
import { startTestTmux, type TestTmux } from '../helpers/tmux-server.js';
import { waitUntil } from '../helpers/wait-until.js';
import { git, makeRepo } from '../helpers/git-repo.js';
import { TMUX_FORMATS } from '../../src/engine/records/tmux-formats.js';
import { realTmuxTime } from '../helpers/real-time.js';


describe('starting and ending panes over ssh', () => {
  let sshd: TestSshd;
  let server: TestTmux;
  let opened: OpenedTmux;
  let dir = '';

  beforeAll(async () => {
    sshd = await startTestSshd();
    server = await startTestTmux();
    await server.spawn('sleep 600');
    opened = openTmux(sshd.host('box', server.socket, sshd.alias), { ...realTmuxTime, formats: TMUX_FORMATS, persistent: false, controlDir: mkdtempSync(join(sshd.controlDir, 'c')), sshOptions: sshd.sshOptions });
    dir = mkdtempSync('/tmp/corral-ssh-launch-');
  }, 60_000);

  afterAll(async () => {
    await opened?.close();
    await server?.kill();
    await sshd?.dispose();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('starts a command in a new worktree of a repository whose name a shell would misread', async () => {
    const repo = makeRepo(join(dir, `it's $HOME; "a b" #x`));
    const text = `$(id) 'q' "d" \\ ; #{pane_id};`;
    const out = join(dir, 'out');
    const command = `printf %s ${quoteShellWord(text)} > ${quoteShellWord(out)}; sleep 60`;
    const started = await startPane(opened.client, { command, cwd: repo, worktree: 'feat/ssh', session: { name: 'main' } });
    const path = `${repo}-feat-ssh`;
    expect(started.worktree).toEqual({ branch: 'feat/ssh', path, repo });
    await waitUntil(async () => (await server.tmux('display-message', '-p', '-t', started.paneId, '#{pane_current_path}')).trim() === path, 5000, `the pane to run in ${path}`);
    await waitUntil(() => existsSync(out) && readFileSync(out, 'utf8') === text, 5000, `the command to write ${text}`);
    expect(git(repo, 'worktree', 'list', '--porcelain')).toContain(`worktree ${path}\n`);

    await expect(startPane(opened.client, { command: 'sleep 1', cwd: repo, worktree: 'feat/ssh' })).rejects.toThrow(/already exists/);
    await expect(startPane(opened.client, { command: 'sleep 1', cwd: join(dir, 'nope') })).rejects.toThrow(/is not a folder on box/);

    const pid = Number((await server.tmux('display-message', '-p', '-t', started.paneId, '#{pane_pid}')).trim());
    await endPane(opened.client, started.paneId, pid);
    expect(await server.tmux('list-panes', '-a', '-F', '#{pane_id}')).not.toContain(`${started.paneId}\n`);
  });
});
