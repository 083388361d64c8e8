// The dashboard in a real tmux pane, driven with send-keys and read with capture-pane: stuck
// detection, reply, quick answer, jump (switch-client), a narrow resize, and a clean quit.

import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAIN_JS, shellQuote } from '../helpers/corral-shim.js';
import { processesWithEnv } from '../helpers/processes.js';
import { startTestTmux, type TestTmux } from '../helpers/tmux-server.js';

const run = promisify(execFile);
const AGENT = fileURLToPath(new URL('../../demo/agent.mjs', import.meta.url));
const QUIET_MS = 1500;
const POLL_MS = 300;

describe('corral dashboard in a tmux pane', () => {
  let server: TestTmux;
  let viewer: TestTmux;
  let dash = '';
  let deploy = '';
  let menu = '';
  const marker = `CORRAL_E2E_RUN=${randomBytes(4).toString('hex')}`;

  // Pacing, not a wait for a result: keys go in at a person's speed, one read each.
  const keys = async (...k: string[]) => {
    for (const key of k) {
      await server.tmux('send-keys', '-t', dash, key);
      await new Promise((r) => setTimeout(r, 60));
    }
  };
  const type = (text: string) => server.tmux('send-keys', '-t', dash, '-l', text);
  const dashShows = (test: (s: string) => boolean, timeoutMs = 5000) => server.waitForScreen(dash, test, timeoutMs);
  // Esc and the next key sent back to back read as Alt+key: let the Esc land first.
  const clearFilter = async () => {
    await keys('Escape');
    await dashShows((s) => !s.includes('filter:'));
  };
  const rowOf = (s: string, text: string) =>
    s.split('\n').find((l) => l.includes(text) && /\b(STUCK|quiet|active|snoozed)\b/.test(l)) ?? '';

  beforeAll(async () => {
    server = await startTestTmux();
    viewer = await startTestTmux();
    menu = await server.spawn(`exec ${shellQuote(process.execPath)} ${shellQuote(AGENT)}`, { title: 'menu-agent' });
    dash = await server.spawn(
      `export ${marker}; ${shellQuote(process.execPath)} ${shellQuote(MAIN_JS)} dashboard -L ${server.socketName} --quiet-threshold ${QUIET_MS} --ask-threshold ${QUIET_MS} --poll-interval ${POLL_MS}; echo "EXIT=$?"; sleep 600`,
      { session: 'dash', width: 100, height: 30 },
    );
    // A real client looking at the dashboard's session, so Enter can switch it.
    await viewer.spawn(`env -u TMUX tmux -L ${server.socketName} attach -t dash`, { width: 100, height: 30 });
    await server.waitForScreen(dash, (s) => s.includes('corral ·') && s.includes('main:0.0'), 10_000);
  });

  afterAll(async () => {
    await viewer?.kill();
    await server?.kill();
  });

  it('shows a pane at [y/N] as STUCK within the threshold plus one poll, and never lists itself', async () => {
    deploy = await server.spawn(`read -p 'Deploy to production? [y/N] ' a; echo "answer was $a"; sleep 600`, {
      title: 'deploy',
    });
    await server.waitForScreen(deploy, (s) => s.includes('[y/N]'));
    const promptAt = Date.now();
    const s = await dashShows((x) => /STUCK permission/.test(rowOf(x, 'deploy')), QUIET_MS + POLL_MS + 5000);
    const elapsed = Date.now() - promptAt;
    // Never before the threshold; after it, within one poll (plus slack for a loaded machine).
    expect(elapsed).toBeGreaterThanOrEqual(QUIET_MS - 250);
    expect(elapsed).toBeLessThan(QUIET_MS + POLL_MS + 2000);
    expect(s).not.toMatch(/dash:0\.0/);
  });

  it('answers it with r, y, Enter, and the badge clears', async () => {
    await keys('/');
    await type('deploy');
    await keys('Enter');
    await dashShows((s) => s.includes('filter: deploy'));
    await keys('r');
    await dashShows((s) => s.includes('reply to main:1.0'));
    await type('y');
    await keys('Enter');
    await server.waitForScreen(deploy, (s) => s.includes('answer was y'));
    await dashShows((s) => rowOf(s, 'deploy') !== '' && !rowOf(s, 'deploy').includes('STUCK'));
  });

  it('answers a numbered menu with a quick key', async () => {
    await clearFilter();
    await keys('/');
    await type('menu');
    await keys('Enter');
    await dashShows((s) => s.includes('filter: menu'));
    await server.waitForScreen(menu, (s) => s.includes('Do you want to proceed?'), 8000);
    // The dashboard offers the menu's answers once it has drawn the menu.
    await dashShows((s) => s.includes('a: 1 2 3 Enter · '), 8000);
    await keys('a');
    await dashShows((s) => s.includes('answer main:0.0'));
    await keys('1');
    await server.waitForScreen(menu, (s) => s.includes('⎿  Allowed'));
    await dashShows((s) => s.includes('sent 1 to main:0.0'));
  });

  it('switches the tmux client to the pane on Enter', async () => {
    await clearFilter();
    await keys('/');
    await type('deploy');
    await keys('Enter', 'Enter');
    await dashShows((s) => s.includes('switched to main:1.0'));
    const clients = (await server.tmux('list-clients', '-F', '#{client_tty}')).trim().split('\n');
    expect(clients).toHaveLength(1);
    const shown = (await server.tmux('display-message', '-p', '-c', clients[0] as string, '#{pane_id}')).trim();
    expect(shown).toBe(deploy);
  });

  it('stays readable at 60 columns', async () => {
    await clearFilter();
    await server.tmux('resize-window', '-t', 'dash:0', '-x', '60', '-y', '24');
    // tmux crops the old frame at once; wait for the frame drawn for 60 columns: the row keeps
    // its target, title and timer, and the cwd column is gone.
    const s = await dashShows((x) => /main:1\.0\s+deploy\s+\d+s\s*$/m.test(rowOf(x, 'deploy')) && !x.includes('CWD'));
    const lines = s.split('\n');
    expect(lines.every((l) => [...l].length <= 60)).toBe(true);
    expect(lines.filter((l) => l.startsWith('corral ·'))).toHaveLength(1);
    expect(s).toMatch(/↑↓ move · n next stuck/);
  });

  it('quits on q and leaves no process behind', async () => {
    await keys('q');
    await server.waitForScreen(dash, (s) => s.includes('EXIT=0'));
    const left = processesWithEnv(marker).filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('main.js');
      } catch {
        return false;
      }
    });
    expect(left).toEqual([]);
  });
});

