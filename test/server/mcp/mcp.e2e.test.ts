// corral's MCP server with the official MCP SDK's client, over stdio (`corral mcp`) and over HTTP
// (`corral serve --mcp`), on real panes of a private tmux server: list, read, wait, answer (only an
// offered answer, only on the screen it was chosen on, only where typing is allowed), type a line
// (only at a prompt), and every call logged with the client that made it.

import { spawn } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, cliEnv, startCli, type LiveCli } from '../../helpers/cli.js';
import { startTestTmux, type TestTmux } from '../../helpers/tmux-server.js';
import { SeededRandom, testSeeds } from '../../helpers/seeded-random.js';

interface PaneInfo {
  pane: string;
  target: string;
  state: string;
  answers: string[];
  screen: string;
  command: string;
}

let tmux: TestTmux;
let deploy = '';
let shell = '';
let busy = '';
const common = () => ['-L', tmux.socketName, '--quiet-threshold', '400', '--poll-interval', '150'];

beforeAll(async () => {
  tmux = await startTestTmux();
  deploy = await tmux.spawn(`echo 'cd $HOME && make #{all}'; read -p 'Deploy to production? [y/N] ' a; echo "answered:$a"; exec sleep 600`);
  shell = await tmux.spawn();
  busy = await tmux.spawn('exec sleep 600');
});
afterAll(async () => {
  await tmux?.kill();
});

async function stdioClient(extra: string[]): Promise<{ client: Client; stderr: () => string }> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp', ...common(), ...extra], env: cliEnv() as Record<string, string>, stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const client = new Client({ name: 'corral-test-client', version: '1.0.0' });
  await client.connect(transport);
  return { client, stderr: () => stderr };
}

const call = async (client: Client, name: string, args: Record<string, unknown>) => {
  const result = (await client.callTool({ name, arguments: args })) as { isError?: boolean; content: Array<{ type: string; text: string }> };
  const text = result.content[0]?.text ?? '';
  return { error: result.isError === true, text, json: () => JSON.parse(text) as Record<string, unknown> };
};

const panesOf = async (client: Client, args: Record<string, unknown> = {}) => (await call(client, 'list_panes', args)).json().panes as PaneInfo[];

describe('corral mcp (stdio, the official SDK client)', () => {
  let reader: Awaited<ReturnType<typeof stdioClient>>;
  let writer: Awaited<ReturnType<typeof stdioClient>>;
  beforeAll(async () => {
    reader = await stdioClient([]);
    writer = await stdioClient(['--allow-typing', 'main:*']);
  });
  afterAll(async () => {
    await reader?.client.close();
    await writer?.client.close();
  });

  it('offers the five tools, with their schemas', async () => {
    const { tools } = await reader.client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['answer', 'list_panes', 'read_pane', 'type_line', 'wait_for']);
    // An answer names the screen it is for: a question that changed in between is never answered.
    expect(tools.find((t) => t.name === 'answer')!.inputSchema.required).toEqual(['pane', 'option', 'screen']);
  });

  it('lists panes most urgent first, with the answers a prompt offers; waits and reads', async () => {
    const found = (await call(reader.client, 'wait_for', { state: 'permission', timeout_s: 15 })).json();
    expect(found).toMatchObject({ pane: deploy, state: 'permission', answers: ['y', 'n', 'Enter'] });
    const panes = await panesOf(reader.client);
    expect(panes[0]).toMatchObject({ pane: deploy, target: 'main:0.0', state: 'permission' });
    expect(panes.find((p) => p.pane === busy)).toMatchObject({ state: expect.stringMatching(/^(quiet|active)$/), answers: [] });
    expect((await panesOf(reader.client, { waiting_only: true })).map((p) => p.pane)).not.toContain(busy);
    const read = (await call(reader.client, 'read_pane', { pane: deploy, history: 50 })).json();
    expect(read.text).toContain('cd $HOME && make #{all}');
    expect(read.text).toContain('Deploy to production? [y/N]');
    expect((await call(reader.client, 'wait_for', { state: 'permission', pane: busy, timeout_s: 0.3 })).json()).toEqual({ timed_out: true });
    expect(await call(reader.client, 'read_pane', { pane: '%999' })).toMatchObject({ error: true, text: expect.stringMatching(/does not exist/) });
  });

  it('answers only where typing is allowed, only an offered answer, only on the screen it saw', async () => {
    const target = (await panesOf(writer.client)).find((p) => p.pane === deploy)!;
    expect(await call(reader.client, 'answer', { pane: deploy, option: 'y', screen: target.screen })).toMatchObject({ error: true, text: expect.stringMatching(/^typing is not allowed: start corral with --allow-typing/) });
    expect(await call(writer.client, 'answer', { pane: deploy, option: 'maybe', screen: target.screen })).toMatchObject({ error: true, text: '"maybe" is not an answer main:0.0 offers; offered: y, n, Enter' });
    expect(await call(writer.client, 'answer', { pane: deploy, option: 'y', screen: 'not-the-screen' })).toMatchObject({ error: true, text: expect.stringMatching(/changed since it was drawn; nothing was sent/) });
    expect(await call(writer.client, 'answer', { pane: deploy, option: 'y' })).toMatchObject({ error: true });
    expect(await tmux.capture(deploy)).not.toMatch(/\[y\/N\] y/);
    expect((await call(writer.client, 'answer', { pane: deploy, option: 'y', screen: target.screen })).json()).toEqual({ sent: 'y, then Enter', pane: deploy, target: 'main:0.0' });
    await tmux.waitForScreen(deploy, (s) => s.includes('answered:y'));
  });

  it('types a line into a pane at its prompt, never into a program that is not at one', async () => {
    expect(await call(writer.client, 'type_line', { pane: busy, text: 'echo typed' })).toMatchObject({ error: true, text: expect.stringMatching(/runs sleep, which is not at a prompt corral recognises/) });
    // At its prompt since before corral looked: idle, not waiting for anyone, and at a prompt.
    await expect.poll(async () => (await panesOf(writer.client)).find((p) => p.pane === shell)?.state, { timeout: 10_000 }).toBe('idle');
    expect((await call(writer.client, 'type_line', { pane: shell, text: 'echo mcp-$((6*7))' })).json()).toMatchObject({ pane: shell });
    await tmux.waitForScreen(shell, (s) => s.includes('mcp-42'));
  });

  it('logs every call with the client that made it', () => {
    expect(writer.stderr()).toMatch(/corral: mcp: corral-test-client 1\.0\.0 \(stdio\) answer \{"pane":"%\d+","option":"y","screen":"[0-9a-f]+"\}: sent y, then Enter/);
    expect(reader.stderr()).toMatch(/corral: mcp: corral-test-client 1\.0\.0 \(stdio\) answer .*: refused: typing is not allowed/);
  });
});

