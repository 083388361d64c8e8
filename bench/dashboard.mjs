// Dashboard cost: `corral dashboard` at the default 2 s poll in a real 120x40 tmux pane, watching
// 50 or 200 panes on another private server. Measures the time to the first frame and to the frame
// that lists every pane, the CPU of the corral process while idle, renders per second, and the time
// from a key press (sent through a tmux control client) to the dashboard's next output.
//
// BENCH_DASHBOARD_BASELINE=path/to/other/dist/bin/corral.js runs every case with that build too,
// side by side in the same run (for example the build of the main branch before a change).

import { spawn, execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cpuMs, killServer, startServer } from './lib/tmux-fixture.mjs';

export const title =
  'Dashboard: time to a full list, idle CPU, renders, key press to frame (50 and 200 panes, 2 s poll)';

const MAIN = fileURLToPath(new URL('../dist/bin/corral.js', import.meta.url));
const BASELINE = process.env.BENCH_DASHBOARD_BASELINE ?? null;
const DURATION = Number(process.env.BENCH_DASHBOARD_MS ?? 30_000);
const PRESSES = Number(process.env.BENCH_DASHBOARD_PRESSES ?? 100);
const STARTS = Number(process.env.BENCH_DASHBOARD_STARTS ?? 5);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function readRenders(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8')).renders;
  } catch {
    return 0;
  }
}

function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/**
 * Key press to frame: a control client on the host server sends a key to the dashboard's pane and
 * waits for the first %output from that pane after it. Keys alternate j and k, so every press moves
 * the selection and changes the frame.
 */
async function keyLatencies(host, paneId, presses) {
  const client = spawn('tmux', ['-L', host, '-C', 'attach', '-f', 'ignore-size', '-t', 'host'], {
    stdio: ['pipe', 'pipe', 'ignore'],
  });
  let buffered = '';
  let waiting = null;
  client.stdout.on('data', (chunk) => {
    buffered += chunk.toString('utf8');
    const lines = buffered.split('\n');
    buffered = lines.pop() ?? '';
    for (const line of lines) {
      if (waiting && line.startsWith(`%output ${paneId} `)) {
        const resolve = waiting;
        waiting = null;
        resolve(performance.now());
      }
    }
  });
  await sleep(500);
  const results = [];
  try {
    for (let i = 0; i < presses; i++) {
      const frame = new Promise((resolve) => {
        waiting = resolve;
        setTimeout(() => resolve(null), 2000);
      });
      const sent = performance.now();
      client.stdin.write(`send-keys -t ${paneId} ${i % 2 === 0 ? 'j' : 'k'}\n`);
      const at = await frame;
      waiting = null;
      if (at !== null) results.push(at - sent);
      await sleep(150);
    }
  } finally {
    client.stdin.end();
    client.kill();
  }
  return results;
}

/** Starts the dashboard in a new host server; resolves with the times to its first and its full frame. */
async function startDashboard(build, watched, panes, stats) {
  const host = `corral-bench-host-${randomBytes(4).toString('hex')}`;
  const tmux = (...args) => execFileSync('tmux', ['-L', host, ...args], { encoding: 'utf8' });
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
    build.main,
    'dashboard',
    '-L',
    watched.name,
  );
  const pid = Number(tmux('display-message', '-p', '-t', 'host:0.0', '#{pane_pid}').trim());
  const paneId = tmux('display-message', '-p', '-t', 'host:0.0', '#{pane_id}').trim();
  let firstFrame = null;
  let listed = null;
  while (listed === null && Date.now() - started < 20_000) {
    const screen = tmux('capture-pane', '-p', '-t', 'host:0.0');
    if (firstFrame === null && screen.includes('corral ·')) firstFrame = Date.now() - started;
    if (screen.includes(`${panes} total`)) listed = Date.now() - started;
    else await sleep(10);
  }
  return { host, tmux, pid, paneId, firstFrame, listed };
}

async function quitDashboard({ host, tmux, pid }) {
  tmux('send-keys', '-t', 'host:0.0', 'q');
  for (let i = 0; i < 100; i++) {
    try {
      process.kill(pid, 0);
      await sleep(50);
    } catch {
      break;
    }
  }
  killServer(host);
}

const median = (values) => {
  const known = values.filter((v) => v !== null).sort((a, b) => a - b);
  return known.length === 0 ? null : known[Math.floor(known.length / 2)];
};

/**
 * One build on one watched server. Idle CPU is measured once every pane has been quiet for over a
 * minute (`quietFrom`), as on a dashboard left open: the timers then show minutes.
 */
