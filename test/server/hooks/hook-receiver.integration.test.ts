// The hook receiver over real HTTP, fed by the real `corral hook` running inside real tmux panes.

import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { raw } from '../../helpers/bridge-server.js';
import { CLI } from '../../helpers/cli.js';
import { HOOK_TOKEN, claudePayload, startHookHarness, type HookHarness } from '../../helpers/hook-harness.js';
import { HOOK_OPTION, decodeHookRecord } from '../../../src/engine/hooks/hook-record.js';

let h: HookHarness;
beforeAll(async () => {
  h = await startHookHarness();
});
afterAll(async () => {
  await h?.close();
  if (h) rmSync(h.dir, { recursive: true, force: true });
});

const post = (body: unknown, headers: Record<string, string> = {}) =>
  raw(h.port, {
    method: 'POST',
    path: '/hooks',
    headers: { host: `127.0.0.1:${h.port}`, authorization: `Bearer ${HOOK_TOKEN}`, 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

const report = (over: Record<string, unknown> = {}) => ({
  agent: 'claude-code',
  event: 'PermissionRequest',
  sessionId: 's-1',
  transcriptPath: '/t/s-1.jsonl',
  cwd: '/nowhere',
  notificationType: null,
  message: null,
  toolName: 'Bash',
  toolSummary: 'ls',
  pane: null,
  socket: null,
  tty: true,
  daemon: false,
  ...over,
});

describe('hook receiver', () => {
  it('a permission request from corral hook in a pane makes that pane stuck at once; the next prompt clears it', async () => {
    const pane = await h.shell();
    const before = h.events.length;
    await h.hookInPane(pane, 'claude-code', claudePayload('PermissionRequest', h.dir, { tool_name: 'Bash', tool_input: { command: 'touch /tmp/x', description: 'Create a marker' }, permission_suggestions: [] }));
    const stuck = await h.waitForEvent((e) => e.type === 'stuck' && e.paneId === pane);
    expect(stuck).toMatchObject({
      reason: 'permission',
      message: 'Bash: touch /tmp/x',
      transcriptPath: '/home/me/.claude/projects/-work/af26b287-8854-4329-91b7-9f34a10d73eb.jsonl',
    });
    expect(h.events.slice(before).filter((e) => e.paneId === pane).map((e) => e.type)).toEqual(['stuck']);

    const state = await raw(h.port, { path: '/hooks/state', headers: { host: `127.0.0.1:${h.port}`, authorization: `Bearer ${HOOK_TOKEN}` } });
    expect(state.status).toBe(200);
    const entry = (JSON.parse(state.body) as { panes: Array<{ paneId: string; hook: { claim: string; agent: string; lastEvent: string } }> }).panes.find((p) => p.paneId === pane);
    expect(entry?.hook).toMatchObject({ claim: 'permission', agent: 'claude-code', lastEvent: 'PermissionRequest' });

    await h.hookInPane(pane, 'claude-code', claudePayload('UserPromptSubmit', h.dir, { prompt: 'go on' }));
    await h.waitForEvent((e) => e.type === 'unstuck' && e.paneId === pane);
    expect(h.engine.getSnapshot().panes.find((v) => v.pane.paneId === pane)?.hook?.claim).toBe('working');
  });

  it("a hook run by Codex's daemon (whose $TMUX_PANE is another pane's) is matched by its folder, then by its session", async () => {
    const folder = mkdtempSync(join(h.dir, 'codex-'));
    const pane = await h.shell(folder);
    // The hook's parent looks like Codex's hook daemon; setsid: no controlling terminal either.
    // Its TMUX_PANE and TMUX are those of a long-gone server, as measured.
    const runUnderDaemon = (payload: object) =>
      new Promise<number | null>((resolve) => {
        const child = spawn('bash', ['-c', `${JSON.stringify(process.execPath)} ${JSON.stringify(CLI)} hook --agent codex; exit 0`, 'app-server', '--listen', 'unix://', '--managed-daemon'], {
          detached: true,
          stdio: ['pipe', 'ignore', 'ignore'],
          env: { ...process.env, CORRAL_HOOK_URL: `http://127.0.0.1:${h.port}`, CORRAL_TOKEN: HOOK_TOKEN, TMUX_PANE: '%0', TMUX: '/tmp/tmux-0/long-gone,1,0', CORRAL_HOOK_LOG: join(h.dir, 'daemon-hook.log') },
        });
        child.on('exit', resolve);
        child.stdin!.end(JSON.stringify(payload));
      });
    const base = { session_id: '01a22fb9-16fc-7b21-a2b2-3e6fefc377d7', turn_id: 't1', transcript_path: '/c/rollout.jsonl', cwd: folder, model: 'gpt-5-codex', permission_mode: 'default' };
    expect(await runUnderDaemon({ ...base, hook_event_name: 'UserPromptSubmit', prompt: 'RUNCMD touch x' })).toBe(0);
    await expect.poll(() => h.engine.getSnapshot().panes.find((v) => v.pane.paneId === pane)?.hook?.sessionId).toBe(base.session_id);
    expect(readFileSync(join(h.dir, 'daemon-hook.log'), 'utf8')).toMatch(/UserPromptSubmit pane=%0 tty=false daemon=true -> HTTP 200/);
    expect(await runUnderDaemon({ ...base, hook_event_name: 'PermissionRequest', tool_name: 'Bash', tool_input: { command: 'touch x', description: 'marker' } })).toBe(0);
    await h.waitForEvent((e) => e.type === 'stuck' && e.paneId === pane && e.reason === 'permission');
  });

  it('refuses bad tokens, bad bodies and unknown panes with clear errors, and keeps serving', async () => {
    const socket = (await h.tmux.tmux('display-message', '-p', '#{socket_path}')).trim();
    const cases: Array<[Parameters<typeof post>, number, string]> = [
      [[report(), { authorization: 'Bearer wrong-token-0000000000' }], 401, 'invalid_api_key'],
      [[report(), { authorization: '' }], 401, 'missing_api_key'],
      [['{not json'], 400, 'invalid_json'],
      [[[1, 2]], 400, 'invalid_hook_report'],
      [[report({ agent: 'cursor' })], 400, 'invalid_hook_report'],
      [[report({ tty: 'yes' })], 400, 'invalid_hook_report'],
      [[report({ daemon: 1 })], 400, 'invalid_hook_report'],
      [[report({ pane: '3; rm -rf /' })], 400, 'invalid_hook_report'],
      [[report({ event: 42 })], 400, 'invalid_hook_report'],
      [[report({ socket: 'relative/path' })], 400, 'invalid_hook_report'],
      [[report(), { 'content-type': 'text/plain' }], 415, 'unsupported_media_type'],
      [[JSON.stringify({ ...report(), cwd: 'x'.repeat(70_000) })], 413, 'request_too_large'],
      [[report({ pane: '%999', socket })], 404, 'unknown_pane'],
      [[report({ pane: '%1', socket: '/tmp/tmux-0/another-server' })], 404, 'unknown_pane'],
      [[report({ cwd: '/no/pane/here' })], 404, 'unknown_pane'],
    ];
    for (const [args, status, code] of cases) {
      const response = await post(...args);
      expect({ status: response.status, code: (JSON.parse(response.body) as { error: { code: string } }).error.code }, response.body).toEqual({ status, code });
    }
    const param = JSON.parse((await post(report({ tty: 'yes' }))).body) as { error: { param: string; message: string } };
    expect(param.error).toMatchObject({ param: 'tty', message: '"tty" must be true or false' });

    // Two panes in one folder and no pane id: ambiguous, with the advice for Codex.
    const folder = mkdtempSync(join(h.dir, 'twin-'));
    await h.shell(folder);
    await h.shell(folder);
    const ambiguous = await post(report({ agent: 'codex', cwd: folder, sessionId: 'new-session' }));
    expect(ambiguous.status).toBe(409);
    expect(ambiguous.body).toContain('--no-daemon');

    const wrongMethod = await raw(h.port, { path: '/hooks', headers: { host: `127.0.0.1:${h.port}`, authorization: `Bearer ${HOOK_TOKEN}` } });
    expect(wrongMethod.status).toBe(405);
    // An event corral does not act on is accepted and ignored.
    expect((await post(report({ event: 'PreToolUse' }))).status).toBe(202);

    // Still serving.
    const pane = await h.shell();
    const ok = await post(report({ event: 'Stop', pane, socket }));
    expect(ok.status).toBe(200);
    expect(JSON.parse(ok.body)).toEqual({ paneId: pane, matchedBy: 'pane', signal: 'stop' });
  });

  it('with no corral to receive it, corral hook records the event on its own pane, where a watching corral reads it', async () => {
    const pane = await h.shell();
    // A stand-in agent: a program that runs the hook as its child and stays in the foreground.
    const payload = join(h.dir, 'orphan-payload.json');
    writeFileSync(payload, JSON.stringify({ hook_event_name: 'PermissionRequest', session_id: 'sess-9', cwd: h.dir, transcript_path: '', tool_name: 'Bash', tool_input: { command: 'make deploy' } }));
    const agent = join(h.dir, 'stand-in-agent.py');
    writeFileSync(agent, `import subprocess, sys\nsubprocess.run(sys.argv[2:], stdin=open(sys.argv[1]))\nprint('agent-waits')\ninput()\n`);
    // Port 9 (discard) has no listener here: the POST is refused at once.
    await h.tmux.tmux('send-keys', '-t', pane, '-l', `CORRAL_HOOK_URL=http://127.0.0.1:9 CORRAL_TOKEN=${HOOK_TOKEN} python3 '${agent}' '${payload}' '${process.execPath}' '${CLI}' hook --agent claude-code`);
    await h.tmux.tmux('send-keys', '-t', pane, 'Enter');
    await h.tmux.waitForScreen(pane, (screen) => /^agent-waits$/m.test(screen));
    const record = decodeHookRecord((await h.tmux.tmux('show-options', '-p', '-v', '-t', pane, HOOK_OPTION)).trim());
    expect(record).toMatchObject({ command: 'python3', hook: { agent: 'claude-code', signal: 'permission', sessionId: 'sess-9', message: 'Bash: make deploy' } });
    const stuck = await h.waitForEvent((e) => e.type === 'stuck' && e.paneId === pane);
    expect(stuck).toMatchObject({ reason: 'permission', message: 'Bash: make deploy', source: 'hook' });
    // The agent exits: the shell is back, the claim and the record go at once.
    await h.tmux.tmux('send-keys', '-t', pane, 'C-c');
    await h.waitForEvent((e) => e.type === 'unstuck' && e.paneId === pane);
    await expect.poll(async () => (await h.tmux.tmux('show-options', '-pqv', '-t', pane, HOOK_OPTION)).trim()).toBe('');
  });

  it('corral hook prints nothing and exits 0 when corral is not running, in well under its timeout', async () => {
    const started = Date.now();
    const result = await new Promise<{ code: number | null; out: string; err: string }>((resolve) => {
      const child = spawn(process.execPath, [CLI, 'hook', '--agent', 'gemini-cli'], {
        stdio: ['pipe', 'pipe', 'pipe'],
        env: { ...process.env, CORRAL_HOOK_URL: 'http://127.0.0.1:9', CORRAL_TOKEN: HOOK_TOKEN },
      });
      let out = '';
      let err = '';
      child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
      child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
      child.on('exit', (code) => resolve({ code, out, err }));
      child.stdin!.end('{"hook_event_name":"BeforeAgent","session_id":"g","cwd":"/x","transcript_path":""}');
    });
    expect(result).toEqual({ code: 0, out: '', err: '' });
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});