describe('corral mcp logs and limits', () => {
  // Client names a client chooses freely: line breaks, escapes, tabs and separators in them.
  const PIECES = ['evil', '\r\n', '\n', '\r', 'fake: mcp: typing allowed', '\u001b[2J', '\u001b]0;x\u0007', '\t', '\u2028', '\u0085', '\u0000', 'é'];
  for (const seed of testSeeds(41_004)) {
    it(`writes one line per call, whatever the client's name (seed ${seed}, 3 generated names)`, async () => {
      const rng = new SeededRandom(seed);
      for (let n = 0; n < 3; n++) {
        const name = `${Array.from({ length: rng.int(2, 6) }, () => rng.pick(PIECES)).join('')}\r\nfake: mcp: forged`;
        const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp', ...common()], env: cliEnv() as Record<string, string>, stderr: 'pipe' });
        let stderr = '';
        transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
        const client = new Client({ name, version: '1\n2' });
        await client.connect(transport);
        const calls = rng.int(1, 3);
        for (let i = 0; i < calls; i++) await call(client, 'list_panes', {});
        await client.close();
        const lines = stderr.split('\n').filter((line) => line !== '');
        expect(lines.filter((line) => line.startsWith('corral: mcp: ')), `${JSON.stringify(name)}: ${stderr}`).toHaveLength(calls);
        expect(lines.every((line) => line.startsWith('corral: ')), `${JSON.stringify(name)}: ${stderr}`).toBe(true);
        // eslint-disable-next-line no-control-regex
        expect(stderr.replace(/\n/g, ''), JSON.stringify(name)).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u2028]/);
      }
    });
  }

  it('ends with a clear error and a failing exit code on a message past its limit', async () => {
    const child = spawn(process.execPath, [CLI, 'mcp', ...common()], { env: cliEnv(), stdio: ['pipe', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.stdout.resume();
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    child.stdin.on('error', () => {});
    // 40 MB of one line, never ended: no MCP message is that long.
    const block = Buffer.alloc(1024 * 1024, 'x');
    for (let i = 0; i < 40 && child.exitCode === null; i++) {
      if (!child.stdin.write(block)) await Promise.race([new Promise((resolve) => child.stdin.once('drain', resolve)), exited]);
    }
    expect(await exited).toBe(1);
    expect(stderr).toMatch(/corral: a message on stdin is longer than 16 MB \(an MCP message is one JSON line\); stopping/);
    expect(stderr).not.toMatch(/\n\s+at /);
  });
});

describe('corral serve --mcp (Streamable HTTP, the official SDK client)', () => {
  const token = 'mcp-http-token-0123456789';
  let serve: LiveCli;
  let base = '';
  beforeAll(async () => {
    serve = startCli(['serve', '--mcp', ...common(), '--port', '0', '--no-hooks', '--allow-typing', `${shell}`], cliEnv({ CORRAL_TOKEN: token }));
    const line = await serve.waitForLine((l) => l.includes('MCP server on'), 20_000);
    base = /(http:\/\/127\.0\.0\.1:\d+)\/mcp/.exec(line)![1]!;
  });
  afterAll(async () => {
    await serve?.stop();
  });

  it('answers an MCP client that has the token, and refuses one without it or from a browser page', async () => {
    const client = new Client({ name: 'http-client', version: '2.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
    const panes = await panesOf(client);
    expect(panes.map((p) => p.pane).sort()).toEqual([deploy, shell, busy].sort());
    const screen = panes.find((p) => p.pane === deploy)!.screen;
    expect(await call(client, 'answer', { pane: deploy, option: 'Enter', screen })).toMatchObject({ error: true, text: expect.stringMatching(/is not allowed: --allow-typing/) });
    await client.close();
    const init = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } } };
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const noToken = await fetch(`${base}/mcp`, { method: 'POST', headers, body: JSON.stringify(init) });
    expect(noToken.status).toBe(401);
    expect(((await noToken.json()) as { error: { code: string } }).error.code).toBe('invalid_api_key');
    const fromPage = await fetch(`${base}/mcp`, { method: 'POST', headers: { ...headers, authorization: `Bearer ${token}`, origin: 'http://127.0.0.1:9999' }, body: JSON.stringify(init) });
    expect(fromPage.status).toBe(403);
    const unknown = await fetch(`${base}/mcp`, { method: 'POST', headers: { ...headers, authorization: `Bearer ${token}`, 'mcp-session-id': 'nope' }, body: '{}' });
    expect(unknown.status).toBe(404);
    expect(serve.stderr()).toMatch(/corral: mcp: http-client 2\.0\.0 \(http from 127\.0\.0\.1\) list_panes \{\}: 3 panes/);
  });
});
