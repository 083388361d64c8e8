// The tmux status line: what keeping the status options costs (corral and the tmux server, per state
// change, and while nothing changes), and how long `corral next` takes with a running corral (it
// reads the options) and without one (it looks at every pane itself).
//
// A state change is measured by feeding the writer views in which one pane flips, many times over,
// on a real server (the difference between two watching processes is below what /proc's 10 ms ticks
// can tell); the idle case by counting what the writer writes while nothing changes.

import { execFile, spawn } from 'node:child_process';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { resolveSettings } from '../dist/engine/settings/config.js';
import { createEngine } from '../dist/engine/engine.js';
import { startStatusWriter } from '../dist/engine/records/status-writer.js';
import { TmuxClient } from '../dist/engine/tmux/client.js';
import { LISTED_RECORDS } from '../dist/engine/records/tmux-formats.js';
import { cpuMs, startServer } from './lib/tmux-fixture.mjs';
import { backgroundTimers, clock, pollTimers } from '../dist/cli/time.js';

export const title = 'Status line: the cost of the tmux options, and corral next';

const CLI = fileURLToPath(new URL('../dist/bin/corral.js', import.meta.url));
const PANES = 50;
const WINDOW = Number(process.env.BENCH_STATUS_WINDOW_MS ?? 30_000);
const RUNS = Number(process.env.BENCH_STATUS_NEXT_RUNS ?? 20);
const execFileAsync = promisify(execFile);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

// Every pane sleeps: nothing changes by itself.
const programs = () => () => 'sleep 3600';

function watch(server) {
  const child = spawn(process.execPath, [CLI, 'watch', '-L', server.name, '--poll-interval', '500', '--quiet-threshold', '1000'], { stdio: ['ignore', 'ignore', 'ignore'] });
  return { child, stop: () => new Promise((r) => (child.once('exit', r), child.kill('SIGTERM'))) };
}

/**
 * The cost of one state change: the writer in this process on a real server of 50 panes, fed views
 * in which one pane flips between stopped and active, CHANGES times; corral's CPU (this process) and
 * the tmux server's, per change.
 */
async function perChange(log) {
  const CHANGES = Number(process.env.BENCH_STATUS_CHANGES ?? 2000);
  const server = startServer(PANES, programs(false));
  const tmux = new TmuxClient({ records: LISTED_RECORDS, socket: { kind: 'name', name: server.name }, clock });
  const listed = await tmux.panes.listPanes();
  let snapshot = { server: server.name, hosts: [], status: 'ok', statusMessage: null, panes: [], updatedAt: 0, cycle: 0 };
  const listeners = new Set();
  const engine = { getSnapshot: () => snapshot, subscribe: (l) => (listeners.add(l), () => listeners.delete(l)) };
  const now = clock.now();
  const view = (pane, stuck) => ({
    key: pane.paneId, host: 'local', online: true, pane, target: '', label: null, trackingId: '', state: stuck ? 'stuck' : 'monitoring', reason: stuck ? 'stopped' : null,
    message: null, verdict: null, registeredAt: 0, quietSince: stuck ? now - 60_000 : now, stuckSince: stuck ? now - 30_000 : null, acknowledged: false, lines: [], screenHash: '', contentHash: '', hook: null,
    waitSince: stuck ? now - 60_000 : null,
    attention: { need: stuck ? 'new' : null, seenAt: null, snoozed: false, answered: null, ask: null, worked: true, record: '' },
  });
  const publish = (flip) => {
    snapshot = { ...snapshot, panes: listed.map((pane, i) => view(pane, i === 0 ? flip : false)), cycle: snapshot.cycle + 1 };
    for (const l of listeners) l();
  };
  publish(false);
  const writer = startStatusWriter({ engine, tmux, machine: 'bench', pid: process.pid, alive: () => true, clock: { now: () => now }, timers: backgroundTimers });
  try {
    await writer.flush();
    const writes = writer.writes;
    const cpu = process.cpuUsage();
    const tmuxBefore = cpuMs(server.pid);
    for (let i = 1; i <= CHANGES; i++) {
      publish(i % 2 === 1);
      await writer.flush();
    }
    const used = process.cpuUsage(cpu);
    const corralMs = (used.user + used.system) / 1000 / CHANGES;
    const tmuxMsPerChange = (cpuMs(server.pid) - tmuxBefore) / CHANGES;
    const perChangeWrites = (writer.writes - writes) / CHANGES;
    log(`${CHANGES} changes: corral ${corralMs.toFixed(3)} ms, tmux ${tmuxMsPerChange.toFixed(3)} ms, ${perChangeWrites.toFixed(1)} options each`);
    return { corralMs, tmuxMs: tmuxMsPerChange, writes: perChangeWrites, changes: CHANGES };
  } finally {
    await writer.stop();
    server.kill();
  }
}

