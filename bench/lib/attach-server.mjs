// A corral HTTP server with only the attach feature, on a given tmux socket, as its own process
// (so the benchmark can measure its CPU and memory apart from the clients). Prints one JSON line.

import { CorralServer } from '../../dist/server/http-server.js';
import { createAttachFeature } from '../../dist/server/attach/attach-feature.js';
import { TmuxClient } from '../../dist/engine/tmux/client.js';

const [socketName, token] = process.argv.slice(2);
const socket = { kind: 'name', name: socketName };
const engine = {
  getSnapshot: () => ({ server: socketName, status: 'ok', statusMessage: null, panes: [], updatedAt: 0, cycle: 0 }),
  subscribe: () => () => {},
  acknowledge() {},
  pollNow: async () => {},
  onEvent: () => () => {},
};
const server = new CorralServer({ host: '127.0.0.1', port: 0 });
await server.listen();
server.enable(
  createAttachFeature({
    engine,
    tmux: new TmuxClient({ socket }),
    socket,
    token,
    settings: {
      attachRingBytes: 1 << 20,
      attachSlowClientBytes: 16 << 20,
      attachAllowedOrigins: [],
      attachAllowResize: false,
      attachPauseAfter: 10,
    },
  }),
);
process.stdout.write(`${JSON.stringify({ port: server.port, pid: process.pid })}\n`);
process.on('SIGTERM', () => {
  void server.close().then(() => process.exit(0));
});
