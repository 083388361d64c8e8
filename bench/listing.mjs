// What one poll's listing costs the tmux server: every pane (`list-panes -a`, as a cycle asks when
// it cannot tell what changed) against only the windows that printed (`list-panes -t`, one each, as
// a cycle asks when tmux told of some windows; see src/engine/tmux/window-listing.ts), with the
// engine's own commands and format, over one control-mode connection, on servers of 50, 200 and
// 500 idle panes. The server's CPU (utime+stime from /proc) over BENCH_LISTING_REPS listings of each
// kind, the kinds taking turns twice. BENCH_LISTING_PANES and BENCH_LISTING_WINDOWS change the run.

import { spawn } from 'node:child_process';
import { makeFraming } from '../dist/engine/tmux/command-line.js';
import { listPanesCommand } from '../dist/engine/tmux/pane-list.js';
import { LISTED_RECORDS } from '../dist/engine/records/tmux-formats.js';
import { formatControlLine } from '../dist/engine/tmux/control-protocol.js';
import { windowListCommands } from '../dist/engine/tmux/window-listing.js';
import { cpuMs, startServer } from './lib/tmux-fixture.mjs';

export const title = 'Listing cost: every pane against the windows that printed';

const PANE_COUNTS = (process.env.BENCH_LISTING_PANES ?? '50,200,500').split(',').map(Number);
const WINDOWS = Number(process.env.BENCH_LISTING_WINDOWS ?? 20);
const REPS = Number(process.env.BENCH_LISTING_REPS ?? 200);

/** A control-mode client that sends one command line and waits for all of its replies. */
function controlClient(name) {
  const child = spawn('tmux', ['-L', name, '-C', 'attach-session', '-f', 'no-output'], { stdio: ['pipe', 'pipe', 'ignore'] });
  let tail = '';
  let waiting = null;
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (data) => {
    const text = tail + data;
    tail = text.slice(text.lastIndexOf('\n') + 1);
    if (!waiting) return;
    waiting.left -= (text.slice(0, text.length - tail.length).match(/^%(end|error) /gm) ?? []).length;
    if (waiting.left <= 0) {
      const { resolve } = waiting;
      waiting = null;
      resolve();
    }
  });
  return {
    send: (commands) =>
      new Promise((resolve) => {
        waiting = { left: commands.length, resolve };
        child.stdin.write(`${formatControlLine(commands)}\n`);
      }),
    close: () => child.stdin.end(),
  };
}

export async function run(log) {
  const framing = makeFraming('bench0listing');
  const rows = [];
  for (const panes of PANE_COUNTS) {
    log(`${panes} panes: ${REPS} listings of each kind, twice`);
    const server = startServer(panes, () => 'exec sleep 1000000');
    const client = controlClient(server.name);
    try {
      await client.send([['display-message', '-p', 'ready']]);
      const windows = new Set(server.tmux('list-windows', '-a', '-F', '#{window_id}').trim().split('\n').slice(0, WINDOWS));
      const kinds = [
        { label: 'every pane', commands: [listPanesCommand(framing, LISTED_RECORDS)], ms: 0 },
        { label: `${windows.size} windows`, commands: windowListCommands(framing, LISTED_RECORDS, windows), ms: 0 },
      ];
      for (let pass = 0; pass < 2; pass++) {
        for (const kind of kinds) {
          const before = cpuMs(server.pid);
          for (let i = 0; i < REPS; i++) await client.send(kind.commands);
          kind.ms += cpuMs(server.pid) - before;
        }
      }
      const [every, some] = kinds.map((kind) => kind.ms / (2 * REPS));
      rows.push({ panes, every, some, label: kinds[1].label });
    } finally {
      client.close();
      server.kill();
    }
  }
  const table = rows.map((r) => `| ${r.panes} | ${r.every.toFixed(2)} ms | ${r.some.toFixed(2)} ms (${r.label}) | ${(r.every / r.some).toFixed(1)}x |`);
  return [
    `tmux server CPU for one poll's listing, with corral's listing format, over a control-mode connection; ${REPS} listings of each kind, twice, taking turns. At the default 2 s poll a listing a cycle costs half this figure in ms/s.`,
    '',
    '| panes on the server | every pane (`list-panes -a`) | only the windows that printed (`list-panes -t`, one each) | ratio |',
    '|---:|---:|---:|---:|',
    ...table,
  ].join('\n');
}
