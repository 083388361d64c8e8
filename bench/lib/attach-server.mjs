// A corral HTTP server with only the attach feature, on a given tmux socket, as its own process
// (so the benchmark can measure its CPU and memory apart from the clients). Pane lookups go over a
// persistent control-mode connection, as under `corral serve`. Prints one JSON line.
// argv: socketName token [settings as JSON]

import { CorralServer } from '../../dist/server/http-server.js';
import { createAttachFeature } from '../../dist/server/attach/attach-feature.js';
import { createPaneAccess } from '../../dist/engine/pane-access.js';
import { TmuxClient } from '../../dist/engine/tmux/client.js';
import { createControlRunner } from '../../dist/engine/tmux/control-runner.js';
import { createExecRunner } from '../../dist/engine/tmux/runner.js';
import { localTransport } from '../../dist/engine/tmux/transport.js';

const [socketName, token, extra] = process.argv.slice(2);
const socket = { kind: 'name', name: socketName };
const settings = {
  attachRingBytes: 1 << 20,
  attachSlowClientBytes: 16 << 20,
  attachAllowedOrigins: [],
  attachAllowResize: false,
  attachPauseAfter: 10,
  attachGraceMs: 300_000,
  ...(extra ? JSON.parse(extra) : {}),
};
const engine = {
  getSnapshot: () => ({ server: socketName, status: 'ok', statusMessage: null, panes: [], updatedAt: 0, cycle: 0 }),
  subscribe: () => () => {},
  acknowledge() {},
  pollNow: async () => {},
  onEvent: () => () => {},
};
const exec = createExecRunner(localTransport(socket));
const tmux = new TmuxClient({ socket, runner: exec, pollRunner: createControlRunner({ socket, exec }) });
const server = new CorralServer({ host: '127.0.0.1', port: 0 });
await server.listen();
server.enable(
  createAttachFeature({
    engine,
    panes: await createPaneAccess(tmux, {
      ringBytes: settings.attachRingBytes,
      pauseAfterSeconds: settings.attachPauseAfter,
      keepMs: settings.attachGraceMs,
    }),
    token,
    settings,
  }),
);
process.stdout.write(`${JSON.stringify({ port: server.port, pid: process.pid })}\n`);
process.on('SIGTERM', () => {
  void server
    .close()
    .then(() => tmux.close())
    .then(() => process.exit(0));
});