async function nextLatency(log) {
  const watched = startServer(PANES, programs(false));
  const alone = startServer(PANES, programs(false));
  // A pane that waits, on both servers; and a real client attached to each, to switch.
  for (const server of [watched, alone]) server.tmux('respawn-pane', '-k', '-t', 'bench:0', 'bash', '--norc', '-c', "read -p 'Deploy? [y/N] ' a; sleep 3600");
  const viewer = startServer(2, (i) => `env -u TMUX tmux -L ${[watched, alone][i].name} attach`);
  const w = watch(watched);
  try {
    await sleep(5_000);
    // With a running corral, `next` reads its options the short way; without, it looks (and needs a threshold).
    const time = async (server) => {
      const started = performance.now();
      await execFileAsync(process.execPath, [CLI, 'next', '-L', server.name, ...(server === alone ? ['--quiet-threshold', '1000'] : [])]).catch(() => undefined);
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

/** The writer in this process, on a server where nothing changes: how many options it writes after its first pass. */
async function writesWhileIdle(log) {
  const server = startServer(PANES, programs(false));
  const settings = resolveSettings({ flags: { socketName: server.name, pollIntervalMs: 500, quietThresholdMs: 1000 }, env: {}, file: null });
  const tmux = new TmuxClient({ records: LISTED_RECORDS, socket: { kind: 'name', name: server.name }, clock });
  const engine = createEngine({ settings, tmux, clock, wallClock: clock, timers: pollTimers });
  const writer = startStatusWriter({ engine, tmux, machine: 'bench', pid: process.pid, alive: () => true, clock, timers: backgroundTimers });
  try {
    engine.start();
    // Long enough for every pane to turn from active to quiet (5 s after its last output).
    await sleep(12_000);
    await writer.flush();
    const first = writer.writes;
    log(`writer: ${first} options written in the first 12 s; now ${WINDOW / 1000} s of nothing changing`);
    await sleep(WINDOW);
    await writer.flush();
    return { first, idle: writer.writes - first };
  } finally {
    await writer.stop();
    await engine.stop();
    server.kill();
  }
}

export async function run(log) {
  const change = await perChange(log);
  const written = await writesWhileIdle(log);
  const next = await nextLatency(log);
  const floor = next['node -e 0 (the floor)'];
  return [
    `One state change (a pane of ${PANES} turning stopped or back): **${change.writes.toFixed(1)} options written**, in one round trip over the control connection; corral spends **${change.corralMs.toFixed(3)} ms** of CPU on it and the tmux server **${change.tmuxMs.toFixed(3)} ms** (${change.changes} changes in a row, CPU from process.cpuUsage and /proc).`,
    '',
    `While nothing changes: ${written.first} options written on the first pass for ${PANES} panes, then **${written.idle}** in ${WINDOW / 1000} s.`,
    '',
    `| \`corral next\` (a waiting pane, a client attached, ${PANES} panes) | p50 | p95 | p50 above starting node |`,
    '|---|---|---|---|',
    ...Object.entries(next).map(([name, r]) => `| ${name} | ${r.p50.toFixed(0)} ms | ${r.p95.toFixed(0)} ms | ${(r.p50 - floor.p50).toFixed(0)} ms |`),
    '',
    `(load average when it ended: ${loadavg().map((v) => v.toFixed(1)).join(' ')})`,
  ].join('\n');
}
