// Enter in the dashboard moves a real tmux client: one attached through a terminal (a pane of
// another tmux server running `tmux attach`), across sessions. The client that shows the dashboard
// goes, else the one used most recently: a client on another session than the dashboard's, and a
// dashboard in a popup (no pane of its own), both jump.

import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAIN_JS, shellQuote } from '../helpers/corral-shim.js';
import { startTestTmux, type TestTmux } from '../helpers/tmux-server.js';
import { waitUntil } from '../helpers/wait-until.js';

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
    let tty = '';
    await waitUntil(
      async () => {
        const now = (await server.tmux('list-clients', '-F', '#{client_tty} #{client_control_mode}')).split('\n');
        const added = now.map((l) => l.split(' ')).find(([name, control]) => name && control === '0' && !before.has(name));
        tty = added?.[0] ?? '';
        return tty !== '';
      },
      20_000,
      `a client attached to ${session}`,
      50,
    );
    return { viewer, pane, tty };
  }

  /** The pane a client shows now (list-clients: `display -c` alone would name the server's current pane). */
  const paneOf = async (tty: string) =>
    (await server.tmux('list-clients', '-F', '#{client_tty} #{pane_id}'))
      .split('\n')
      .map((line) => line.split(' '))
      .find(([name]) => name === tty)?.[1];

  /**
   * Types into a dashboard pane (send-keys) or, for a popup, into the client's terminal: a fresh
   * filter, then Enter on the one row it leaves. Each step waits for the dashboard to show it took
   * the key before the next, so an Esc never reaches it in one read with the next key (that would
   * be Alt+key), however slow the machine.
   */
  async function drive(keys: (...k: string[]) => Promise<void>, shows: (test: (s: string) => boolean) => Promise<string>, filter: string): Promise<void> {
    const editing = (s: string) => s.includes('Enter keeps · Esc clears');
    await keys('/');
    await shows(editing);
    await keys('Escape');
    await shows((s) => !editing(s));
    await keys('/');
    await shows((s) => s.includes('/   Enter keeps'));
    for (const c of filter) await keys(c);
    await shows((s) => s.includes(`/${filter}   Enter keeps`));
    await keys('Enter');
    await shows((s) => !editing(s));
    await keys('Enter');
  }

  // Pacing, not a wait for a result: keys go in at a person's speed, one read each.
  const keysTo = (tmux: TestTmux, pane: string) => async (...k: string[]) => {
    for (const key of k) {
      await tmux.tmux('send-keys', '-t', pane, key);
      await sleep(60);
    }
  };
  const screenOf = (tmux: TestTmux, pane: string) => (test: (s: string) => boolean) => tmux.waitForScreen(pane, test, 15_000);

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
    await drive(keysTo(server, dash), screenOf(server, dash), 'target');
    await server.waitForScreen(dash, (s) => s.includes('switched to main:1.0'));
    expect(await paneOf(client.tty)).toBe(target);
  });

  it('switches the client that shows the dashboard, not one used more recently elsewhere', async () => {
    const other = await attachClient('main');
    const otherPane = await paneOf(other.tty);
    const shows = await attachClient('dash');
    expect(await paneOf(shows.tty)).toBe(dash);
    // A pause the check needs, not a wait for a result: tmux stamps activity in whole seconds, so
    // the other client is used a second later.
    await sleep(1100);
    await other.viewer.tmux('send-keys', '-t', other.pane, 'x');
    await drive(keysTo(server, dash), screenOf(server, dash), 'elsewhere');
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
    await drive(popupKeys, screenOf(client.viewer, client.pane), 'target');
    await client.viewer.waitForScreen(client.pane, (s) => s.includes('switched to main:1.0'));
    expect(await paneOf(client.tty)).toBe(target);
    await popupKeys('q');
  });
});
