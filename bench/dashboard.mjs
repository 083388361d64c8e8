// Dashboard cost: `corral dashboard` at the default 2 s poll in a real tmux pane, watching 50
// panes on another private server. Measures time to the first frame that lists the panes, CPU of
// the corral process (and of the tmux clients it starts) while idle, and renders per second.

import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cpuMs, killServer, startServer } from './lib/tmux-fixture.mjs';

export const title = 'Dashboard: first frame, idle CPU and renders (50 panes, 2 s poll)';

const MAIN = fileURLToPath(new URL('../dist/bin/corral.js', import.meta.url));
const DURATION = Number(process.env.BENCH_DASHBOARD_MS ?? 30_000);
const PANES = Number(process.env.BENCH_DASHBOARD_PANES ?? 50);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function readRenders(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8')).renders;
  } catch {
    return 0;
  }
}

async function measure(label, watchedCommand, log) {
  const watched = startServer(PANES, watchedCommand);
  const host = `corral-bench-host-${randomBytes(4).toString('hex')}`;
  const tmux = (...args) => execFileSync('tmux', ['-L', host, ...args], { encoding: 'utf8' });
  const dir = mkdtempSync(join(tmpdir(), 'corral-bench-'));
  const stats = join(dir, 'renders.json');
  try {
    await sleep(1000);
    log(`${label}: starting the dashboard`);
    const started = Date.now();
    tmux(
      '-f',
      '/dev/null',
      'new-session',
      '-d',
      '-s',
      'host',
      '-x',
      '120',
      '-y',
      '40',
      'env',
      '-u',
      'TMUX',
      `CORRAL_RENDER_STATS=${stats}`,
      process.execPath,
      MAIN,
      'dashboard',
      '-L',
      watched.name,
    );
    const pid = Number(tmux('display-message', '-p', '-t', 'host:0.0', '#{pane_pid}').trim());
    let firstFrame = null;
    let listed = null;
    while (listed === null && Date.now() - started < 20_000) {
      const screen = tmux('capture-pane', '-p', '-t', 'host:0.0');
      if (firstFrame === null && screen.includes('corral ·')) firstFrame = Date.now() - started;
      if (screen.includes(`${PANES} total`)) listed = Date.now() - started;
      else await sleep(10);
    }
    await sleep(3000);
    log(`${label}: measuring for ${DURATION / 1000} s`);
    const cpu0 = cpuMs(pid);
    const all0 = cpuMs(pid, true);
    const renders0 = readRenders(stats);
    const t0 = Date.now();
    await sleep(DURATION);
    const wall = Date.now() - t0;
    const own = ((cpuMs(pid) - cpu0) / wall) * 100;
    const withTmux = ((cpuMs(pid, true) - all0) / wall) * 100;
    const renders = (readRenders(stats) - renders0) / (wall / 1000);
    const rssMb = Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
    tmux('send-keys', '-t', 'host:0.0', 'q');
    let exited = false;
    for (let i = 0; i < 100 && !exited; i++) {
      try {
        process.kill(pid, 0);
        await sleep(50);
      } catch {
        exited = true;
      }
    }
    return { label, firstFrame, listed, own, withTmux, renders, rssMb, exited };
  } finally {
    killServer(host);
    watched.kill();
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function run(log) {
  const rows = [
    await measure('idle panes', 'sleep 100000', log),
    await measure('panes printing every 1-4 s', undefined, log),
  ];
  const load = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  return [
    `${PANES} watched panes on a private tmux server; the dashboard runs in a 120x40 tmux pane with the default 2 s poll and 1 s timer tick. CPU is % of one core over ${DURATION / 1000} s (utime+stime from /proc; "with tmux" adds the tmux clients it started). Load average during the run: ${load}.`,
    '',
    '| watched panes | first frame | frame listing all panes | CPU (corral) | CPU (with tmux clients) | renders/s | max RSS | quit on `q` |',
    '|---|---:|---:|---:|---:|---:|---:|---|',
    ...rows.map(
      (r) =>
        `| ${r.label} | ${r.firstFrame ?? '-'} ms | ${r.listed ?? '-'} ms | ${r.own.toFixed(2)} % | ${r.withTmux.toFixed(2)} % | ${r.renders.toFixed(2)} | ${r.rssMb.toFixed(0)} MB | ${r.exited ? 'yes' : 'no'} |`,
    ),
  ].join('\n');
}
