// A private tmux server with N panes whose programs print a line now and then.

import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { namedSocketPath } from '../../dist/engine/tmux/socket.js';

/** Kills a private server and removes the socket file tmux leaves behind. */
export function killServer(name) {
  try {
    execFileSync('tmux', ['-L', name, 'kill-server'], { stdio: 'ignore' });
  } catch {
    // already gone
  }
  rmSync(namedSocketPath(name, process.env, process.getuid()), { force: true });
}

// `read -t` is a bash builtin: the panes print every 1-4 s without starting any process.
// `command`: the program of every pane, or a function of the pane's number that gives it.
// `config`: a tmux configuration file for the server (none by default).
export function startServer(panes, command = 'while :; do read -r -t $((RANDOM % 4 + 1)) _; echo "tick $RANDOM"; done', config = '/dev/null') {
  const name = `corral-bench-${randomBytes(4).toString('hex')}`;
  const tmux = (...args) => execFileSync('tmux', ['-L', name, ...args], { encoding: 'utf8' });
  const programOf = typeof command === 'function' ? command : () => command;
  tmux('-f', config, 'new-session', '-d', '-s', 'bench', '-x', '120', '-y', '30', 'bash', '--norc', '-c', programOf(0));
  for (let i = 1; i < panes; i++) tmux('new-window', '-d', '-t', 'bench:', 'bash', '--norc', '-c', programOf(i));
  const pid = Number(tmux('display-message', '-p', '#{pid}').trim());
  return { name, pid, tmux, kill: () => killServer(name) };
}

/**
 * A process's CPU time in ms: the scheduler's own count in nanoseconds, summed over its threads
 * (/proc/PID/task/TID/schedstat), where the kernel keeps it. utime+stime in /proc/PID/stat come in
 * 10 ms ticks, too coarse for a process that works 1 ms a second; they are the fallback, and what
 * `withChildren` adds (cutime+cstime: children that were waited for).
 */
export function cpuMs(pid, withChildren = false) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const tick = 1000 / 100; // USER_HZ is 100 on Linux
  const own = scheduledMs(pid) ?? (Number(fields[11]) + Number(fields[12])) * tick;
  return withChildren ? own + (Number(fields[13]) + Number(fields[14])) * tick : own;
}

function scheduledMs(pid) {
  try {
    let ns = 0;
    for (const task of readdirSync(`/proc/${pid}/task`)) ns += Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8').split(' ')[0]);
    return Number.isFinite(ns) && ns > 0 ? ns / 1e6 : null;
  } catch {
    return null;
  }
}

/**
 * A pane program (for startServer) that prints a numbered line every `seconds(i)` seconds for pane
 * i, with bash builtins only: the same lines at the same pace on every server started with it.
 */
export function numberedPrinter(seconds) {
  return (i) => `n=0; while :; do read -r -t ${seconds(i)} _; n=$((n + 1)); echo "tick $n of pane ${i} at $SECONDS s"; done`;
}

/**
 * Readings taken inside a window that starts `afterMs` from now and lasts `durationMs` (a driver
 * process's warm-up, then its measured window), 200 ms in from each end: `read()` at its start and
 * at its end, and how long lay between them. `started` runs right after the first reading.
 */
export async function readOverWindow(afterMs, durationMs, read, started = () => {}) {
  await new Promise((r) => setTimeout(r, afterMs + 200));
  const before = read();
  const t0 = performance.now();
  started();
  await new Promise((r) => setTimeout(r, durationMs - 400));
  const after = read();
  return { before, after, windowMs: performance.now() - t0 };
}

