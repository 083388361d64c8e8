// Enter in the dashboard moves a real tmux client: one attached through a terminal (a pane of
// another tmux server running `tmux attach`), across sessions. The client that shows the dashboard
// goes, else the one used most recently: a client on another session than the dashboard's, and a
// dashboard in a popup (no pane of its own), both jump.

import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAIN_JS, shellQuote } from '../helpers/corral-shim.js';
import { startTestTmux, type TestTmux } from '../helpers/tmux-server.js';

const POLL_MS = 200;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('jumping to a pane with Enter', () => {
  let server: TestTmux;
  const viewers: TestTmux[] = [];
  const popups: ChildProcess[] = [];
  let dash = '';
  let target = '';
  let elsewhere = '';
  const corral = `${shellQuote(process.execPath)} ${shellQuote(MAIN_JS)} dashboard --poll-interval ${POLL_MS}`;

  /** A real client: a pane of a viewer server running `tmux attach` to `session`; returns its tty. */
  async function attachClient(session: string): Promise<{ viewer: TestTmux; pane: string; tty: string }> {
    const viewer = await startTestTmux();
    viewers.push(viewer);
    const before = new Set((await server.tmux('list-clients', '-F', '#{client_tty}')).split('\n').filter(Boolean));
    const pane = await viewer.spawn(`env -u TMUX tmux -L ${server.socketName} attach -t ${session}`, { width: 100, height: 30 });
    for (let i = 0; i < 100; i++) {
      const now = (await server.tmux('list-clients', '-F', '#{client_tty} #{client_control_mode}')).split('\n');
      const added = now.map((l) => l.split(' ')).find(([tty, control]) => tty && control === '0' && !before.has(tty));
      if (added) return { viewer, pane, tty: added[0] as string };
      await sleep(50);
    }
    throw new Error(`no client attached to ${session}`);
  }

  /** The pane a client shows now (list-clients: `display -c` alone would name the server's current pane). */
  const paneOf = async (tty: string) =>
    (await server.tmux('list-clients', '-F', '#{client_tty} #{pane_id}'))
      .split('\n')
      .map((line) => line.split(' '))
      .find(([name]) => name === tty)?.[1];

  /** Types into a dashboard pane (send-keys) or, for a popup, into the client's terminal. */
  async function drive(keys: (...k: string[]) => Promise<void>, filter: string): Promise<void> {
    await keys('Escape');
    await sleep(100);
    await keys('/');
    for (const c of filter) await keys(c);
    await keys('Enter');
    await sleep(100);
    await keys('Enter');
  }

  const keysTo = (tmux: TestTmux, pane: string) => async (...k: string[]) => {
    for (const key of k) {
      await tmux.tmux('send-keys', '-t', pane, key);
      await sleep(60);
    }
  };

  beforeAll(async () => {
    server = await startTestTmux();
    await server.spawn('sleep 600', { session: 'main' });
    target = await server.spawn('sleep 600', { session: 'main' });
    await server.tmux('rename-window', '-t', target, 'target');
    elsewhere = await server.spawn('sleep 600', { session: 'work' });
    await server.tmux('rename-window', '-t', elsewhere, 'elsewhere');
    dash = await server.spawn(`${corral} -L ${server.socketName}; sleep 600`, { session: 'dash', width: 100, height: 30 });
    await server.waitForScreen(dash, (s) => s.includes('corral ·') && s.includes('main:1.0'), 10_000);
  }, 30_000);

  afterAll(async () => {
    for (const popup of popups) popup.kill();
    for (const viewer of viewers) await viewer.kill();
    await server?.kill();
  });

  it('switches the only client even when it is on another session than the dashboard', async () => {
    const client = await attachClient('work');
    await drive(keysTo(server, dash), 'target');
    await server.waitForScreen(dash, (s) => s.includes('switched to main:1.0'));
    expect(await paneOf(client.tty)).toBe(target);
  });

  it('switches the client that shows the dashboard, not one used more recently elsewhere', async () => {
    const other = await attachClient('main');
    const otherPane = await paneOf(other.tty);
    const shows = await attachClient('dash');
    expect(await paneOf(shows.tty)).toBe(dash);
    // tmux stamps activity in whole seconds: the other client is used a second later.
    await sleep(1100);
    await other.viewer.tmux('send-keys', '-t', other.pane, 'x');
    await drive(keysTo(server, dash), 'elsewhere');
    await server.waitForScreen(dash, (s) => s.includes('switched to work:0.0'));
    expect(await paneOf(shows.tty)).toBe(elsewhere);
    expect(await paneOf(other.tty)).toBe(otherPane);
  });

  it('from a popup, which has no pane, switches the client the popup is on', async () => {
    const client = await attachClient('work');
    // display-popup returns when the popup closes: it runs beside the test.
    const popup = spawn(server.binary, ['-L', server.socketName, 'display-popup', '-c', client.tty, '-w', '100', '-h', '28', '-E', `${corral} -L ${server.socketName}`], {
      stdio: 'ignore',
    });
    popups.push(popup);
    const popupKeys = keysTo(client.viewer, client.pane);
    await client.viewer.waitForScreen(client.pane, (s) => s.includes('corral ·') && s.includes('main:1.0'), 10_000);
    await drive(popupKeys, 'target');
    await client.viewer.waitForScreen(client.pane, (s) => s.includes('switched to main:1.0'));
    expect(await paneOf(client.tty)).toBe(target);
    await popupKeys('q');
  });
});
