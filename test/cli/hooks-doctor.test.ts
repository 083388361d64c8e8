// `corral hooks doctor` as a real process: what it says of missing, installed and moved hooks, and
// of a corral that receives hooks (a real HTTP server with the hook receiver) or of none.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { launcherScript } from '../../src/cli/hook-launcher.js';
import { CorralServer } from '../../src/server/http-server.js';
import { createHookFeature } from '../../src/server/hooks/hook-feature.js';
import { cliEnv, runCli } from '../helpers/cli.js';
import { fakeEngine } from '../helpers/fake-engine.js';

const TOKEN = 'doctor-token-0123456789abcdef';
const dirs: string[] = [];
let server: CorralServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A private home for every agent and for corral, and a port nothing listens on (yet). */
function home(port: number) {
  const dir = mkdtempSync(join(tmpdir(), 'corral-doctor-'));
  dirs.push(dir);
  const env = cliEnv({
    CLAUDE_CONFIG_DIR: join(dir, 'claude'),
    CODEX_HOME: join(dir, 'codex'),
    HOME: dir,
    XDG_CONFIG_HOME: join(dir, 'config'),
    XDG_DATA_HOME: join(dir, 'share'),
    CORRAL_TOKEN: TOKEN,
    CORRAL_PORT: String(port),
    CORRAL_HOOK_URL: '',
  });
  return { dir, env };
}

async function hookServer(): Promise<number> {
  const engine = Object.assign(fakeEngine(), { observeHook: () => true });
  server = new CorralServer({ host: '127.0.0.1', port: 0 });
  await server.listen();
  server.enable(createHookFeature({ engine, token: TOKEN, serverSocket: async () => null }));
  return server.port;
}

describe('corral hooks doctor', () => {
  it('names what is missing for each agent, and exits 1', async () => {
    const { env } = home(1);
    const run = await runCli(['hooks', 'doctor'], { env });
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/✗ Claude Code: no settings file at .*claude\/settings\.json: corral hooks install --agent claude-code/);
    expect(run.stdout).toMatch(/✗ Codex: no settings file at .*codex\/hooks\.json/);
    expect(run.stdout).toMatch(/✗ no corral listens at http:\/\/127\.0\.0\.1:1\/hooks/);
  });

  it('says all is well for installed hooks and a corral that receives them, and exits 0', async () => {
    const port = await hookServer();
    const { env } = home(port);
    expect((await runCli(['hooks', 'install', '--agent', 'claude-code'], { env })).code).toBe(0);
    const run = await runCli(['hooks', 'doctor', '--agent', 'claude-code'], { env });
    expect(run.stdout).toContain('✓ Claude Code: 6 corral hook entries in');
    expect(run.stdout).toMatch(/✓ the launcher runs .*dist\/bin\/corral\.js/);
    expect(run.stdout).toContain(`✓ a corral receives hooks at http://127.0.0.1:${port}/hooks`);
    expect(run.code).toBe(0);
  });

  it('tells a launcher whose corral moved away, and a token the server refuses', async () => {
    const port = await hookServer();
    const { dir, env } = home(port);
    expect((await runCli(['hooks', 'install', '--agent', 'codex'], { env })).code).toBe(0);
    writeFileSync(join(dir, 'share', 'corral', 'bin', 'corral'), launcherScript(process.execPath, join(dir, 'gone', 'corral.js')));
    const run = await runCli(['hooks', 'doctor', '--agent', 'codex'], { env: { ...env, CORRAL_TOKEN: 'another-token-0123456789abcdef' } });
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/✗ the launcher names .*gone\/corral\.js, which is gone/);
    expect(run.stdout).toContain(`✗ the corral at http://127.0.0.1:${port}/hooks refuses the token`);
  });
});
