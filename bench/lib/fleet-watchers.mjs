// What the fleet bench watches a fleet with, as a person runs it: `corral watch` (its JSON Lines
// events, read as they come), `corral dashboard` in a 120x40 pane of a tmux server of its own
// (read with capture-pane while a trial waits) and `corral serve --attach` (the pane list its page
// reads). Each takes the fleet's --host flags.

import { spawn, execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { killServer } from './tmux-fixture.mjs';

const MAIN = fileURLToPath(new URL('../../dist/bin/corral.js', import.meta.url));
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Resolves with `check()`'s first truthy value, asked every `everyMs`; null after `timeoutMs`. */
export async function waitFor(check, timeoutMs, everyMs = 40) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = check();
    if (value) return value;
    if (Date.now() > deadline) return null;
    await sleep(everyMs);
  }
}

/** The fleet's environment for corral (its ssh, its folder), as an object. */
function envOf(fleet) {
  return Object.fromEntries(fleet.dashboardEnv().map((kv) => kv.split(/=(.*)/s).slice(0, 2)));
}

/** `corral watch` over the fleet: every event with the time it was read, and waits on them. */
export function startWatch(fleet, flags) {
  const env = { ...process.env, ...envOf(fleet) };
  const child = spawn(process.execPath, [MAIN, 'watch', ...fleet.dashboardArgs(), ...flags], { env, stdio: ['ignore', 'pipe', 'ignore'] });
  const events = [];
  let rest = '';
  child.stdout.on('data', (chunk) => {
    const at = performance.now();
    const lines = (rest + chunk.toString('utf8')).split('\n');
    rest = lines.pop() ?? '';
    for (const line of lines) {
      try {
        events.push({ ...JSON.parse(line), readAt: at });
      } catch {
        // not an event line
      }
    }
  });
  return {
    pid: child.pid,
    events,
    /** The first event after `since` that `match` accepts, or null after `timeoutMs`. */
    next: (match, since, timeoutMs) => waitFor(() => events.find((e) => e.readAt >= since && match(e)), timeoutMs, 20),
    stop: async () => {
      child.kill('SIGTERM');
      await new Promise((r) => (child.exitCode !== null ? r() : child.once('exit', r)));
    },
  };
}

/**
 * `corral serve --attach` over the fleet, and the pane list its page reads (`/api/panes/events`,
 * server-sent events), each list with the time it came: `stuck(key, since, timeoutMs)` resolves
 * with the arrival of the first list after `since` where the pane is stuck, null after `timeoutMs`.
 */
export async function startPageFeed(fleet, flags) {
  const token = randomBytes(16).toString('hex');
  const env = { ...process.env, ...envOf(fleet), CORRAL_TOKEN: token, TMUX: '', TMUX_PANE: '' };
  const child = spawn(process.execPath, [MAIN, 'serve', '--attach', '--port', '0', ...fleet.dashboardArgs(), ...flags], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise((r) => child.once('exit', r));
  let out = '';
  child.stdout.on('data', (chunk) => (out += chunk));
  child.stderr.on('data', (chunk) => (out += chunk));
  const base = await waitFor(() => /(http:\/\/127\.0\.0\.1:\d+)/.exec(out)?.[1] ?? (child.exitCode !== null ? 'exited' : null), 15_000, 20);
  if (base === null || base === 'exited') {
    child.kill('SIGTERM');
    throw new Error(`corral serve --attach did not start:\n${out}`);
  }
  const aborted = new AbortController();
  const res = await fetch(`${base}/api/panes/events`, { headers: { authorization: `Bearer ${token}` }, signal: aborted.signal });
  if (res.status !== 200) throw new Error(`the page's pane list: HTTP ${res.status} ${await res.text()}`);
  // Each list as the keys of its stuck panes (a list carries every pane's screen: too much to keep).
  const lists = [];
  const reading = (async () => {
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const part of res.body) {
        const at = performance.now();
        buffer += decoder.decode(part, { stream: true });
        for (let cut = buffer.indexOf('\n\n'); cut !== -1; cut = buffer.indexOf('\n\n')) {
          const data = buffer
            .slice(0, cut)
            .split('\n')
            .filter((line) => line.startsWith('data: '))
            .map((line) => line.slice(6))
            .join('\n');
          buffer = buffer.slice(cut + 2);
          if (data !== '') lists.push({ at, stuck: new Set(JSON.parse(data).panes.filter((p) => p.status === 'stuck').map((p) => p.id)) });
        }
      }
    } catch (error) {
      if (!aborted.signal.aborted) throw error;
    }
  })();
  return {
    stuck: (key, since, timeoutMs) => waitFor(() => lists.find((list) => list.at >= since && list.stuck.has(key))?.at, timeoutMs, 20),
    stop: async () => {
      aborted.abort();
      await reading;
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** `corral dashboard` over the fleet in a 120x40 pane; `screen()` reads what it shows. */
export function startDashboardPane(fleet, flags) {
  const host = `corral-bench-fleet-dash-${randomBytes(4).toString('hex')}`;
  const tmux = (...args) => execFileSync('tmux', ['-L', host, ...args], { encoding: 'utf8' });
  const command = ['env', '-u', 'TMUX', ...fleet.dashboardEnv(), process.execPath, MAIN, 'dashboard', ...fleet.dashboardArgs(), ...flags];
  tmux('-f', '/dev/null', 'new-session', '-d', '-s', 'host', '-x', '120', '-y', '40', ...command);
  const pid = Number(tmux('display-message', '-p', '-t', 'host:0.0', '#{pane_pid}').trim());
  return {
    pid,
    screen: () => tmux('capture-pane', '-p', '-t', 'host:0.0'),
    keys: (...keys) => tmux('send-keys', '-t', 'host:0.0', ...keys),
    stop: async () => {
      tmux('send-keys', '-t', 'host:0.0', 'q');
      await waitFor(() => {
        try {
          process.kill(pid, 0);
          return false;
        } catch {
          return true;
        }
      }, 5_000, 50);
      killServer(host);
    },
  };
}
