// Poll cost at 50 printing panes: this build's engine next to a baseline build, at the same time.
// Three identical tmux servers print the same lines at the same pace; in each round the baseline
// polls one, this build polls another and nobody polls the third, so every figure of a round comes
// from the same seconds of the same machine. The roles rotate from round to round, so no server's
// own quirks favour a build. CPU = the engine's process + its control-mode tmux client + what its
// tmux server spends beyond the unpolled server over the same window. BENCH_PRINTING_PRINTERS=N
// lets only the first N panes print (0: a quiet server, where tmux can tell the engine nothing changed).
//
// Each engine first runs for a warm-up of 150 poll cycles, at least 60 s (75 s at 500 ms, 300 s at
// 2 s): V8 compiles a function once it has run enough, so code that runs once a cycle becomes hot
// after a number of cycles, not of seconds (at 2 s, an engine warmed up for 60 s still spent about
// twice its steady cost, its profile full of the compiler and of unoptimised code). A dashboard runs
// for hours. The warm-up's own cost is reported too ("warm-up").
//
// The baseline is another checkout's build (BENCH_BASE_DIST, /tmp/corral-base/dist by default):
//   git worktree add --detach /tmp/corral-base e905847 && (cd /tmp/corral-base && npm ci && npm run build)
// or, with BENCH_PRINTING_AGAINST=seed, the seed design's loop (one tmux process per listing, per
// existence check and per capture; bench/lib/poll-driver.mjs naive) at the same interval: its CPU
// is the loop's process with the tmux clients it waited for, over its whole run (it has no warm-up
// to leave out), plus its server's extra over the measured window.
// BENCH_PRINTING_PACE=slow makes each pane print every 1 to 3 s instead of every 200 to 500 ms.

import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { cpuMs, numberedPrinter, readOverWindow, startServer } from './lib/tmux-fixture.mjs';

export const title = 'Poll cost at 50 printing panes (control mode)';

const execFileAsync = promisify(execFile);
const driver = fileURLToPath(new URL('./lib/engine-driver.mjs', import.meta.url));
const seedDriver = fileURLToPath(new URL('./lib/poll-driver.mjs', import.meta.url));
const AGAINST_SEED = process.env.BENCH_PRINTING_AGAINST === 'seed';
const SLOW = process.env.BENCH_PRINTING_PACE === 'slow';
// BENCH_DIST measures another build as "this build" (a folder like dist/, beside a node_modules).
const here = process.env.BENCH_DIST ?? fileURLToPath(new URL('../dist', import.meta.url));
const baseDist = process.env.BENCH_BASE_DIST ?? '/tmp/corral-base/dist';
const PANES = Number(process.env.BENCH_PRINTING_PANES ?? 50);
const DURATION = Number(process.env.BENCH_PRINTING_MS ?? 30_000);
const ROUNDS = Number(process.env.BENCH_PRINTING_ROUNDS ?? 3);
const WARMUP_SET = process.env.BENCH_PRINTING_WARMUP_MS;
/** The warm-up at a poll interval: BENCH_PRINTING_WARMUP_MS, or 150 cycles and at least 60 s. */
const warmupAt = (interval) => (WARMUP_SET !== undefined ? Number(WARMUP_SET) : Math.max(60_000, 150 * interval));
// 500 ms, and 2000 ms (the default poll interval).
const INTERVALS = (process.env.BENCH_PRINTING_INTERVALS ?? '500,2000').split(',').map(Number);
// How many of the panes print (all by default); the others run a program that never prints.
const PRINTERS = Math.min(PANES, Number(process.env.BENCH_PRINTING_PRINTERS ?? PANES));
// Pane i prints a numbered line every 200, 300, 400 or 500 ms (by i).
const numbered = numberedPrinter((i) => (SLOW ? `${1 + (i % 3)}` : `0.${2 + (i % 4)}`));
const printer = (i) => (i < PRINTERS ? numbered(i) : 'exec sleep 1000000');

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const BASE_NAME = AGAINST_SEED ? 'seed loop' : 'baseline';
const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;

async function measure(dist, server, interval) {
  const { stdout } = await execFileAsync(process.execPath, [driver, dist, server.name, String(server.pid), String(interval), String(warmupAt(interval)), String(DURATION)], {
    encoding: 'utf8',
    maxBuffer: 1 << 20,
  });
  return JSON.parse(stdout.trim().split('\n').at(-1));
}

/** The seed's loop on `server` for the warm-up and the measured window, in the shape `measure` gives. */
async function measureSeed(server, interval) {
  const { stdout } = await execFileAsync(process.execPath, [seedDriver, 'naive', server.name, String(interval), String(warmupAt(interval) + DURATION)], { encoding: 'utf8', maxBuffer: 1 << 20 });
  const r = JSON.parse(stdout.trim().split('\n').at(-1));
  return { elapsedMs: r.elapsedMs, engineMs: r.cpuMs, clientMs: 0, warmupEngineMs: r.cpuMs, warmupElapsedMs: r.elapsedMs, cycles: r.cycles };
}

