// --daemon-url on every command that watches: the dashboard, serve and watch each POST their events
// (registered, stuck ...) to a real HTTP listener, as JSON, with the same fields watch prints.

import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliEnv, startCli } from '../helpers/cli.js';
import { MAIN_JS, shellQuote } from '../helpers/corral-shim.js';
import { startTestTmux, type TestTmux } from '../helpers/tmux-server.js';

let daemon: Server;
let daemonUrl = '';
const received: Array<{ path: string; contentType: string; body: Record<string, unknown> }> = [];

beforeAll(async () => {
  daemon = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      received.push({ path: req.url ?? '', contentType: req.headers['content-type'] ?? '', body: JSON.parse(body) as Record<string, unknown> });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => daemon.listen(0, '127.0.0.1', resolve));
  daemonUrl = `http://127.0.0.1:${(daemon.address() as { port: number }).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => daemon.close(resolve));
});

/** The events one command posted (told apart by the path it was given). */
async function stuckPosted(path: string, paneId: string): Promise<Record<string, unknown>> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const found = received.find((r) => r.path === path && r.body.type === 'stuck' && r.body.paneId === paneId);
    if (found) {
      expect(found.contentType).toMatch(/^application\/json/);
      expect(received.some((r) => r.path === path && r.body.type === 'registered' && r.body.paneId === paneId)).toBe(true);
      return found.body;
    }
    if (Date.now() > deadline) throw new Error(`no stuck event for ${paneId} at ${path}; got ${JSON.stringify(received)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('--daemon-url on every command that watches', () => {
  let tmux: TestTmux;
  let pane = '';
  beforeAll(async () => {
    tmux = await startTestTmux();
    pane = await tmux.spawn(`read -p 'Deploy to production? [y/N] ' a`);
  });
  afterAll(async () => {
    await tmux?.kill();
  });
  const common = (path: string) => ['-L', tmux.socketName, '--quiet-threshold', '500', '--poll-interval', '200', '--daemon-url', `${daemonUrl}${path}`];

  it('watch posts every event it prints', async () => {
    const watch = startCli(['watch', ...common('/watch')]);
    try {
      const stuck = await stuckPosted('/watch', pane);
      expect(stuck).toMatchObject({ reason: 'permission', message: 'Deploy to production? [y/N]', source: 'screen', host: 'local', key: pane });
      const printed = await watch.waitForLine((line) => line.includes('"type":"stuck"'));
      expect(JSON.parse(printed)).toEqual(stuck);
    } finally {
      await watch.stop();
    }
  });

  it('serve posts them too', async () => {
    const serve = startCli(['serve', ...common('/serve'), '--port', '0', '--no-hooks'], cliEnv({ CORRAL_TOKEN: 'daemon-url-token-0123456789' }));
    try {
      expect(await stuckPosted('/serve', pane)).toMatchObject({ reason: 'permission', key: pane });
    } finally {
      await serve.stop();
    }
  });

  it('and so does the dashboard', async () => {
    const dash = await tmux.spawn(`${shellQuote(process.execPath)} ${shellQuote(MAIN_JS)} dashboard ${common('/dashboard').map(shellQuote).join(' ')} --no-hooks; sleep 600`, { session: 'dash' });
    await tmux.waitForScreen(dash, (s) => s.includes('corral ·'), 10_000);
    expect(await stuckPosted('/dashboard', pane)).toMatchObject({ reason: 'permission', key: pane });
    await tmux.tmux('send-keys', '-t', dash, 'q');
  });
});
