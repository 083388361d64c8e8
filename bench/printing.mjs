// Poll cost at 50 printing panes: this build's engine next to a baseline build, in the same run,
// on the same panes. CPU = the engine's process + its control-mode tmux client + what the tmux
// server spends beyond what the same panes cost it with nobody polling.
//
// The baseline is another checkout's build (BENCH_BASE_DIST, /tmp/corral-base/dist by default):
//   git worktree add --detach /tmp/corral-base e905847 && (cd /tmp/corral-base && npm ci && npm run build)

import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer } from './lib/tmux-fixture.mjs';

export const title = 'Poll cost at 50 printing panes (control mode)';

const driver = fileURLToPath(new URL('./lib/engine-driver.mjs', import.meta.url));
const here = fileURLToPath(new URL('../dist', import.meta.url));
const baseDist = process.env.BENCH_BASE_DIST ?? '/tmp/corral-base/dist';
const PANES = Number(process.env.BENCH_PRINTING_PANES ?? 50);
const DURATION = Number(process.env.BENCH_PRINTING_MS ?? 20_000);
const ROUNDS = Number(process.env.BENCH_PRINTING_ROUNDS ?? 3);
// 500 ms, and 2000 ms (the default poll interval).
const INTERVALS = (process.env.BENCH_PRINTING_INTERVALS ?? '500,2000').split(',').map(Number);
const WARMUP = 3_000;
// Each pane prints a line every 200 to 500 ms, with bash builtins only (no process per line).
const PRINTER = 'while :; do read -r -t 0.$((RANDOM % 4 + 2)) _; echo "tick $RANDOM $SECONDS"; done';

function measure(dist, server, interval) {
  const out = execFileSync(process.execPath, [driver, dist, server.name, String(server.pid), String(interval), String(WARMUP), String(DURATION)], { encoding: 'utf8' });
  return JSON.parse(out.trim().split('\n').at(-1));
}

const perSec = (ms, r) => ms / (r.elapsedMs / 1000);
const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;

export async function run(log) {
  if (!existsSync(`${baseDist}/engine/engine.js`)) {
    throw new Error(`no baseline build at ${baseDist}: build one (see the top of bench/printing.mjs) or set BENCH_BASE_DIST`);
  }
  log(`${PANES} panes: starting server`);
  // A short history: a pane that prints fills it within seconds, and from then on the server's
  // cost of the printing stays the same (with 2000 lines it grows for minutes, which would bias
  // whichever run comes last).
  const config = join(mkdtempSync(join(tmpdir(), 'corral-bench-')), 'tmux.conf');
  writeFileSync(config, 'set -g history-limit 50\n');
  const server = startServer(PANES, PRINTER, config);
  const runs = new Map(INTERVALS.map((interval) => [interval, { idle: [], base: [], current: [] }]));
  try {
    await new Promise((r) => setTimeout(r, 1500));
    for (let round = 1; round <= ROUNDS; round++) {
      for (const [interval, at] of runs) {
        // Interleaved, in turn forwards and backwards, so that a change in the machine's load
        // touches all three alike.
        const order = [
          ['no poller', 'none', at.idle],
          [`baseline (${baseDist})`, baseDist, at.base],
          ['this build', here, at.current],
        ];
        if (round % 2 === 0) order.reverse();
        for (const [label, dist, into] of order) {
          log(`round ${round}, ${interval} ms: ${label}`);
          into.push(measure(dist, server, interval));
        }
      }
    }
  } finally {
    server.kill();
  }
  const figures = (rs, idleServer) => {
    const engine = mean(rs.map((r) => perSec(r.engineMs, r)));
    const client = mean(rs.map((r) => perSec(r.clientMs, r)));
    const server = mean(rs.map((r) => perSec(r.serverMs, r))) - idleServer;
    const cycles = mean(rs.map((r) => r.cycles / (r.elapsedMs / 1000)));
    return { engine, client, server, total: engine + client + server, cycles };
  };
  const row = (interval, name, f) =>
    `| ${interval} ms | ${name} | ${f.engine.toFixed(1)} | ${f.client.toFixed(1)} | ${f.server.toFixed(1)} | **${f.total.toFixed(1)}** | ${f.cycles.toFixed(2)} |`;
  const rows = [];
  const ratios = [];
  const idles = [];
  for (const [interval, at] of runs) {
    const idleServer = mean(at.idle.map((r) => perSec(r.serverMs, r)));
    const base = figures(at.base, idleServer);
    const current = figures(at.current, idleServer);
    log(JSON.stringify({ interval, idleServer, base, current, runs: at }));
    rows.push(row(interval, 'baseline', base), row(interval, 'this build', current));
    ratios.push(`${interval} ms: **${(current.total / base.total).toFixed(2)}x** (${current.total.toFixed(1)} against ${base.total.toFixed(1)} ms/s)`);
    idles.push(`${idleServer.toFixed(1)}`);
  }
  return [
    `${PANES} panes, each printing a line every 200 to 500 ms, polled over a control-mode connection; ${ROUNDS} rounds of ${DURATION / 1000} s per build and interval, interleaved, after a ${WARMUP / 1000} s warm-up; in ms of CPU per second of wall time. "tmux server (extra)" is the server's CPU minus its CPU with the same panes and no poller (${idles.join(' / ')} ms/s).`,
    '',
    '| poll | build | engine | tmux client | tmux server (extra) | total | cycles/s |',
    '|---:|---|---:|---:|---:|---:|---:|',
    ...rows,
    '',
    `This build / baseline: ${ratios.join('; ')}.`,
  ].join('\n');
}
