// Starting and ending panes from the dashboard in a real tmux server: the dashboard runs in a pane of
// the server it watches and is driven with send-keys; what it did is read back with plain tmux
// (where the new pane runs, whether a pane is gone) and git (the worktree), never from corral.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAIN_JS, shellQuote } from '../helpers/corral-shim.js';
import { startTestTmux, type TestTmux } from '../helpers/tmux-server.js';
import { waitUntil } from '../helpers/wait-until.js';
import { git, makeRepo } from '../helpers/git-repo.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface ListedPane {
  readonly id: string;
  readonly target: string;
  readonly cwd: string;
  readonly start: string;
  readonly window: string;
}

describe('starting and ending panes from the dashboard in a real tmux server', () => {
  let server: TestTmux;
  let dash = '';
  let repoPane = '';
  let dir = '';
  let repo = '';
  const keys = async (...k: string[]) => {
    // Pacing, not a wait for a result: keys go in at a person's speed.
    for (const key of k) {
      await server.tmux('send-keys', '-t', dash, key);
      await sleep(80);
    }
  };
  const type = async (text: string) => {
    await server.tmux('send-keys', '-t', dash, '-l', text);
    await sleep(80);
  };
  const dashShows = (test: (s: string) => boolean, timeoutMs = 8000) => server.waitForScreen(dash, test, timeoutMs);
  const selected = (s: string) => s.split('\n').find((l) => l.startsWith('›')) ?? '';
  const panes = async (): Promise<ListedPane[]> =>
    (await server.tmux('list-panes', '-a', '-F', '#{pane_id}\t#{session_name}:#{window_index}.#{pane_index}\t#{pane_current_path}\t#{pane_start_command}\t#{window_name}'))
      .trim()
      .split('\n')
      .map((line) => {
        const [id = '', target = '', cwd = '', start = '', window = ''] = line.split('\t');
        return { id, target, cwd, start, window };
      });
  /** The pane whose command line holds `marker`, once tmux lists it with its folder `cwd`. */
  const startedPane = async (marker: string, cwd: string): Promise<ListedPane> => {
    let found: ListedPane | undefined;
    await waitUntil(async () => {
      found = (await panes()).find((p) => p.start.includes(marker) && p.cwd === cwd);
      return found !== undefined;
    }, 8000, `a pane running ${marker} in ${cwd}: ${JSON.stringify(await panes())}`);
    return found as ListedPane;
  };
  /** Selects the repository's pane: filter on its window name, keep the selection, clear the filter. */
  const selectRepoPane = async () => {
    await keys('/');
    await type('repo-pane');
    await keys('Enter', 'Escape');
    const target = (await panes()).find((p) => p.id === repoPane)?.target ?? '?';
    await dashShows((s) => selected(s).includes(` ${target} `));
  };

  beforeAll(async () => {
    server = await startTestTmux();
    dir = mkdtempSync(join(tmpdir(), 'corral-dash-start-'));
    repo = makeRepo(join(dir, 'app'));
    repoPane = await server.spawn(`cd ${shellQuote(repo)} && exec sleep 600`);
    await server.tmux('rename-window', '-t', repoPane, 'repo-pane');
    await server.spawn('sleep 600');
    dash = await server.spawn(`exec ${shellQuote(process.execPath)} ${shellQuote(MAIN_JS)} dashboard --poll-interval 300`, {
      session: 'dash',
      width: 160,
      height: 30,
    });
    await dashShows((s) => s.includes('repo-pane'), 15_000);
  });

  afterAll(async () => {
    await server?.kill();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("c starts the command typed in a new window in the selected pane's folder and session, and selects it", async () => {
    await selectRepoPane();
    const current = async () => (await server.tmux('display-message', '-p', '-t', 'main:', '#{window_id}')).trim();
    const before = await current();
    await keys('c');
    await dashShows((s) => s.includes(`start in a new window, in ${repo}`));
    await type('sleep 501');
    await keys('Enter');
    const started = await startedPane('sleep 501', repo);
    expect(started.window).toBe('sleep');
    expect(started.target.startsWith('main:')).toBe(true);
    // The session's current window stays the same: nobody is moved to the new one.
    expect(await current()).toBe(before);
    await dashShows((s) => selected(s).includes(` ${started.target} `));
  });

  it('Tab then a branch starts it in a new git worktree beside the repository; a branch that exists is refused and the prompt kept', async () => {
    await selectRepoPane();
    await keys('c');
    await type('sleep 502');
    await keys('Tab');
    await dashShows((s) => s.includes('new branch ›'));
    await type('feat/dash');
    await keys('Enter');
    const path = join(dir, 'app-feat-dash');
    const started = await startedPane('sleep 502', path);
    expect(git(repo, 'worktree', 'list', '--porcelain')).toContain(`worktree ${path}\nHEAD`);
    expect(git(repo, 'branch', '--list', 'feat/dash')).toContain('feat/dash');
    await dashShows((s) => selected(s).includes(` ${started.target} `));

    await selectRepoPane();
    await keys('c');
    await type('sleep 503');
    await keys('Tab');
    await type('feat/dash');
    await keys('Enter');
    await dashShows((s) => s.includes('already exists') && s.includes('new branch ›'));
    await keys('Escape');
    await dashShows((s) => s.includes('nothing was started'));
    expect((await panes()).some((p) => p.start.includes('sleep 503'))).toBe(false);
  });

  it('X names the pane and ends it only after y; n leaves it running and says so', async () => {
    const victim = (await panes()).find((p) => p.start.includes('sleep 501'));
    if (!victim) throw new Error('the pane started by c is missing');
    await keys('/');
    await type(victim.target);
    await keys('Enter', 'Escape');
    await dashShows((s) => selected(s).includes(` ${victim.target} `));
    await keys('X');
    await dashShows((s) => s.includes(`end ${victim.target} (sleep`) && s.includes('y ends it'));
    await keys('n');
    await dashShows((s) => s.includes(`cancelled: ${victim.target}`) && s.includes('keeps running'));
    expect((await panes()).some((p) => p.id === victim.id)).toBe(true);
    await keys('X');
    await dashShows((s) => s.includes(`end ${victim.target} (sleep`));
    await keys('y');
    await waitUntil(async () => !(await panes()).some((p) => p.id === victim.id), 8000, `${victim.id} to be gone`);
    await dashShows((s) => s.includes(`ended ${victim.target}`));
    expect((await panes()).some((p) => p.id === repoPane)).toBe(true);
  });
});
