// `corral ls --json` and `corral check --pane` show what a running corral's hooks said, and where
// the screen disagrees, from the record on the pane: real `corral serve`, real tmux, a real hook
// report over HTTP.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { raw } from '../helpers/bridge-server.js';
import { cliEnv, runCli, startCli, type LiveCli } from '../helpers/cli.js';
import { startTestTmux, type TestTmux } from '../helpers/tmux-server.js';

const TOKEN = 'hook-state-token-0123456789';
let tmux: TestTmux;
let serve: LiveCli;
let port: number;
const env = cliEnv({ CORRAL_TOKEN: TOKEN });

beforeAll(async () => {
  tmux = await startTestTmux();
  serve = startCli(['serve', '-L', tmux.socketName, '--port', '0', '--poll-interval', '60000', '--hook-grace', '600000'], env);
  const line = await serve.waitForLine((l) => l.includes('agent hooks received on'));
  port = Number(/127\.0\.0\.1:(\d+)\/hooks/.exec(line)![1]);
});
afterAll(async () => {
  await serve?.stop();
  await tmux?.kill();
});

describe('hook state in ls --json and check --pane', () => {
  it('reports the claim and the disagreement with the screen', async () => {
    const pane = await tmux.spawn();
    await tmux.waitForScreen(pane, (s) => /\$\s*$/.test(s.trimEnd()));
    const socket = (await tmux.tmux('display-message', '-p', '#{socket_path}')).trim();
    const report = { agent: 'claude-code', event: 'PermissionRequest', sessionId: 's-9', transcriptPath: '/t/s-9.jsonl', cwd: '/x', notificationType: null, message: null, toolName: 'Bash', toolSummary: 'make deploy', pane, socket, tty: true, daemon: false };
    // The pane is new: corral has not listed it yet, and looks again when the report names it.
    const posted = await raw(port, { method: 'POST', path: '/hooks', headers: { host: `127.0.0.1:${port}`, authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' }, body: JSON.stringify(report) });
    expect(posted.status, posted.body).toBe(200);
    // The shell prompt on screen contradicts the permission claim (from the next capture on).
    await tmux.tmux('send-keys', '-t', pane, '-l', 'echo redraw');
    await tmux.tmux('send-keys', '-t', pane, 'Enter');

    let check = { stdout: '', code: 0 as number | null };
    const deadline = Date.now() + 10_000;
    for (;;) {
      check = await runCli(['check', '--pane', pane, '-L', tmux.socketName, '--hook-grace', '600000'], { env });
      if (check.stdout.includes('"disagreement":"hook says')) break;
      if (Date.now() > deadline) throw new Error(`no disagreement: ${check.stdout}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    const verdict = JSON.parse(check.stdout) as Record<string, unknown>;
    expect(verdict).toMatchObject({
      prompt: true,
      reason: 'stopped',
      pane,
      hook: { agent: 'claude-code', claim: 'permission', sessionId: 's-9', transcriptPath: '/t/s-9.jsonl', lastEvent: 'PermissionRequest' },
      disagreement: 'hook says permission, screen shows stopped',
    });

    const ls = await runCli(['ls', '--json', '-L', tmux.socketName, '--port', String(port), '--hook-grace', '600000'], { env });
    const entry = (JSON.parse(ls.stdout) as Array<Record<string, unknown>>).find((p) => p.paneId === pane);
    expect(entry).toMatchObject({ status: 'stuck', state: 'stuck', reason: 'permission', hook: { claim: 'permission' }, disagreement: 'hook says permission, screen shows stopped' });
    expect(ls.stderr).toBe('');

    // The claim is on the pane: a corral that cannot reach the receiver reads the same, and says
    // that nothing receives hooks where it would send them.
    const alone = await runCli(['ls', '--json', '-L', tmux.socketName, '--port', '9', '--hook-grace', '600000'], { env });
    expect((JSON.parse(alone.stdout) as Array<Record<string, unknown>>).find((p) => p.paneId === pane)).toMatchObject({ status: 'stuck', hook: { claim: 'permission' } });
    expect(alone.stderr).toMatch(/^corral: no corral receives agent hooks at http:\/\/127\.0\.0\.1:9\/hooks/);
    const gone = await runCli(['check', '--pane', '%999', '-L', tmux.socketName], { env });
    expect(gone).toMatchObject({ code: 1, stderr: 'corral: pane %999 does not exist (it may have closed)\n' });
  });
});
