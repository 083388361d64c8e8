// The built `corral` binary against a real private tmux server.

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cliEnv, runCli, startCli, type LiveCli } from '../helpers/cli.js';
import { cellWidth } from '../../src/engine/text/cells.js';
import { startTestTmux, type TestTmux } from '../helpers/tmux-server.js';

let server: TestTmux;
let live: LiveCli | null = null;
let daemon: Server | null = null;

beforeEach(async () => {
  server = await startTestTmux();
});

afterEach(async () => {
  await live?.stop('SIGKILL');
  live = null;
  await new Promise<void>((r) => (daemon ? daemon.close(() => r()) : r()));
  daemon = null;
  await server.kill();
});

const fast = ['--quiet-threshold', '1500', '--poll-interval', '200'];

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

describe('corral watch', () => {
  it('prints only JSON Lines events, reports stuck with the prompt line, and exits 0 on SIGTERM', async () => {
    const pane = await server.spawn(`read -p "Deploy to production? [y/N] " a; sleep 60`);
    live = startCli(['watch', '-L', server.socketName, ...fast]);
    await live.waitForLine((l) => l.includes('"stuck"'));
    const code = await live.stop('SIGTERM');
    expect(code).toBe(0);
    const events = live.stdoutLines.filter((l) => l !== '').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(events[0]).toMatchObject({ type: 'registered', paneId: pane, transcriptPath: '' });
    expect(events[0]?.sessionId).toMatch(new RegExp(`^tmux-${pane}-\\d{13}$`));
    expect(events.find((e) => e.type === 'stuck')).toMatchObject({ reason: 'permission', message: 'Deploy to production? [y/N]', paneId: pane });
    for (const e of events) expect(typeof e.timestamp).toBe('number');
  });

  it('waits for a server that is not there yet, then picks its panes up', async () => {
    live = startCli(['watch', '-L', server.socketName, ...fast]);
    await live.waitForStderr(/no tmux server is running on -L corral-test-\w+; waiting for one to start/);
    const pane = await server.spawn('sleep 60');
    await live.waitForLine((l) => l.includes('"registered"') && l.includes(`"${pane}"`));
  });

  it('queues events while the daemon is down and delivers them in order once it is up', async () => {
    const port = await freePort();
    await server.spawn(`read -p "Continue? [y/N] " a; sleep 60`);
    live = startCli(['watch', '-L', server.socketName, ...fast, '--daemon-url', `http://127.0.0.1:${port}/event/normalized`]);
    await live.waitForLine((l) => l.includes('"stuck"'));
    await live.waitForStderr(/daemon at http:\/\/127\.0\.0\.1:\d+\/event\/normalized is unreachable \(ECONNREFUSED\)/);
    const received: Array<{ path: string; body: Record<string, unknown> }> = [];
    daemon = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        received.push({ path: req.url ?? '', body: JSON.parse(body) as Record<string, unknown> });
        res.writeHead(200).end('{}');
      });
    });
    await new Promise<void>((r) => daemon!.listen(port, '127.0.0.1', () => r()));
    await live.waitForStderr(/is back; delivered \d+ queued events/, 15_000);
    expect(received.map((r) => r.body.type)).toEqual(['registered', 'stuck']);
    expect(received[0]?.path).toBe('/event/normalized');
    expect(live.stderr().match(/unreachable/g)).toHaveLength(1);
  });
});

describe('corral ls, send and errors', () => {
  it('lists panes as a table and as JSON', async () => {
    const pane = await server.spawn(`printf 'hello from the pane\\n'; sleep 60`, { title: 'worker' });
    await server.waitForScreen(pane, (s) => s.includes('hello from the pane'));
    const table = await runCli(['ls', '-L', server.socketName]);
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/STATE\s+PANE\s+TARGET\s+QUIET\s+NAME\s+COMMAND\s+LAST LINE/);
    expect(table.stdout).toContain('hello from the pane');
    // The dashboard's words for states, not the engine's internal ones.
    expect(table.stdout).toMatch(/^(active|quiet) +%\d+ +main:0\.0 /m);
    expect(table.stdout).not.toContain('monitoring');
    const json = await runCli(['ls', '--json', '-L', server.socketName]);
    const rows = JSON.parse(json.stdout) as Array<Record<string, unknown>>;
    expect(rows[0]).toMatchObject({ paneId: pane, title: 'worker', state: 'monitoring', lastLine: 'hello from the pane', target: 'main:0.0' });
    expect(['active', 'quiet']).toContain(rows[0]?.status);
  });

  it('lines the table up in cells when names hold wide glyphs and emoji', async () => {
    for (const name of ['全角テキスト', 'plain', '👩‍💻 ⚠️ build']) {
      const pane = await server.spawn(`printf 'ready\\n'; exec sleep 60`);
      await server.tmux('rename-window', '-t', pane, name);
      await server.waitForScreen(pane, (s) => s.includes('ready'));
    }
    const table = await runCli(['ls', '-L', server.socketName]);
    expect(table.code).toBe(0);
    const lines = table.stdout.trimEnd().split('\n');
    // Where the COMMAND column starts, in cells, is the same on every line.
    const commandAt = (line: string, word: string) => cellWidth(line.slice(0, line.indexOf(word)));
    const header = commandAt(lines[0]!, 'COMMAND');
    expect(lines.slice(1)).toHaveLength(3);
    for (const line of lines.slice(1)) expect(commandAt(line, ' sleep') + 1, line).toBe(header);
    expect(table.stdout).toContain('全角テキスト');
    expect(table.stdout).toContain('👩💻 ⚠ build');
  });

  it('says there is no server (exit 1)', async () => {
    const r = await runCli(['ls', '-L', `${server.socketName}-none`]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/no tmux server is running on -L/);
  });

  it('types text and keys, and refuses an unknown key before typing anything', async () => {
    const pane = await server.spawn();
    await server.waitForScreen(pane, (s) => s.includes('$'));
    const bad = await runCli(['send', '-L', server.socketName, pane, 'echo never', 'C-Enter']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/unknown key name "C-Enter"/);
    const ok = await runCli(['send', '-L', server.socketName, pane, 'echo sent-by;', 'Enter']);
    expect(ok.code).toBe(0);
    const screen = await server.waitForScreen(pane, (s) => /^sent-by$/m.test(s));
    expect(screen).not.toContain('never');
  });

  it('exits 127 with an install hint when tmux is missing', async () => {
    const r = await runCli(['ls'], { env: cliEnv({ PATH: '/nonexistent' }) });
    expect(r.code).toBe(127);
    expect(r.stderr).toMatch(/tmux is not installed.*apt install tmux/);
  });

  it('exits 2 on bad settings, naming the problem', async () => {
    const r = await runCli(['ls', '--poll-interval', 'soon']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--poll-interval: expected a whole number/);
    const v = await runCli(['--version']);
    expect(v.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
  });
});
