// Runs corral's engine (from a given build) against a private tmux server for a fixed time and
// prints JSON figures: the engine's own CPU (process.cpuUsage, after a warm-up), the CPU of the
// control-mode tmux client it started, and the tmux server's CPU over the same window.
//   node engine-driver.mjs DIST_DIR|none SOCKET_NAME SERVER_PID INTERVAL_MS WARMUP_MS DURATION_MS
// With `none` nothing polls: the server's CPU is then what the panes alone cost it.

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { cpuMs } from './tmux-fixture.mjs';

const [dist, socketName, serverPidText, intervalText, warmupText, durationText] = process.argv.slice(2);
const serverPid = Number(serverPidText);
const warmup = Number(warmupText);
const duration = Number(durationText);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * The tmux processes this process started (the control client), by /proc: descendants, since the
 * client runs under a small shell that ends it when corral goes.
 */
function tmuxChildren() {
  const parents = new Map();
  const names = new Map();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      names.set(Number(name), stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')));
      parents.set(Number(name), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // gone
    }
  }
  const descends = (pid) => {
    for (let at = parents.get(pid); at !== undefined && at > 1; at = parents.get(at)) if (at === process.pid) return true;
    return false;
  };
  return [...names].filter(([pid, comm]) => comm.startsWith('tmux') && descends(pid)).map(([pid]) => pid);
}
const childrenCpu = (pids) => pids.reduce((sum, pid) => {
  try {
    return sum + cpuMs(pid);
  } catch {
    return sum;
  }
}, 0);

async function startProfile() {
  const { Session } = await import('node:inspector/promises');
  const { writeFileSync } = await import('node:fs');
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  return {
    async stop(file) {
      const { profile } = await session.post('Profiler.stop');
      writeFileSync(file, JSON.stringify(profile));
      session.disconnect();
    },
  };
}

let engine = null;
let cycles = 0;
let publications = 0;
if (dist !== 'none') {
  const load = (path) => import(pathToFileURL(join(dist, path)).href);
  const { createEngine } = await load('engine/engine.js');
  const { resolveSettings } = await load('engine/settings/config.js');
  // The dashboard's transport: one control-mode connection; every other setting at its default.
  const settings = resolveSettings({ flags: { pollIntervalMs: intervalText }, env: {}, file: null });
  const socket = { kind: 'name', name: socketName };
  // The clock and timers the CLI gives the parts; a build from before cli/time.js chose its own.
  const time = await load('cli/time.js').catch(() => null);
  const tmuxTime = time ? { clock: time.clock, timers: time.controlTimers } : {};
  let tmux;
  if (existsSync(join(dist, 'engine/tmux/open.js'))) {
    // Builds with host transports open a host's tmux in one call.
    const { openTmux, localHost } = await load('engine/tmux/open.js');
    // Builds that pass the records' formats down to the tmux layer name them in engine/records/tmux-formats.js.
    const formats = existsSync(join(dist, 'engine/records/tmux-formats.js')) ? { formats: (await load('engine/records/tmux-formats.js')).TMUX_FORMATS } : {};
    tmux = openTmux(localHost(socket), { persistent: true, ...formats, ...tmuxTime }).client;
  } else {
    const { TmuxClient } = await load('engine/tmux/client.js');
    const { createExecRunner } = await load('engine/tmux/runner.js');
    const { createControlRunner } = await load('engine/tmux/control-runner.js');
    const exec = createExecRunner(socket);
    const pollRunner = createControlRunner({ socket, exec, ...tmuxTime });
    tmux = new TmuxClient({ socket, runner: exec, pollRunner, ...(time ? { clock: time.clock } : {}) });
  }
  // Builds with a client cut by concern poll through `tmux.panes`.
  const polling = tmux.panes ?? tmux;
  const pollCycle = polling.pollCycle.bind(polling);
  polling.pollCycle = (...args) => {
    cycles += 1;
    return pollCycle(...args);
  };
  engine = createEngine({ settings, tmux, ...(time ? { clock: time.clock, wallClock: time.clock, timers: time.pollTimers } : {}) });
  engine.subscribe(() => (publications += 1));
  engine.start();
}
// The warm-up's own cost: V8 compiles the hot code in the first minute or so (at a 500 ms poll a
// function that runs once a cycle becomes hot slowly), which a long-running dashboard pays once.
const warmupCpuBefore = process.cpuUsage();
const warmupStarted = performance.now();
await sleep(warmup);
const warmupCpu = process.cpuUsage(warmupCpuBefore);
const warmupElapsedMs = performance.now() - warmupStarted;

// BENCH_PROFILE=FILE: a CPU profile of the measured window only (open it in Chrome's DevTools).
const profile = process.env.BENCH_PROFILE ? await startProfile() : null;
const children = tmuxChildren();
const cyclesBefore = cycles;
const publicationsBefore = publications;
const cpuBefore = process.cpuUsage();
const childBefore = childrenCpu(children);
const serverBefore = cpuMs(serverPid);
const started = performance.now();
await sleep(duration);
const elapsedMs = performance.now() - started;
const serverMs = cpuMs(serverPid) - serverBefore;
const childMs = childrenCpu(children) - childBefore;
const cpu = process.cpuUsage(cpuBefore);
if (profile) await profile.stop(process.env.BENCH_PROFILE);
const snapshot = engine?.getSnapshot();
const result = {
  elapsedMs,
  engineMs: dist === 'none' ? 0 : (cpu.user + cpu.system) / 1000,
  clientMs: childMs,
  serverMs,
  warmupEngineMs: dist === 'none' ? 0 : (warmupCpu.user + warmupCpu.system) / 1000,
  warmupElapsedMs,
  cycles: cycles - cyclesBefore,
  publications: publications - publicationsBefore,
  panes: snapshot?.panes.length ?? 0,
  tmuxClients: children.length,
};
if (engine) {
  if (result.panes === 0) throw new Error('the engine saw no panes');
  await engine.stop();
}
console.log(JSON.stringify(result));
