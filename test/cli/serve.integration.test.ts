// `corral serve` as a real process: prints where it listens and where the token is, serves the
// bridge or the attach server, stops cleanly on SIGTERM; a busy port fails with a sentence.

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:net';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
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
      // The new token is named by its file, never printed.
      expect(tokenLine).toBe(`corral: new API token saved in ${join(home, 'corral', 'token')} (print it with --show-token)`);
      const token = readFileSync(join(home, 'corral', 'token'), 'utf8').trim();
      expect(statSync(join(home, 'corral', 'token')).mode & 0o777).toBe(0o600);
      const res = await fetch(`${url}/v1/models`, { headers: { authorization: `Bearer ${token}` } });
      expect(res.status).toBe(200);
      expect(((await res.json()) as { object: string }).object).toBe('list');
    } finally {
      expect(await cli.stop('SIGTERM')).toBe(0);
    }
  });

  it('corral link says so when no server listens', async () => {
    const blocker: Server = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    await new Promise<void>((resolve) => blocker.close(() => resolve()));
    const result = await runCli(['link', '--port', String(port)], { env: cliEnv({ CORRAL_TOKEN: 'a-token-for-the-link-test' }) });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(`corral: no corral server at http://127.0.0.1:${port}: start it with corral serve --attach\n`);
  });

  it('corral link says what goes with what', async () => {
    const env = { env: cliEnv({ CORRAL_TOKEN: 'a-token-for-the-link-test' }) };
    for (const [args, message] of [
      [['--all'], '--all goes with --revoke: corral link --revoke --all'],
      [['--revoke'], '--revoke needs session ids (corral link --list shows them) or --all'],
      [['--revoke', 'abcdefgh', '--all'], '--revoke takes session ids or --all, not both'],
      [['--json'], '--json goes with --list'],
      [['--list', '--revoke', '--all'], '--list takes no session ids and no --revoke'],
      [['abcdefgh'], 'usage: corral link [--read-only] [--url URL] (session ids go with --revoke)'],
    ] as const) {
      expect(await runCli(['link', ...args], env)).toEqual({ code: 2, stdout: '', stderr: `corral: ${message}\n` });
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

  // Every start prints a fresh, working browser link; both stop signals tell viewers "corral is
  // stopping" (1001), never "the pane exited" (4000), and leave no tmux control client behind.
  it.each(['SIGTERM', 'SIGINT'] as const)(
    'serves the attach server with --attach, prints a working login link, and on %s closes viewers with 1001 and no client left',
    async (signal) => {
      const token = 'a-token-for-the-attach-test';
      const pane = (await tmux.tmux('list-panes', '-a', '-F', '#{pane_id}')).trim().split('\n')[0]!;
      const cli = startCli(['serve', '--attach', '-L', tmux.socketName, '--port', '0'], cliEnv({ XDG_CONFIG_HOME: home, CORRAL_TOKEN: token }));
      let stopped = false;
      try {
        const line = await cli.waitForLine((l) => l.includes('attach server on'));
        expect(cli.stdoutLines.some((l) => l.includes('chat bridge on'))).toBe(false);
        const url = /(http:\/\/127\.0\.0\.1:\d+)\//.exec(line)![1]!;
        const linkLine = await cli.waitForLine((l) => l.includes('open in a browser'));
        const link = /(http:\S+\?code=[\w-]+)/.exec(linkLine)![1]!;
        expect(link.startsWith(`${url}/?code=`)).toBe(true);
        expect(cli.stdoutLines.join('\n')).not.toContain(token);
        const trade = (loginUrl: string) =>
          fetch(`${url}/api/sessions`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ code: new URL(loginUrl).searchParams.get('code') }),
          });
        const signIn = await trade(link);
        expect(signIn.status).toBe(201);
        const auth = { authorization: `Bearer ${((await signIn.json()) as { session: string }).session}` };
        // corral link asks the running server for another link; it works too, once.
        const made = await runCli(['link', '--url', url], { env: cliEnv({ XDG_CONFIG_HOME: home, CORRAL_TOKEN: token }) });
        expect(made.code).toBe(0);
        expect(made.stderr).toMatch(/a writing link; it works once, until/);
        const another = made.stdout.trim();
        expect(another).toMatch(new RegExp(`^${url}/\\?code=[\\w-]+$`));
        expect(another).not.toBe(link);
        expect((await trade(another)).status).toBe(201);
        expect((await trade(another)).status).toBe(401);

        // The engine's first poll may still be under way: wait until the pane is listed.
        let listed = '';
        for (let i = 0; i < 100 && !listed.includes(`"${pane}"`); i++) {
          const panes = await fetch(`${url}/api/panes`, { headers: auth });
          expect(panes.status).toBe(200);
          listed = JSON.stringify(await panes.json());
          if (!listed.includes(`"${pane}"`)) await new Promise((r) => setTimeout(r, 100));
        }
        expect(listed).toContain(`"${pane}"`);
        expect((await fetch(`${url}/api/panes`)).status).toBe(401);

        const ws = new WebSocket(`${url.replace('http', 'ws')}/attach/${pane.slice(1)}?token=${token}`);
        const types: string[] = [];
        const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)));
        const replay = new Promise<Record<string, unknown>>((resolve, reject) => {
          ws.on('message', (data) => {
            const msg = JSON.parse(String(data)) as Record<string, unknown>;
            types.push(msg.type as string);
            if (msg.type === 'replay') resolve(msg);
          });
          ws.on('error', reject);
        });
        ws.on('open', () => ws.send(JSON.stringify({ type: 'subscribe' })));
        expect((await replay).replay_mode).toBe('recovery');
        // Control clients: the engine's poll connection and the attach server's session stream.
        expect((await tmux.tmux('list-clients', '-F', '#{client_control_mode}')).trim().split('\n')).toEqual(['1', '1']);

        expect(await cli.stop(signal)).toBe(0);
        stopped = true;
        expect(await closed).toBe(1001);
        expect(types).not.toContain('status');
        expect((await tmux.tmux('list-clients', '-F', '#{client_name}')).trim()).toBe('');
        // The pane itself is untouched.
        expect((await tmux.tmux('list-panes', '-a', '-F', '#{pane_id}')).trim().split('\n')[0]).toBe(pane);
      } finally {
        if (!stopped) await cli.stop('SIGKILL');
      }
    },
  );
});
