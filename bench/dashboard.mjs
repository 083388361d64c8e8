// Dashboard cost: `corral dashboard` at the default 2 s poll in a real 120x40 tmux pane, watching
// 50 or 200 panes on another private server, or 500 panes on ten hosts (one here, nine through
// their own sshd on loopback, as a fleet; every tenth pane waits at a prompt). Measures the time to the first frame and to the frame
// that lists every pane, the CPU of the corral process while idle, renders per second, and the time
// from a key press (sent through a tmux control client) to the dashboard's next output.
//
// BENCH_DASHBOARD_BASELINE=path/to/other/dist/bin/corral.js runs every case with that build too,
// side by side in the same run (for example the build of the main branch before a change).
// BENCH_DASHBOARD_CASES picks cases by id (50, 200, printing, fleet; all by default), in one run.

import { spawn, execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cpuMs, killServer, startServer } from './lib/tmux-fixture.mjs';
import { startFleetHosts } from './lib/fleet-hosts.mjs';

export const title =
  'Dashboard: time to a full list, idle CPU, renders, key press to frame (50 and 200 panes, 500 on ten hosts, 2 s poll)';

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

/**
 * Starts the dashboard in a new host server; resolves with the times to its first and its full
 * frame. `watched`: a server (`name`), or a fleet (`args` and `env` for the dashboard).
 */
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
    ...(watched.env ?? []),
    process.execPath,
    build.main,
    'dashboard',
    ...(watched.args ?? ['-L', watched.name]),
  );
  const pid = Number(tmux('display-message', '-p', '-t', 'host:0.0', '#{pane_pid}').trim());
  const paneId = tmux('display-message', '-p', '-t', 'host:0.0', '#{pane_id}').trim();
  let firstFrame = null;
  let listed = null;
  while (listed === null && Date.now() - started < 60_000) {
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
 * All builds at once on one watched server, each dashboard in its own host server: idle CPU over
 * the same window, then key presses taking turns, so that every build sees the same load. Idle CPU
 * is measured once every pane has been quiet for over a minute (`quietFrom`), as on a dashboard
 * left open: the timers then show minutes.
 */
async function measureTogether({ label, panes, watched, quietFrom, keys }, builds, log) {
  const dir = mkdtempSync(join(tmpdir(), 'corral-bench-'));
  const lives = [];
  try {
    for (const build of builds) {
      const stats = join(dir, `${build.name.replace(/\W+/g, '-')}.json`);
      lives.push({ build, stats, run: await startDashboard(build, watched, panes, stats) });
    }
    await sleep(Math.max(3000, quietFrom - Date.now()));
    log(`${label}: idle for ${DURATION / 1000} s, all builds at once`);
    const before = lives.map((l) => ({ cpu: cpuMs(l.run.pid), renders: readRenders(l.stats) }));
    const t0 = Date.now();
    await sleep(DURATION);
    const wall = Date.now() - t0;
    const results = lives.map((l, i) => ({
      label,
      build: l.build.name,
      idleCpu: ((cpuMs(l.run.pid) - before[i].cpu) / wall) * 100,
      renders: (readRenders(l.stats) - before[i].renders) / (wall / 1000),
      keyP50: null,
      keyP95: null,
      rssMb: 0,
    }));
    if (keys) {
      log(`${label}: ${PRESSES} key presses per build, taking turns`);
      const latencies = lives.map(() => []);
      for (let i = 0; i < PRESSES; i += 10) {
        for (const [j, l] of lives.entries()) {
          latencies[j].push(...(await keyLatencies(l.run.host, l.run.paneId, Math.min(10, PRESSES - i))));
        }
      }
      for (const [j, r] of results.entries()) {
        if (latencies[j].length === 0) continue;
        r.keyP50 = percentile(latencies[j], 50);
        r.keyP95 = percentile(latencies[j], 95);
      }
    }
    for (const [i, l] of lives.entries()) {
      results[i].rssMb =
        Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${l.run.pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
    }
    return results;
  } finally {
    for (const l of lives) await quitDashboard(l.run);
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Pane i of every host: every tenth waits at a prompt (a static screen), the others sleep. */
const fleetProgram = (i) => (i % 10 === 2 ? `printf 'Deploy build ${i}? [y/N] '; read -r _; exec sleep 1000000` : 'exec sleep 1000000');

async function startFleet(hosts, panes) {
  const fleet = await startFleetHosts(hosts, panes, fleetProgram);
  return { args: fleet.dashboardArgs(), env: fleet.dashboardEnv(), kill: () => fleet.dispose() };
}

const ms = (v) => (v === null ? '-' : `${Math.round(v)} ms`);

export async function run(log) {
  const builds = [...(BASELINE ? [{ name: 'baseline', main: BASELINE }] : []), { name: 'this build', main: MAIN }];
  const wanted = (process.env.BENCH_DASHBOARD_CASES ?? '50,200,printing,fleet').split(',');
  const cases = [
    { id: '50', label: '50 idle panes', panes: 50, command: 'sleep 100000', keys: true, quiet: true },
    { id: '200', label: '200 idle panes', panes: 200, command: 'sleep 100000', keys: true, quiet: true },
    { id: 'printing', label: '50 panes printing every 1-4 s', panes: 50, command: undefined, keys: false, quiet: false },
    { id: 'fleet', label: '500 idle panes on 10 hosts (9 over ssh), 50 waiting', panes: 500, fleet: 10, keys: true, quiet: true },
  ].filter((c) => wanted.includes(c.id));
  const loads = [];
  const rows = [];
  for (const c of cases) {
    const watched = c.fleet ? await startFleet(c.fleet, c.panes / c.fleet) : startServer(c.panes, c.command);
    const quietFrom = c.quiet ? Date.now() + 65_000 : 0;
    try {
      loads.push(readFileSync('/proc/loadavg', 'utf8').split(' ')[0]);
      // Starts alternate between the builds, so that both see the same load.
      log(`${c.label}: ${STARTS} starts of each build, alternating`);
      const starts = new Map(builds.map((b) => [b.name, []]));
      const dir = mkdtempSync(join(tmpdir(), 'corral-bench-'));
      try {
        for (let i = 0; i < STARTS; i++) {
          for (const build of builds) {
            const run = await startDashboard(build, watched, c.panes, join(dir, 'renders.json'));
            starts.get(build.name).push(run);
            await quitDashboard(run);
          }
        }
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
      for (const row of await measureTogether({ ...c, watched, quietFrom }, builds, log)) {
        const own = starts.get(row.build);
        rows.push({
          ...row,
          firstFrame: median(own.map((r) => r.firstFrame)),
          listed: median(own.map((r) => r.listed)),
          listedAll: own.map((r) => r.listed),
        });
      }
    } finally {
      await watched.kill();
    }
  }
  loads.push(readFileSync('/proc/loadavg', 'utf8').split(' ')[0]);
  return [
    `First frame and full list: medians of ${STARTS} starts per build, the builds taking turns (each start's full list in the last column). The dashboard runs in a 120x40 tmux pane with the default 2 s poll, watching panes on another private tmux server. The builds then run side by side (each dashboard in its own tmux server, both watching the same panes): CPU is % of one core over the same ${DURATION / 1000} s of each corral process alone (utime+stime from /proc); for idle panes, measured once every pane has been quiet for over a minute (timers show minutes, as on a dashboard left open), else from 3 s after the list is up. Key press to frame: ${PRESSES} presses of j/k per build (ten at a time, the builds taking turns) sent by a tmux control client, up to the first output of the dashboard's pane. One-minute load average at the start of each case: ${loads.join(', ')}.`,
    '',
    '| case | build | first frame | full list | idle CPU | renders/s | key to frame p50 / p95 | max RSS | full list, each start |',
    '|---|---|---:|---:|---:|---:|---:|---:|---|',
    ...rows.map(
      (r) =>
        `| ${r.label} | ${r.build} | ${ms(r.firstFrame)} | ${ms(r.listed)} | ${r.idleCpu.toFixed(2)} % | ${r.renders.toFixed(2)} | ${r.keyP50 === null ? '-' : `${ms(r.keyP50)} / ${ms(r.keyP95)}`} | ${r.rssMb.toFixed(0)} MB | ${r.listedAll.map((v) => (v === null ? '-' : v)).join(', ')} |`,
    ),
  ].join('\n');
}
