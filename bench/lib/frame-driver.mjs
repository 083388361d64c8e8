// Renders the dashboard (src/ui/App) with Ink into an in-memory 120x40 terminal, frame after frame.
// `timers` (the default): a clock that moves one minute per reading, so that every frame changes
// every timer (the timers show minutes past their first minute), the most a frame can change
// without a new snapshot. `keys`: the clock stands still and j / k move the selection, so each
// frame redraws two rows and the preview, as after a key press. Prints one JSON line: CPU per frame and heap growth. bench/frames.mjs
// bundles this file twice (Ink as published, and with the bounded caches) and runs both.
// A third argument `fleet` watches 500 panes on ten hosts (every tenth waiting) instead of 50.

import { Readable, Writable } from 'node:stream';
import { createElement } from 'react';
import { render } from 'ink';
import { App } from '../../src/ui/App.tsx';
import { fakeActions, fakeEngine, localHealth, menuVerdict, paneView, remoteHealth } from '../../test/helpers/fake-engine.ts';

const FRAMES = Number(process.argv[2] ?? 600);
const MODE = process.argv[3] ?? 'timers';
const FLEET = process.argv[4] === 'fleet';
const WARMUP = 60;

let tick = 0;
const clock = { now: () => (MODE === 'keys' ? 4_600_000 : 1_000_000 + tick++ * 60_000) };
// The fake engine and actions of the component tests; 50 panes with different quiet times (or 50
// on each of ten hosts, every tenth waiting at a prompt).
const HOSTS = FLEET ? ['local', ...Array.from({ length: 9 }, (_, k) => `box-${k + 1}`)] : ['local'];
const panes = HOSTS.flatMap((host) =>
  Array.from({ length: 50 }, (_, i) =>
    paneView({
      host,
      quietSince: i * 7_000,
      ...(FLEET && i % 10 === 2 ? { state: 'stuck', reason: 'permission', stuckSince: i * 7_000, verdict: menuVerdict } : {}),
      pane: { title: `agent ${i}`, cwd: `/home/me/src/project-${i}`, command: 'node' },
      lines: Array.from({ length: 30 }, (_, j) => `pane ${i}, line ${j}: some output of the program`),
    }),
  ),
);
const hosts = HOSTS.map((name) => (name === 'local' ? localHealth('default server', { paneCount: 50 }) : remoteHealth(name, { paneCount: 50 })));
const engine = fakeEngine(panes, 'default server', hosts);
const { actions } = fakeActions();

const stdout = Object.assign(new Writable({ write: (_chunk, _encoding, done) => done() }), {
  isTTY: true,
  columns: 120,
  rows: 40,
});
const stdin = Object.assign(new Readable({ read() {} }), { isTTY: true, setRawMode() {}, ref() {}, unref() {} });

let frames = 0;
let onFrame = () => {};
const instance = render(createElement(App, { engine, actions, clock, tickMs: 5, home: '/home/me' }), {
  stdout,
  stdin,
  exitOnCtrlC: false,
  patchConsole: false,
  onRender: () => {
    frames += 1;
    onFrame();
  },
});
const framesDone = (n) =>
  new Promise((resolve) => {
    onFrame = () => frames >= n && resolve();
  });

if (MODE === 'keys') setInterval(() => stdin.push(tick++ % 2 === 0 ? 'j' : 'k'), 2);
await framesDone(WARMUP);
globalThis.gc();
const heapBefore = process.memoryUsage().heapUsed;
const cpuBefore = process.cpuUsage();
await framesDone(WARMUP + FRAMES);
const cpu = process.cpuUsage(cpuBefore);
globalThis.gc();
const heapAfter = process.memoryUsage().heapUsed;
instance.unmount();
console.log(
  JSON.stringify({
    frames: FRAMES,
    cpuMsPerFrame: (cpu.user + cpu.system) / 1000 / FRAMES,
    heapGrowthMb: (heapAfter - heapBefore) / 1048576,
  }),
);
process.exit(0);
