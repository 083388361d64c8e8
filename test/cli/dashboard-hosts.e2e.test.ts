// The built dashboard across hosts, in a tmux pane of a private server: it watches a local test
// server and a "remote" one reached through a real sshd on 127.0.0.1 (this machine's tmux on
// another socket, behind ssh). Driven with send-keys, read with capture-pane. The sshd is killed to
// lose the host and started again to get it back.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAIN_JS, shellQuote } from '../helpers/corral-shim.js';
import { sshWrapper, startTestSshd, type TestSshd } from '../helpers/sshd.js';
import { startTestTmux, type TestTmux } from '../helpers/tmux-server.js';
import { SETTLE_MS } from '../../src/ui/state.js';

const QUIET_MS = 1500;
const POLL_MS = 200;
// A host line, followed by the preview's column or by nothing.
const hostLineRe = (text: string) => new RegExp(`^${text}(?: {2}|$)`, 'm');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The rows drawn under a host's line, up to the next host line or the end of the list. */
function rowsUnder(screen: string, host: string): string[] {
  const lines = screen.split('\n');
  const start = lines.findIndex((l) => l.startsWith(`${host} · `));
  if (start < 0) return [];
  const rows: string[] = [];
  for (const line of lines.slice(start + 1)) {
    if (!/^(› | {2})\S/.test(line)) break;
    rows.push(line);
  }
  return rows;
}

/** The position of the selected row among all rows (host lines left out), or -1. */
function selectedRow(screen: string): number {
  return screen
    .split('\n')
    .filter((l) => /^(› | {2})(STUCK|quiet|active|snoozed|answered|offline)/.test(l))
    .findIndex((l) => l.startsWith('›'));
}

/** A host's rows: those under its line, and its waiting panes listed on top (`... on box`). */
const hostRows = (screen: string, host: string) =>
  host === 'local'
    ? [...rowsUnder(screen, 'waiting').filter((l) => !/ on \S+ /.test(l)), ...rowsUnder(screen, host)]
    : [...rowsUnder(screen, 'waiting').filter((l) => l.includes(` on ${host} `)), ...rowsUnder(screen, host)];

const rowOf = (screen: string, host: string, name: string) => hostRows(screen, host).find((l) => l.includes(name)) ?? '';