describe('corral with no command and no tmux server', () => {
  let server: TestTmux;
  const dir = mkdtempSync(join(tmpdir(), 'corral-no-server-'));

  beforeAll(async () => {
    server = await startTestTmux();
  });
  afterAll(async () => {
    await server?.kill();
    rmSync(dir, { recursive: true, force: true });
  });

  it('falls back to the demo, labelled, and removes the demo server on q', async () => {
    // Outside tmux, with TMUX_TMPDIR on an empty folder: no default server runs there.
    const demoSocket = `corral-test-demo-${randomBytes(4).toString('hex')}`;
    const pane = await server.spawn(
      `unset TMUX TMUX_PANE; export TMUX_TMPDIR=${shellQuote(dir)} CORRAL_DEMO_SOCKET=${demoSocket}; ${shellQuote(process.execPath)} ${shellQuote(MAIN_JS)}; echo "EXIT=$?"; sleep 600`,
      { width: 100, height: 30 },
    );
    const findSocket = () =>
      readdirSync(dir, { recursive: true })
        .map(String)
        .find((entry) => entry.endsWith(demoSocket));
    try {
      await server.waitForScreen(
        pane,
        (s) => s.includes('DEMO (no tmux server of yours is running)') && s.includes('6 total'),
        15_000,
      );
      const socketPath = findSocket();
      expect(socketPath).toBeDefined();
      const demoServer = () => run('tmux', ['-S', join(dir, socketPath as string), 'list-sessions']);
      await expect(demoServer()).resolves.toBeDefined();
      await server.tmux('send-keys', '-t', pane, 'q');
      await server.waitForScreen(pane, (s) => s.includes('EXIT=0'));
      await expect(demoServer()).rejects.toThrow();
      // tmux leaves its socket file behind; corral removes it.
      expect(findSocket()).toBeUndefined();
    } finally {
      // Whatever happened above, no demo server may outlive the test (its socket folder goes next).
      const socketPath = findSocket();
      if (socketPath) await run('tmux', ['-S', join(dir, socketPath), 'kill-server']).catch(() => undefined);
    }
  });
});
