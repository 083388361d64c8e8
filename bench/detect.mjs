// Detection delay on a quiet server: how long after a prompt is typed into one of many idle panes
// the engine's snapshot shows it, for this build and a baseline build side by side. Two identical
// tmux servers; both engines run in this process over a control-mode connection at the same poll
// interval, and each trial types the same prompt into the same pane of both servers at the same
// moment, at seeded random times, so neither build gets a kinder phase of its poll.
//   BENCH_BASE_DIST (default /tmp/corral-base/dist), BENCH_DETECT_PANES (50),
//   BENCH_DETECT_TRIALS (12), BENCH_DETECT_INTERVAL_MS (2000), BENCH_SEED.

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { startServer } from './lib/tmux-fixture.mjs';

export const title = 'Detection delay on a quiet server (prompt typed → snapshot shows it)';

const here = process.env.BENCH_DIST ?? fileURLToPath(new URL('../dist', import.meta.url));
const baseDist = process.env.BENCH_BASE_DIST ?? '/tmp/corral-base/dist';
const PANES = Number(process.env.BENCH_DETECT_PANES ?? 50);
const TRIALS = Number(process.env.BENCH_DETECT_TRIALS ?? 12);
const INTERVAL = Number(process.env.BENCH_DETECT_INTERVAL_MS ?? 2000);
const SEED = Number(process.env.BENCH_SEED ?? 31);

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const quantile = (xs, q) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))];

/** A small seeded generator (mulberry32): the same trial times for the same seed. */
function seeded(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

async function startEngine(dist, server) {
  const load = (path) => import(pathToFileURL(join(dist, path)).href);
  const { createEngine } = await load('engine/engine.js');
  const { resolveSettings } = await load('engine/settings/config.js');
  const { openTmux, localHost } = await load('engine/tmux/open.js');
  // The clock and timers the CLI gives the parts; a build from before cli/time.js chose its own.
  const time = await load('cli/time.js').catch(() => null);
  const settings = resolveSettings({ flags: { pollIntervalMs: INTERVAL }, env: {}, file: null });
  // Builds that pass the records' formats down to the tmux layer name them in engine/records/tmux-formats.js.
  const formats = existsSync(join(dist, 'engine/records/tmux-formats.js')) ? { formats: (await load('engine/records/tmux-formats.js')).TMUX_FORMATS } : {};
  const tmux = openTmux(localHost({ kind: 'name', name: server.name }), { persistent: true, ...formats, ...(time ? { clock: time.clock, timers: time.controlTimers } : {}) }).client;
  const engine = createEngine({ settings, tmux, ...(time ? { clock: time.clock, wallClock: time.clock, timers: time.pollTimers } : {}) });
  engine.start();
  return engine;
}

/** Resolves with the ms since `started` when the engine's snapshot shows `marker` in the pane's preview. */
function seen(engine, paneId, marker, started) {
  return new Promise((resolve) => {
    const look = () => {
      const view = engine.getSnapshot().panes.find((p) => p.pane.paneId === paneId);
      if (!view?.lines.some((line) => line.includes(marker))) return false;
      stop();
      resolve(performance.now() - started);
      return true;
    };
    const stop = engine.subscribe(look);
    look();
  });
}

export async function run(log) {
  if (!existsSync(`${baseDist}/engine/engine.js`)) throw new Error(`no baseline build at ${baseDist} (see bench/printing.mjs) or set BENCH_BASE_DIST`);
  const random = seeded(SEED);
  // `cat` echoes what is typed (the terminal does): a pane that prints only when a trial types.
  const servers = [0, 1].map(() => startServer(PANES, 'exec cat'));
  const builds = [
    { name: 'baseline', dist: baseDist, delays: [] },
    { name: 'this build', dist: here, delays: [] },
  ];
  try {
    for (const [k, build] of builds.entries()) build.engine = await startEngine(build.dist, servers[k]);
    await sleep(3 * INTERVAL);
    const paneIds = servers.map((s) => s.tmux('list-panes', '-a', '-F', '#{pane_id}').trim().split('\n'));
    for (let trial = 0; trial < TRIALS; trial++) {
      await sleep(1_500 + random() * 3_000);
      const pane = Math.floor(random() * PANES);
      const marker = `Deploy build ${trial}? [y/N]`;
      const started = performance.now();
      const waits = builds.map((build, k) => seen(build.engine, paneIds[k][pane], marker, started));
      for (const [k, server] of servers.entries()) server.tmux('send-keys', '-t', paneIds[k][pane], '-l', `${marker} `);
      const delays = await Promise.all(waits);
      delays.forEach((ms, k) => builds[k].delays.push(ms));
      log(`trial ${trial + 1}: pane ${pane}, ${delays.map((ms) => ms.toFixed(0)).join(' / ')} ms`);
    }
  } finally {
    for (const build of builds) await build.engine?.stop();
    for (const server of servers) server.kill();
  }
  const row = (b) => `| ${b.name} | ${quantile(b.delays, 0.5).toFixed(0)} | ${quantile(b.delays, 0.95).toFixed(0)} | ${Math.max(...b.delays).toFixed(0)} |`;
  return [
    `${PANES} idle panes on each of two identical tmux servers, a ${INTERVAL} ms poll over a control-mode connection; ${TRIALS} trials (seed ${SEED}), each typing a prompt into the same pane of both servers at once. Baseline: ${baseDist}.`,
    '',
    '| build | p50 ms | p95 ms | max ms |',
    '|---|---:|---:|---:|',
    ...builds.map(row),
  ].join('\n');
}
