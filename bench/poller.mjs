// Poller cost: corral's one-process-per-cycle engine next to the naive loop (one tmux process per
// list, per existence check and per capture), on the same panes, in the same run.

import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { cpuMs, startServer } from './lib/tmux-fixture.mjs';

export const title = 'Poller: CPU and tmux processes per cycle (500 ms poll)';

const driver = fileURLToPath(new URL('./lib/poll-driver.mjs', import.meta.url));
const DURATION = Number(process.env.BENCH_POLLER_MS ?? 10_000);
const SIZES = (process.env.BENCH_POLLER_SIZES ?? '10,50,200').split(',').map(Number);

function measure(mode, server) {
  const serverBefore = cpuMs(server.pid);
  const out = execFileSync(process.execPath, [driver, mode, server.name, '500', String(DURATION)], { encoding: 'utf8' });
  const result = JSON.parse(out.trim().split('\n').at(-1));
  result.serverCpuMs = cpuMs(server.pid) - serverBefore;
  result.totalCpuMs = result.cpuMs + result.serverCpuMs;
  return result;
}

export async function run(log) {
  const rows = [];
  for (const n of SIZES) {
    log(`${n} panes: starting server`);
    const server = startServer(n);
    try {
      await new Promise((r) => setTimeout(r, 1500));
      log(`${n} panes: corral`);
      const corral = measure('corral', server);
      log(`${n} panes: corral over control mode`);
      const control = measure('control', server);
      log(`${n} panes: naive loop`);
      const naive = measure('naive', server);
      rows.push({ n, corral, control, naive });
    } finally {
      server.kill();
    }
  }
  const perSec = (r) => (r.totalCpuMs / (r.elapsedMs / 1000)).toFixed(0);
  const lines = [
    `${DURATION / 1000} s per run; CPU = poller process + the tmux clients it spawned + the tmux server, in ms of CPU per second of wall time.`,
    '',
    '"corral" polls with one tmux process per cycle (what `corral ls` does); "control" over one persistent control-mode connection (what the dashboard, `watch` and `serve` do).',
    '',
    '| panes | corral CPU ms/s | control CPU ms/s | naive CPU ms/s | naive / corral, per cycle | naive / control, per cycle | tmux processes per cycle (corral / control / naive) | cycles done (corral / control / naive) | max RSS (corral / control) |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...rows.map(({ n, corral, control, naive }) => {
      const perCycle = (r) => r.totalCpuMs / r.cycles;
      return `| ${n} | ${perSec(corral)} | ${perSec(control)} | ${perSec(naive)} | ${(perCycle(naive) / perCycle(corral)).toFixed(1)}x | ${(perCycle(naive) / perCycle(control)).toFixed(1)}x | ${(corral.spawns / corral.cycles).toFixed(2)} / ${(control.spawns / control.cycles).toFixed(2)} / ${(naive.spawns / naive.cycles).toFixed(0)} | ${corral.cycles} / ${control.cycles} / ${naive.cycles} | ${corral.maxRssMb.toFixed(0)} / ${control.maxRssMb.toFixed(0)} MB |`;
    }),
  ];
  return lines.join('\n');
}