describe('corral dashboard across hosts, in a tmux pane', () => {
  let sshd: TestSshd;
  let view: TestTmux;
  let local: TestTmux;
  let remote: TestTmux;
  let dir = '';
  let dash = '';
  let deploy = '';
  let drop = '';

  // Pacing, not a wait for a result: keys go in at a person's speed, one read each.
  const keys = async (...k: string[]) => {
    for (const key of k) {
      await view.tmux('send-keys', '-t', dash, key);
      await sleep(80);
    }
  };
  const dashShows = (test: (s: string) => boolean, timeoutMs = 20_000) => view.waitForScreen(dash, test, timeoutMs);
  /**
   * Moves the selection to the row named `name` under `host`: g, then j, each time waiting until the
   * dashboard has drawn the move (a loaded machine can hold a key back), then waits out the
   * dashboard's guard against acting on a selection that has just moved.
   */
  const select = async (host: string, name: string) => {
    await keys('g');
    let at = 0;
    await dashShows((s) => selectedRow(s) === at, 10_000);
    while (!rowOf(await view.capture(dash), host, name).startsWith('›')) {
      if (at > 6) throw new Error(`no row ${name} under ${host}:\n${await view.capture(dash)}`);
      await keys('j');
      at += 1;
      await dashShows((s) => selectedRow(s) === at, 10_000);
    }
    // A pause the product needs, not a wait for a result: the selection must stay put SETTLE_MS
    // before the dashboard lets a key act on it (a sleep is only ever longer on a slow machine).
    await sleep(SETTLE_MS + 400);
    return dashShows((s) => rowOf(s, host, name).startsWith('›'), 5000);
  };
  /** Presses `a` until the dashboard shows `expected` (once more if it first says the selection just moved). */
  const pressAnswer = async (expected: string) => {
    for (let attempt = 0; ; attempt++) {
      await keys('a');
      const s = await dashShows((x) => x.includes(expected) || x.includes('the selection just moved'), 5000);
      if (s.includes(expected)) return s;
      if (attempt > 0) throw new Error(`the answer key was refused twice:\n${s}`);
      // The selection-just-moved guard again: a pause the product needs, as in select().
      await sleep(SETTLE_MS + 400);
    }
  };

  beforeAll(async () => {
    sshd = await startTestSshd();
    view = await startTestTmux();
    local = await startTestTmux();
    remote = await startTestTmux();
    dir = mkdtempSync(join(tmpdir(), 'corral-dash-hosts-'));
    const wrapper = sshWrapper(sshd, dir);

    const work = await local.spawn('sleep 600');
    await local.tmux('rename-window', '-t', work, 'local-work');
    deploy = await remote.spawn(`read -p "Deploy to production? [y/N] " a; echo "answered $a"; sleep 600`);
    await remote.tmux('rename-window', '-t', deploy, 'deploy-prod');
    drop = await remote.spawn(`read -p "Drop the table? [y/N] " a; echo "dropped $a"; sleep 600`);
    await remote.tmux('rename-window', '-t', drop, 'drop-table');
    await remote.waitForScreen(deploy, (s) => s.includes('[y/N]'));
    await remote.waitForScreen(drop, (s) => s.includes('[y/N]'));

    const host = `${sshd.alias}=box,-L ${remote.socketName}`;
    dash = await view.spawn(
      `export CORRAL_SSH_BIN=${shellQuote(wrapper)} TMPDIR=${shellQuote(dir)}; ` +
        `exec ${shellQuote(process.execPath)} ${shellQuote(MAIN_JS)} dashboard -L ${local.socketName} ` +
        `--host ${shellQuote(host)} --poll-interval ${POLL_MS} --quiet-threshold ${QUIET_MS}`,
      { session: 'dash', width: 120, height: 30 },
    );
  }, 60_000);

  afterAll(async () => {
    await view?.kill();
    await local?.kill();
    await remote?.kill();
    await sshd?.dispose();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('shows both hosts, each with its own panes, and the remote prompt turns stuck under box', async () => {
    const screen = await dashShows(
      (s) =>
        /STUCK permission/.test(rowOf(s, 'box', 'deploy-prod')) &&
        /STUCK permission/.test(rowOf(s, 'box', 'drop-table')),
      45_000,
    );
    expect(screen).toMatch(hostLineRe('local · connected · 1 pane'));
    expect(screen).toMatch(hostLineRe('box · connected · 2 panes'));
    expect(hostRows(screen, 'local')).toHaveLength(1);
    expect(rowOf(screen, 'local', 'local-work')).not.toBe('');
    // Both box panes wait: they are listed on top, naming their host, and not again under it.
    expect(hostRows(screen, 'box')).toHaveLength(2);
    expect(rowsUnder(screen, 'box')).toHaveLength(0);
    expect(screen).toMatch(/^waiting · 2 panes on 1 host/m);
    // The preview names the remote pane with its host when it is selected.
    await select('box', 'deploy-prod');
    await dashShows((s) => s.includes('main:0.0 on box'), 5000);
  }, 60_000);

  it('answers the remote prompt with a then y: y and Enter reach the pane on box', async () => {
    await select('box', 'deploy-prod');
    await pressAnswer('answer main:0.0 on box');
    await keys('y');
    await remote.waitForScreen(deploy, (s) => s.includes('answered y'), 20_000);
    // Only that pane got it.
    expect(await remote.capture(drop)).not.toContain('dropped');
    await dashShows((s) => /^› (answered|active|quiet)/.test(rowOf(s, 'box', 'deploy-prod')), 10_000);
  }, 60_000);

  it('says box is unreachable when its sshd goes, refuses an answer there, and reconnects when it is back', async () => {
    await sshd.stop();
    const down = await dashShows(
      (s) => /^box · unreachable since \d\d:\d\d \((retry in \d+s|retrying…)\): ssh/m.test(s),
      45_000,
    );
    // This machine is still watched.
    expect(down).toMatch(hostLineRe('local · connected · 1 pane'));
    const offline = await dashShows(
      (s) => rowsUnder(s, 'box').length === 2 && rowsUnder(s, 'box').every((r) => /^(› | {2})offline /.test(r)),
    );
    expect(rowOf(offline, 'local', 'local-work')).not.toMatch(/offline/);

    // The stuck prompt on box cannot be answered while box is down, and nothing reaches it.
    const dropBefore = await remote.capture(drop);
    await select('box', 'drop-table');
    await pressAnswer('box is unreachable: not sent');
    // Esc after the y clears the refusal: once it is gone, the y has been handled too.
    await keys('y', 'Escape');
    await dashShows((s) => !s.includes('box is unreachable: not sent'), 10_000);
    expect(await remote.capture(drop)).toBe(dropBefore);

    await sshd.start();
    const back = await dashShows((s) => hostLineRe('box · connected · 2 panes').test(s), 90_000);
    expect(hostRows(back, 'box').some((r) => /offline/.test(r))).toBe(false);
    // Back as it was: the prompt on box is stuck again and was never typed into.
    await dashShows((s) => /STUCK permission/.test(rowOf(s, 'box', 'drop-table')), 20_000);
    expect(await remote.capture(drop)).toBe(dropBefore);
  }, 180_000);
});
