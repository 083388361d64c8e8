// Runs the engines of several hosts at once for a fixed time, each host on its own timer as in
// corral, and prints JSON figures. Run as its own process so that its CPU can be read from /proc.
//   node hosts-driver.mjs '<json: {hosts:[{name,ssh,socketName,sshOptions?,controlDir?}], sshOptions, controlDir, intervalMs, warmupMs, durationMs}>'
// A host's own sshOptions and controlDir (its own sshd) win over the run's.

import { readdirSync, readFileSync } from 'node:fs';
import { createEngine } from '../../dist/engine/engine.js';
import { combineEngines } from '../../dist/engine/hosts/hosts-engine.js';
import { resolveSettings } from '../../dist/engine/settings/config.js';
import { openTmux } from '../../dist/engine/tmux/open.js';
import { TMUX_FORMATS } from '../../dist/engine/records/tmux-formats.js';
import { tmuxSpawnCountByHost } from '../../dist/engine/tmux/runner.js';
import { cpuMs } from './tmux-fixture.mjs';
import { clock, controlTimers, pollTimers } from '../../dist/cli/time.js';

const config = JSON.parse(process.argv[2]);
const controlDirs = [...new Set([config.controlDir, ...config.hosts.map((h) => h.controlDir)].filter(Boolean))];
const settings = resolveSettings({ flags: { pollIntervalMs: String(config.intervalMs) }, env: {}, file: null });

/** ssh masters of this run: daemonized ssh processes serving a socket in our control folder. */
function masters() {
  const found = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const cmdline = readFileSync(`/proc/${name}/cmdline`, 'utf8').replaceAll('\0', ' ');
      if (cmdline.includes('[mux]') && controlDirs.some((dir) => cmdline.includes(dir))) found.push({ pid: Number(name), cmdline });
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

const opened = new Map();
const engines = new Map();
for (const host of config.hosts) {
  const spec = { name: host.name, ssh: host.ssh ?? null, socket: { kind: 'name', name: host.socketName } };
  const tmux = openTmux(spec, { formats: TMUX_FORMATS, persistent: true, clock, timers: controlTimers, controlDir: host.controlDir ?? config.controlDir, sshOptions: host.sshOptions ?? config.sshOptions ?? [] });
  opened.set(host.name, tmux);
  engines.set(host.name, createEngine({ settings, tmux: tmux.client, host: spec, clock, wallClock: clock, timers: pollTimers }));
}
const combined = combineEngines(engines);
combined.subscribe(() => {});

// Warm up (connections, first captures, V8 compiling the hot code), then measure.
combined.start();
await new Promise((r) => setTimeout(r, config.warmupMs ?? 3_000));
const spawnsBefore = tmuxSpawnCountByHost();
const cyclesBefore = new Map([...engines].map(([name, e]) => [name, e.getSnapshot().cycle]));
const tripsBefore = new Map([...opened].map(([name, t]) => [name, t.client.pollRoundTrips]));
const cpuBefore = cpuMs(process.pid, true);
const mastersBefore = masters();
const masterCpuBefore = mastersBefore.reduce((sum, m) => sum + cpuMs(m.pid), 0);
const started = Date.now();
await new Promise((r) => setTimeout(r, config.durationMs));
const elapsedMs = Date.now() - started;
const cpuDuring = cpuMs(process.pid, true) - cpuBefore;
const mastersAfter = masters();
const masterCpuMs = mastersAfter.reduce((sum, m) => sum + cpuMs(m.pid), 0) - masterCpuBefore;

const hosts = {};
for (const [name, engine] of engines) {
  const snapshot = engine.getSnapshot();
  hosts[name] = {
    state: snapshot.hosts[0].state,
    panes: snapshot.panes.length,
    cycles: snapshot.cycle - cyclesBefore.get(name),
    roundTrips: opened.get(name).client.pollRoundTrips - tripsBefore.get(name),
    spawns: (tmuxSpawnCountByHost().get(name) ?? 0) - (spawnsBefore.get(name) ?? 0),
    masters: mastersAfter.filter((m) => {
      const host = config.hosts.find((h) => h.name === name);
      return host?.ssh && m.cmdline.includes(host.controlDir ?? config.controlDir);
    }).length,
  };
}
const rssMb = process.memoryUsage().rss / 1048576;
await combined.stop();
for (const tmux of opened.values()) await tmux.close();
console.log(JSON.stringify({ elapsedMs, cpuMs: cpuDuring, masterCpuMs, masters: mastersAfter.length, rssMb, hosts }));
