// What the fleet bench watches a fleet with, as a person runs it: `corral watch` (its JSON Lines
// events, read as they come) and `corral dashboard` in a 120x40 pane of a tmux server of its own
// (read with capture-pane while a trial waits). Both take the fleet's --host flags.

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

/** `corral watch` over the fleet: every event with the time it was read, and waits on them. */
export function startWatch(fleet, flags) {
  const env = { ...process.env, ...Object.fromEntries(fleet.dashboardEnv().map((kv) => kv.split(/=(.*)/s).slice(0, 2))) };
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