async function measure({ label, build, panes, watched, quietFrom, keys }, log) {
  const dir = mkdtempSync(join(tmpdir(), 'corral-bench-'));
  const stats = join(dir, 'renders.json');
  try {
    await sleep(1000);
    log(`${label}, ${build.name}: ${STARTS} starts`);
    const starts = [];
    for (let i = 0; i < STARTS - 1; i++) {
      const run = await startDashboard(build, watched, panes, stats);
      starts.push(run);
      await quitDashboard(run);
    }
    // The last start stays up for the idle and key measurements.
    const live = await startDashboard(build, watched, panes, stats);
    starts.push(live);
    const { pid, paneId, host } = live;
    try {
      await sleep(Math.max(3000, quietFrom - Date.now()));
      log(`${label}, ${build.name}: idle for ${DURATION / 1000} s`);
      const cpu0 = cpuMs(pid);
      const renders0 = readRenders(stats);
      const t0 = Date.now();
      await sleep(DURATION);
      const wall = Date.now() - t0;
      const idleCpu = ((cpuMs(pid) - cpu0) / wall) * 100;
      const renders = (readRenders(stats) - renders0) / (wall / 1000);
      let keyP50 = null;
      let keyP95 = null;
      if (keys) {
        log(`${label}, ${build.name}: ${PRESSES} key presses`);
        const latencies = await keyLatencies(host, paneId, PRESSES);
        if (latencies.length > 0) {
          keyP50 = percentile(latencies, 50);
          keyP95 = percentile(latencies, 95);
        }
      }
      const rssMb = Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
      return {
        label,
        build: build.name,
        firstFrame: median(starts.map((r) => r.firstFrame)),
        listed: median(starts.map((r) => r.listed)),
        listedAll: starts.map((r) => r.listed),
        idleCpu,
        renders,
        keyP50,
        keyP95,
        rssMb,
      };
    } finally {
      await quitDashboard(live);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const ms = (v) => (v === null ? '-' : `${Math.round(v)} ms`);

export async function run(log) {
  const builds = [...(BASELINE ? [{ name: 'baseline', main: BASELINE }] : []), { name: 'this build', main: MAIN }];
  const cases = [
    { label: '50 idle panes', panes: 50, command: 'sleep 100000', keys: true, quiet: true },
    { label: '200 idle panes', panes: 200, command: 'sleep 100000', keys: true, quiet: true },
    { label: '50 panes printing every 1-4 s', panes: 50, command: undefined, keys: false, quiet: false },
  ];
  const loads = [];
  const rows = [];
  for (const c of cases) {
    const watched = startServer(c.panes, c.command);
    const quietFrom = c.quiet ? Date.now() + 65_000 : 0;
    try {
      for (const build of builds) {
        loads.push(readFileSync('/proc/loadavg', 'utf8').split(' ')[0]);
        rows.push(await measure({ ...c, build, watched, quietFrom }, log));
      }
    } finally {
      watched.kill();
    }
  }
  loads.push(readFileSync('/proc/loadavg', 'utf8').split(' ')[0]);
  return [
    `First frame and full list: medians of ${STARTS} starts (each start's full list in the last column). The dashboard runs in a 120x40 tmux pane with the default 2 s poll, watching panes on another private tmux server. CPU is % of one core over ${DURATION / 1000} s of the corral process alone (utime+stime from /proc); for idle panes, measured once every pane has been quiet for over a minute (timers show minutes, as on a dashboard left open), else from 3 s after the list is up. Key press to frame: ${PRESSES} presses of j/k sent by a tmux control client, up to the first output of the dashboard's pane. One-minute load average at the start of each case: ${loads.join(', ')}.`,
    '',
    '| case | build | first frame | full list | idle CPU | renders/s | key to frame p50 / p95 | max RSS | full list, each start |',
    '|---|---|---:|---:|---:|---:|---:|---:|---|',
    ...rows.map(
      (r) =>
        `| ${r.label} | ${r.build} | ${ms(r.firstFrame)} | ${ms(r.listed)} | ${r.idleCpu.toFixed(2)} % | ${r.renders.toFixed(2)} | ${r.keyP50 === null ? '-' : `${ms(r.keyP50)} / ${ms(r.keyP95)}`} | ${r.rssMb.toFixed(0)} MB | ${r.listedAll.map((v) => (v === null ? '-' : v)).join(', ')} |`,
    ),
  ].join('\n');
}
