// `corral serve` as a real process: prints where it listens and where the token is, serves the
// bridge, stops cleanly on SIGTERM; a busy port and --attach fail with a sentence.

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:net';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cliEnv, runCli, startCli } from '../helpers/cli.js';
import { startTestTmux, type TestTmux } from '../helpers/tmux-server.js';

let tmux: TestTmux;
let home: string;
beforeEach(async () => {
  tmux = await startTestTmux();
  await tmux.spawn();
  home = mkdtempSync(join(tmpdir(), 'corral-serve-'));
});
afterEach(async () => {
  await tmux.kill();
  rmSync(home, { recursive: true, force: true });
});

describe('corral serve', () => {
  it('generates a token on first use, serves the bridge, and exits 0 on SIGTERM', async () => {
    const cli = startCli(['serve', '-L', tmux.socketName, '--port', '0'], cliEnv({ XDG_CONFIG_HOME: home, CORRAL_TOKEN: '' }));
    try {
      const address = await cli.waitForLine((line) => line.includes('chat bridge on'));
      const url = /(http:\/\/127\.0\.0\.1:\d+)\/v1/.exec(address)![1]!;
      const tokenLine = await cli.waitForLine((line) => line.includes('new API token'));
      const token = tokenLine.split(': ').at(-1)!;
      expect(statSync(join(home, 'corral', 'token')).mode & 0o777).toBe(0o600);
      const res = await fetch(`${url}/v1/models`, { headers: { authorization: `Bearer ${token}` } });
      expect(res.status).toBe(200);
      expect(((await res.json()) as { object: string }).object).toBe('list');
    } finally {
      expect(await cli.stop('SIGTERM')).toBe(0);
    }
  });

  it('fails with a clear sentence when the port is taken', async () => {
    const blocker: Server = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      const result = await runCli(['serve', '-L', tmux.socketName, '--port', String(port)], { env: cliEnv({ CORRAL_TOKEN: 'a-token-for-the-port-test' }) });
      expect(result.code).toBe(1);
      expect(result.stderr).toBe(`corral: port ${port} on 127.0.0.1 is already in use (another corral serve?); choose another with --port\n`);
    } finally {
      blocker.close();
    }
  });

  it('says the attach server is not in this build', async () => {
    const result = await runCli(['serve', '--attach', '-L', tmux.socketName], { env: cliEnv({ CORRAL_TOKEN: 'a-token-for-the-attach-test' }) });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/attach server is not available in this build/);
  });
});
