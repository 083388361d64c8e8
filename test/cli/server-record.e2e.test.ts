// Commands find the running corral: `serve` records where it listens (and names its token file,
// never the token) in the config folder; link, attach and hooks doctor go there without being told
// the port, with the global options before or after the command; the record goes when serve stops.
// The first serve makes a token and names its file; the token itself is printed only when asked.

import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliEnv, runCli, startCli, type LiveCli } from '../helpers/cli.js';
import { startTestTmux, type TestTmux } from '../helpers/tmux-server.js';

describe('commands find the running corral', () => {
  let tmux: TestTmux;
  let home = '';
  let env: NodeJS.ProcessEnv = {};
  let serve: LiveCli;
  let url = '';
  let pane = '';

  beforeAll(async () => {
    tmux = await startTestTmux();
    pane = await tmux.spawn('sleep 600');
    home = mkdtempSync(join(tmpdir(), 'corral-record-'));
    env = cliEnv({ XDG_CONFIG_HOME: home, XDG_DATA_HOME: join(home, 'data'), HOME: home });
    delete env.CORRAL_TOKEN;
    serve = startCli(['serve', '--attach', '--port', '0', '-L', tmux.socketName], env);
    const line = await serve.waitForLine((l) => l.includes('attach server on'), 20_000);
    url = /(http:\/\/127\.0\.0\.1:\d+)\//.exec(line)?.[1] ?? '';
    await serve.waitForLine((l) => l.includes('API token'));
  }, 40_000);

  afterAll(async () => {
    await serve?.stop();
    await tmux?.kill();
    if (home !== '') rmSync(home, { recursive: true, force: true });
  });

  const recordDir = () => join(home, 'corral', 'servers');

  it('records where it listens and its token file, and prints no token', () => {
    const token = readFileSync(join(home, 'corral', 'token'), 'utf8').trim();
    const files = readdirSync(recordDir());
    expect(files).toEqual([`${serve.child.pid}.json`]);
    const text = readFileSync(join(recordDir(), files[0] as string), 'utf8');
    expect(JSON.parse(text)).toMatchObject({ url, pid: serve.child.pid, tokenPath: join(home, 'corral', 'token') });
    expect(text).not.toContain(token);
    expect(serve.stdoutLines.join('\n')).not.toContain(token);
    expect(serve.stderr()).not.toContain(token);
    expect(serve.stdoutLines).toContain(
      `corral: new API token saved in ${join(home, 'corral', 'token')} (print it with --show-token)`,
    );
  });

  it('link, attach and hooks doctor reach it without a port, global options before or after the command', async () => {
    for (const args of [
      ['link'],
      ['-L', tmux.socketName, 'link'],
      ['link', '-L', tmux.socketName],
      ['link', '--list'],
    ]) {
      const result = await runCli(args, { env });
      expect(result.code, `${args.join(' ')}: ${result.stderr}`).toBe(0);
    }
    expect((await runCli(['link'], { env })).stdout).toContain(url);
    for (const args of [
      ['hooks', 'doctor'],
      ['-L', tmux.socketName, 'hooks', 'doctor'],
      ['hooks', 'doctor', '--port', url.split(':').at(-1) as string],
    ]) {
      const result = await runCli(args, { env });
      expect(result.stdout, args.join(' ')).toContain(`✓ a corral receives hooks at ${url}/hooks`);
    }
    // attach reaches the server (it answers about the pane), not the default port.
    const attach = await runCli(['-L', tmux.socketName, 'attach', '%99999'], { env, timeoutMs: 10_000 });
    expect(attach.stderr).not.toContain('no corral server');
    expect(attach.stderr).not.toContain(':7878');
    void pane;
  });

  it('a command naming another tmux server does not take this one', async () => {
    const result = await runCli(['-L', `${tmux.socketName}-other`, 'link'], { env });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('no corral server at http://127.0.0.1:7878');
  });

  it('prints the token with --show-token, and removes the record when it stops', async () => {
    const token = readFileSync(join(home, 'corral', 'token'), 'utf8').trim();
    const second = startCli(['serve', '--port', '0', '-L', tmux.socketName, '--show-token'], env);
    try {
      expect(await second.waitForLine((l) => l.includes('API token'))).toBe(`corral: API token: ${token}`);
      expect(readdirSync(recordDir()).sort()).toEqual([`${second.child.pid}.json`, `${serve.child.pid}.json`].sort());
    } finally {
      expect(await second.stop('SIGTERM')).toBe(0);
    }
    expect(readdirSync(recordDir())).toEqual([`${serve.child.pid}.json`]);
  });
});
