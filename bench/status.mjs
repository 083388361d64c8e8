// The tmux status line: what keeping the status options costs (corral and the tmux server, per state
// change, and while nothing changes), and how long `corral next` takes with a running corral (it
// reads the options) and without one (it looks at every pane itself).
//
// Two identical servers of 50 panes run side by side, each watched by a `corral watch`: one keeps
// the options, the other runs with --no-status-options. In the first window one pane flips between
// a prompt and output every 2 s; in the second nothing changes. The difference between the two
// sides, over the same seconds, is the options' cost.

import { execFile, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { cpuMs, startServer } from './lib/tmux-fixture.mjs';

export const title = 'Status line: the cost of the tmux options, and corral next';

const CLI = fileURLToPath(new URL('../dist/bin/corral.js', import.meta.url));
const PANES = 50;
const WARMUP = Number(process.env.BENCH_STATUS_WARMUP_MS ?? 20_000);
const WINDOW = Number(process.env.BENCH_STATUS_WINDOW_MS ?? 30_000);
const RUNS = Number(process.env.BENCH_STATUS_NEXT_RUNS ?? 20);
const execFileAsync = promisify(execFile);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

// Pane 0 asks, waits 2 s for an answer that never comes, prints, and asks again: a state change a
// second on average (stuck, then not). The others sleep.
const FLIPPER = `while :; do read -r -t 2 -p 'Continue? [y/N] ' a; echo; echo "working $RANDOM"; sleep 2; done`;
const programs = (flip) => (i) => (i === 0 && flip ? FLIPPER : 'sleep 3600');

function watch(server, options) {
  const child = spawn(process.execPath, [CLI, 'watch', '-L', server.name, '--poll-interval', '500', '--quiet-threshold', '1000', ...(options ? [] : ['--no-status-options'])], { stdio: ['ignore', 'pipe', 'ignore'] });
  let events = 0;
  child.stdout.on('data', (chunk) => (events += chunk.toString().split('\n').filter((l) => /"type":"(stuck|unstuck)"/.test(l)).length));
  return { child, events: () => events, stop: () => new Promise((r) => (child.once('exit', r), child.kill('SIGTERM'))) };
}

/** CPU (ms/s) of both corral processes and both tmux servers over one window. */
async function measure(flip, log) {
  const withOptions = startServer(PANES, programs(flip));
  const without = startServer(PANES, programs(flip));
  const a = watch(withOptions, true);
  const b = watch(without, false);
  try {
    log(`${flip ? 'one pane changing state' : 'nothing changing'}: warm-up ${WARMUP / 1000} s`);
    await sleep(WARMUP);
    const read = () => [cpuMs(a.child.pid), cpuMs(withOptions.pid), cpuMs(b.child.pid), cpuMs(without.pid)];
    const before = read();
    const eventsBefore = a.events();
    const t0 = performance.now();
    await sleep(WINDOW);
    const after = read();
    const seconds = (performance.now() - t0) / 1000;
    const [corralA, tmuxA, corralB, tmuxB] = after.map((v, i) => (v - before[i]) / seconds);
    return { corralA, tmuxA, corralB, tmuxB, changes: a.events() - eventsBefore, seconds };
  } finally {
    await a.stop();
    await b.stop();
    withOptions.kill();
    without.kill();
  }
}

async function nextLatency(log) {
  const watched = startServer(PANES, programs(false));
  const alone = startServer(PANES, programs(false));
  // A pane that waits, on both servers; and a real client attached to each, to switch.
  for (const server of [watched, alone]) server.tmux('respawn-pane', '-k', '-t', 'bench:0', 'bash', '--norc', '-c', "read -p 'Deploy? [y/N] ' a; sleep 3600");
  const viewer = startServer(2, (i) => `env -u TMUX tmux -L ${[watched, alone][i].name} attach`);
  const w = watch(watched, true);
  try {
    await sleep(5_000);
    const time = async (server) => {
      const started = performance.now();
      await execFileAsync(process.execPath, [CLI, 'next', '-L', server.name, '--quiet-threshold', '1000']).catch(() => undefined);
      return performance.now() - started;
    };
    const results = {};
    for (const [name, server] of [['with a running corral', watched], ['without one', alone]]) {
      const times = [];
      for (let i = 0; i < RUNS; i++) times.push(await time(server));
      times.sort((x, y) => x - y);
      results[name] = { p50: percentile(times, 50), p95: percentile(times, 95) };
      log(`corral next ${name}: p50 ${results[name].p50.toFixed(0)} ms`);
    }
    const node = [];
    for (let i = 0; i < RUNS; i++) {
      const started = performance.now();
      await execFileAsync(process.execPath, ['-e', '0']);
      node.push(performance.now() - started);
    }
    node.sort((x, y) => x - y);
    results['node -e 0 (the floor)'] = { p50: percentile(node, 50), p95: percentile(node, 95) };
    return results;
  } finally {
    await w.stop();
    viewer.kill();
    watched.kill();
    alone.kill();
  }
}

export async function run(log) {
  const changing = await measure(true, log);
  const idle = await measure(false, log);
  const next = await nextLatency(log);
  const f = (v) => v.toFixed(2);
  const extra = (m) => m.corralA - m.corralB + (m.tmuxA - m.tmuxB);
  const rows = [
    '| window | state changes | corral with options | corral without | tmux with options | tmux without | options cost (both) |',
    '|---|---|---|---|---|---|---|',
    `| one pane changing state | ${changing.changes} in ${changing.seconds.toFixed(0)} s | ${f(changing.corralA)} ms/s | ${f(changing.corralB)} ms/s | ${f(changing.tmuxA)} ms/s | ${f(changing.tmuxB)} ms/s | ${f(extra(changing))} ms/s = ${f((extra(changing) * changing.seconds) / Math.max(1, changing.changes))} ms per change |`,
    `| nothing changing | 0 | ${f(idle.corralA)} ms/s | ${f(idle.corralB)} ms/s | ${f(idle.tmuxA)} ms/s | ${f(idle.tmuxB)} ms/s | ${f(extra(idle))} ms/s |`,
    '',
    '| `corral next` (a waiting pane, a client attached, 50 panes) | p50 | p95 |',
    '|---|---|---|',
    ...Object.entries(next).map(([name, r]) => `| ${name} | ${r.p50.toFixed(0)} ms | ${r.p95.toFixed(0)} ms |`),
  ];
  return rows.join('\n');
}
