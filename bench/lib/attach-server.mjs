// A corral HTTP server with only the attach feature, on a given tmux socket, as its own process
// (so the benchmark can measure its CPU and memory apart from the clients). Panes are found in a
// running engine's store, which polls over a persistent control-mode connection, as under
// `corral serve`. Prints one JSON line.
// argv: socketName token [settings as JSON]

import { CorralServer } from '../../dist/server/http-server.js';
import { createAttachFeature } from '../../dist/server/attach/attach-feature.js';
import { resolveSettings } from '../../dist/engine/settings/config.js';
import { createEngine } from '../../dist/engine/engine.js';
import { createPanePort } from '../../dist/engine/port/pane-port.js';
import { TmuxClient } from '../../dist/engine/tmux/client.js';
import { LISTED_RECORDS, TMUX_FORMATS } from '../../dist/engine/records/tmux-formats.js';
import { createControlRunner } from '../../dist/engine/tmux/control-runner.js';
import { createExecRunner } from '../../dist/engine/tmux/runner.js';
import { localTransport } from '../../dist/engine/tmux/transport.js';
import { backgroundTimers, clock, controlTimers, pollTimers, typingTimers } from '../../dist/cli/time.js';

const [socketName, token, extra] = process.argv.slice(2);
const socket = { kind: 'name', name: socketName };
const settings = {
  attachRingBytes: 1 << 20,
  attachSlowClientBytes: 16 << 20,
  attachAllowedOrigins: [],
  attachAllowResize: false,
  attachPauseAfter: 10,
  attachGraceMs: 300_000,
  attachSessionIdleMs: 43_200_000,
  attachSessionMaxMs: 604_800_000,
  ...(extra ? JSON.parse(extra) : {}),
};
const exec = createExecRunner(localTransport(socket));
const tmux = new TmuxClient({ records: LISTED_RECORDS, socket, runner: exec, clock, pollRunner: createControlRunner({ socket, exec, recordsStamp: TMUX_FORMATS.recordsStamp, clock, timers: controlTimers }) });
const base = resolveSettings({ flags: { socketName }, env: {}, file: null });
const engine = createEngine({ settings: base, tmux, clock, wallClock: clock, timers: pollTimers });
engine.start();
await engine.pollNow();
const port = createPanePort({
  engine,
  tmux,
  host: 'local',
  settings: { ...base, ...settings },
  clock,
  typingTimers,
  timers: backgroundTimers,
  controlTimers,
});
const server = new CorralServer({ host: '127.0.0.1', port: 0 });
await server.listen();
server.enable(
  createAttachFeature({
    port,
    token,
    clock,
    settings,
  }),
);
process.stdout.write(`${JSON.stringify({ port: server.port, pid: process.pid })}\n`);
process.on('SIGTERM', () => {
  void server
    .close()
    .then(() => port.close())
    .then(() => engine.stop())
    .then(() => process.exit(0));
});
