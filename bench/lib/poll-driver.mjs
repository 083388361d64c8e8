// Runs one poller for a fixed time and prints JSON figures. Run as its own process so that its
// CPU (and its waited-for tmux children's) can be read from /proc.
//   node poll-driver.mjs corral|control|naive SOCKET_NAME INTERVAL_MS DURATION_MS
// corral: one tmux process per cycle; control: one control-mode connection; naive: the seed's loop.

import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { createEngine } from '../../dist/engine/engine.js';
import { resolveSettings } from '../../dist/engine/settings/config.js';
import { TmuxClient } from '../../dist/engine/tmux/client.js';
import { LISTED_RECORDS, TMUX_FORMATS } from '../../dist/engine/records/tmux-formats.js';
import { createExecRunner, tmuxSpawnCount } from '../../dist/engine/tmux/runner.js';
import { localTransport } from '../../dist/engine/tmux/transport.js';
import { createControlRunner } from '../../dist/engine/tmux/control-runner.js';
import { cpuMs } from './tmux-fixture.mjs';
import { clock, controlTimers, pollTimers } from '../../dist/cli/time.js';

const [mode, socketName, intervalText, durationText] = process.argv.slice(2);
const interval = Number(intervalText);
const duration = Number(durationText);
const run = promisify(execFile);

let cycles = 0;
let spawns = 0;
let maxRss = 0;
const sampleRss = () => (maxRss = Math.max(maxRss, process.memoryUsage().rss));

const started = Date.now();
const cpuBefore = cpuMs(process.pid, true);

if (mode === 'corral' || mode === 'control') {
  const settings = resolveSettings({ flags: { pollIntervalMs: String(interval) }, env: {}, file: null });
  const socket = { kind: 'name', name: socketName };
  const exec = createExecRunner(localTransport(socket));
  const pollRunner = mode === 'control' ? createControlRunner({ socket, exec, recordsStamp: TMUX_FORMATS.recordsStamp, clock, timers: controlTimers }) : undefined;
  const engine = createEngine({ settings, clock, wallClock: clock, timers: pollTimers, tmux: new TmuxClient({ records: LISTED_RECORDS, socket, runner: exec, clock, ...(pollRunner ? { pollRunner } : {}) }) });
  engine.subscribe(() => {});
  const before = tmuxSpawnCount();
  while (Date.now() - started < duration) {
    const t0 = Date.now();
    await engine.pollNow();
    cycles += 1;
    sampleRss();
    await new Promise((r) => setTimeout(r, Math.max(0, interval - (Date.now() - t0))));
  }
  spawns = tmuxSpawnCount() - before;
  if (engine.getSnapshot().panes.length === 0) throw new Error('corral saw no panes');
  await engine.stop();
} else {
  // The seed's algorithm: list, then per pane an existence check and a capture, one process each.
  const tmux = async (...args) => {
    spawns += 1;
    return (await run('tmux', ['-L', socketName, ...args])).stdout;
  };
  const hashes = new Map();
  while (Date.now() - started < duration) {
    const t0 = Date.now();
    const ids = (await tmux('list-panes', '-a', '-F', '#{pane_id} #{pane_title}')).trim().split('\n').map((l) => l.split(' ')[0]);
    for (const id of ids) {
      try {
        await tmux('display-message', '-p', '-t', id, '#{pane_id}');
        const out = (await tmux('capture-pane', '-p', '-t', id)).trim();
        const lines = out.split('\n');
        hashes.set(id, `${lines[0]?.length}-${lines.at(-1)?.length}-${lines.length}`);
      } catch {
        hashes.delete(id);
      }
    }
    cycles += 1;
    sampleRss();
    await new Promise((r) => setTimeout(r, Math.max(0, interval - (Date.now() - t0))));
  }
}

const elapsed = Date.now() - started;
console.log(JSON.stringify({ mode, cycles, spawns, elapsedMs: elapsed, cpuMs: cpuMs(process.pid, true) - cpuBefore, maxRssMb: maxRss / 1048576 }));
