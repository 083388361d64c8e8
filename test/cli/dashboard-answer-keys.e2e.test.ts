// One meaning per key, in a real tmux server with real `git add -p` in real repositories: the
// footer shows what `a` offers before it is pressed, `a e` types git's own `e` (its hunk editor
// opens), and Esc goes out only as `a Esc` confirmed with `y`, never in place of a prompt's letter.
// The dashboard runs in a pane of the server it watches, driven with send-keys.

import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAIN_JS, shellQuote } from '../helpers/corral-shim.js';
import { startTestTmux, type TestTmux } from '../helpers/tmux-server.js';

const QUIET_MS = 1000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const HUNK_PROMPT = 'Stage this hunk [y,n,q,a,d,j,J,g,/,e,?]?';

/** A repository with one committed file and two separate changes in it: `git add -p` asks twice. */
function repoWithTwoHunks(dir: string): void {
  const git = (...args: string[]) => execFileSync('git', ['-C', dir, ...args], { stdio: 'pipe' });
  git('init', '-q');
  git('config', 'user.email', 'test@example.invalid');
  git('config', 'user.name', 'corral test');
  const lines = Array.from({ length: 40 }, (_, i) => String(i + 1));
  writeFileSync(join(dir, 'numbers.txt'), `${lines.join('\n')}\n`);
  git('add', 'numbers.txt');
  git('commit', '-q', '-m', 'numbers');
  lines[2] = 'three';
  lines[30] = 'thirty-one';
  writeFileSync(join(dir, 'numbers.txt'), `${lines.join('\n')}\n`);
}

describe('dashboard answer keys on git add -p in a real tmux server', () => {
  let server: TestTmux;
  let work = '';
  let dash = '';
  let edit = '';
  let esc = '';
  // Pacing, not a wait for a result: keys go in at a person's speed, one read each.
  const keys = async (...k: string[]) => {
    for (const key of k) {
      await server.tmux('send-keys', '-t', dash, key);
      await sleep(80);
    }
  };
  const dashShows = (test: (s: string) => boolean, timeoutMs = 8000) => server.waitForScreen(dash, test, timeoutMs);
  const footer = (s: string) => s.trimEnd().split('\n').at(-1) ?? '';
  const selected = (s: string) => s.split('\n').find((l) => l.startsWith('›')) ?? '';
  /** Filters down to one window and keeps the selection on it (Enter), as a person picks a pane. */
  const pick = async (window: string) => {
    await keys('/');
    await dashShows((s) => s.includes('Enter keeps · Esc clears'));
    await server.tmux('send-keys', '-t', dash, '-l', window);
    await keys('Enter');
    await dashShows((s) => selected(s).includes(window) && s.includes(`filter: ${window}`));
  };

  beforeAll(async () => {
    server = await startTestTmux();
    work = mkdtempSync(join(tmpdir(), 'corral-hunks-'));
    for (const name of ['edit', 'esc']) {
      execFileSync('mkdir', [join(work, name)]);
      repoWithTwoHunks(join(work, name));
    }
    // git's hunk editor: says it opened, on which file, and stays open.
    const editor = join(work, 'hunk-editor.sh');
    writeFileSync(editor, '#!/bin/sh\necho "hunk editor opened on $(basename "$1")"\nsleep 600\n');
    chmodSync(editor, 0o755);
    edit = await server.spawn(`cd ${shellQuote(join(work, 'edit'))} && GIT_EDITOR=${shellQuote(editor)} git add -p; sleep 600`);
    await server.tmux('rename-window', '-t', edit, 'hunks-edit');
    esc = await server.spawn(`cd ${shellQuote(join(work, 'esc'))} && git add -p; sleep 600`);
    await server.tmux('rename-window', '-t', esc, 'hunks-esc');
    for (const pane of [edit, esc]) await server.waitForScreen(pane, (s) => s.includes(HUNK_PROMPT));
    // Quiet for longer than the threshold before the dashboard starts: stuck at its first look. A
    // pause the checks need (tmux stamps activity in whole seconds), not a wait for a result.
    await sleep(QUIET_MS + 1200);
    dash = await server.spawn(
      `exec ${shellQuote(process.execPath)} ${shellQuote(MAIN_JS)} dashboard --quiet-threshold ${QUIET_MS} --poll-interval 500`,
      { session: 'dash', width: 120, height: 30 },
    );
    await dashShows((s) => (s.match(/STUCK permission/g) ?? []).length === 2, 15_000);
  });

  afterAll(async () => {
    await server?.kill();
    if (work !== '') rmSync(work, { recursive: true, force: true });
  });

  it("shows git's own answers in the footer before a is pressed", async () => {
    await pick('hunks-edit');
    const s = await dashShows((x) => footer(x).startsWith('a: '));
    expect(footer(s)).toMatch(/^a: y n q a d j J g \/ e · /);
  });

  it("a e types git's e: the hunk editor opens, and nothing else reaches either pane", async () => {
    const escBefore = await server.capture(esc);
    await keys('a');
    await dashShows((s) => s.includes('answer ') && s.includes('y n q a d j J g / e (Enter follows)'));
    await keys('e');
    const screen = await server.waitForScreen(edit, (s) => s.includes('hunk editor opened on '));
    // e went in as git's answer (e, then Enter), not as Esc.
    expect(screen).toMatch(/\[y,n,q,a,d,j,J,g,\/,e,\?\]\? e$/m);
    expect(screen).not.toContain('^[');
    expect(await server.capture(esc)).toBe(escBefore);
  });

  it('a Esc asks first: a second Esc cancels and sends nothing, y sends Esc to the pane', async () => {
    await keys('Escape');
    await dashShows((s) => !s.includes('filter: hunks-edit'));
    await pick('hunks-esc');
    const s = await dashShows((x) => footer(x).startsWith('a: y n q a d j J g / e'));
    const target = (await server.tmux('display-message', '-p', '-t', esc, '#{session_name}:#{window_index}.#{pane_index}')).trim();
    expect(selected(s)).toContain(` ${target} `);
    const before = await server.capture(esc);
    await keys('a');
    await dashShows((x) => x.includes(`answer ${target}`));
    await keys('Escape');
    await dashShows((x) => x.includes(`send Esc to ${target}? y sends, any other key cancels`));
    await keys('Escape');
    await dashShows((x) => x.includes('cancelled'));
    expect(await server.capture(esc)).toBe(before);
    await keys('a');
    await dashShows((x) => x.includes(`answer ${target}`));
    await keys('Escape');
    await dashShows((x) => x.includes(`send Esc to ${target}?`));
    await keys('y');
    // git reads a line, so the terminal echoes the Esc it was sent as ^[ after the question.
    const screen = await server.waitForScreen(esc, (x) => /\[y,n,q,a,d,j,J,g,\/,e,\?\]\? \^\[$/m.test(x));
    expect(screen).not.toContain('hunk editor');
  });
});