/** One round: both builds at once, each on its server, the third server unpolled; CPU in ms/s. */
async function round(servers, index, interval, log) {
  const [baseServer, hereServer, idleServer] = [0, 1, 2].map((k) => servers[(index + k) % 3]);
  log(`round ${index + 1}, ${interval} ms: baseline on ${baseServer.name}, this build on ${hereServer.name}, ${idleServer.name} unpolled`);
  const runs = Promise.all([AGAINST_SEED ? measureSeed(baseServer, interval) : measure(baseDist, baseServer, interval), measure(here, hereServer, interval)]);
  // The drivers measure from the end of their warm-up for DURATION: so do the servers' readings.
  const { before, after, windowMs } = await readOverWindow(warmupAt(interval), DURATION, () => servers.map((s) => cpuMs(s.pid)));
  const spent = servers.map((_, k) => (after[k] - before[k]) / (windowMs / 1000));
  const [base, current] = await runs;
  const idle = spent[servers.indexOf(idleServer)];
  const figures = (r, server) => {
    const seconds = r.elapsedMs / 1000;
    const engine = r.engineMs / seconds;
    const client = r.clientMs / seconds;
    const extra = spent[servers.indexOf(server)] - idle;
    return { warmup: r.warmupEngineMs / (r.warmupElapsedMs / 1000), engine, client, server: extra, total: engine + client + extra, cycles: r.cycles / seconds };
  };
  return { idle, base: figures(base, baseServer), current: figures(current, hereServer) };
}

export async function run(log) {
  if (!AGAINST_SEED && !existsSync(`${baseDist}/engine/engine.js`)) {
    throw new Error(`no baseline build at ${baseDist}: build one (see the top of bench/printing.mjs) or set BENCH_BASE_DIST`);
  }
  log(`3 servers of ${PANES} panes: starting`);
  // A short history: a pane that prints fills it within seconds, and from then on the server's
  // cost of the printing stays the same (with 2000 lines it grows for minutes).
  const config = join(mkdtempSync(join(tmpdir(), 'corral-bench-')), 'tmux.conf');
  writeFileSync(config, 'set -g history-limit 50\n');
  const servers = [0, 1, 2].map(() => startServer(PANES, printer, config));
  const results = new Map(INTERVALS.map((interval) => [interval, []]));
  try {
    await sleep(1500);
    for (let index = 0; index < ROUNDS; index++) {
      for (const interval of INTERVALS) {
        const result = await round(servers, index, interval, log);
        log(JSON.stringify({ interval, ...result }));
        results.get(interval).push(result);
      }
    }
  } finally {
    for (const server of servers) server.kill();
  }
  const average = (rs) => Object.fromEntries(Object.keys(rs[0]).map((key) => [key, mean(rs.map((r) => r[key]))]));
  const row = (interval, name, f) =>
    `| ${interval} ms | ${name} | ${f.warmup.toFixed(1)} | ${f.engine.toFixed(1)} | ${f.client.toFixed(1)} | ${f.server.toFixed(1)} | **${f.total.toFixed(1)}** | ${f.cycles.toFixed(2)} |`;
  const rows = [];
  const ratios = [];
  const idles = [];
  const spread = [];
  for (const [interval, rs] of results) {
    const base = average(rs.map((r) => r.base));
    const current = average(rs.map((r) => r.current));
    rows.push(row(interval, BASE_NAME, base), row(interval, 'this build', current));
    ratios.push(`${interval} ms: **${(current.total / base.total).toFixed(AGAINST_SEED ? 3 : 2)}x**, the ${BASE_NAME} ${(base.total / current.total).toFixed(0)} times this build's (${current.total.toFixed(1)} against ${base.total.toFixed(1)} ms/s)`);
    idles.push(mean(rs.map((r) => r.idle)).toFixed(1));
    spread.push(`${interval} ms: ${rs.map((r) => r.current.total.toFixed(1)).join(', ')}`);
  }
  return [
    `${PANES} panes on each of three identical tmux servers, ${PRINTERS === PANES ? 'each pane' : PRINTERS === 0 ? 'none of them printing; had they printed, each' : `${PRINTERS} of them`} printing a numbered line every ${SLOW ? '1 to 3 s' : '200 to 500 ms'}, polled over a control-mode connection. ${ROUNDS} rounds per interval; in each, the ${BASE_NAME} (${AGAINST_SEED ? 'bench/lib/poll-driver.mjs naive' : baseDist}) and this build poll one server each at the same time and the third is not polled, the roles rotating; a warm-up of ${INTERVALS.map((i) => `${warmupAt(i) / 1000} s at ${i} ms`).join(', ')}, then ${DURATION / 1000} s measured. In ms of CPU per second of wall time. "warm-up" is the engine during its warm-up; "tmux server (extra)" is the polled server's CPU minus the unpolled one's over the same window (that one spent ${idles.join(' / ')} ms/s).`,
    '',
    '| poll | build | engine, warm-up | engine | tmux client | tmux server (extra) | total | cycles/s |',
    '|---:|---|---:|---:|---:|---:|---:|---:|',
    ...rows,
    '',
    `This build / ${BASE_NAME}: ${ratios.join('; ')}. This build's total in each round: ${spread.join('; ')}.`,
  ].join('\n');
}
