// Agent hooks: from an agent running `corral hook` to corral's `stuck` event (a permission request,
// and the end of a turn after the screen changed), and from `stuck` to the ntfy push request leaving corral. corral (engine, hook receiver, notifier) runs in this process on a
// private tmux server; each hook call is the real `corral hook` process, as an agent starts it, with
// the pane's $TMUX and $TMUX_PANE and a PermissionRequest payload on stdin.

import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { resolveSettings } from '../dist/engine/settings/config.js';
import { createEngine } from '../dist/engine/engine.js';
import { TmuxClient } from '../dist/engine/tmux/client.js';
import { LISTED_RECORDS } from '../dist/engine/records/tmux-formats.js';
import { createServices } from '../dist/cli/http-services.js';
import { startNotifications } from '../dist/cli/notifications.js';
import { startServer } from './lib/tmux-fixture.mjs';
import { clock, pollTimers } from '../dist/cli/time.js';

// The notifier coalesces panes that get stuck together for 500 ms before it sends (storm control).

export const title = 'Agent hooks: hook call to stuck event, and stuck event to push';

const CLI = fileURLToPath(new URL('../dist/bin/corral.js', import.meta.url));
const TOKEN = 'bench-hooks-token-0123456789';
const CALLS = Number(process.env.BENCH_HOOK_CALLS ?? 40);
const STOP_CALLS = Math.max(5, Math.floor(CALLS / 2));

const payload = (event, cwd) =>
  JSON.stringify({
    session_id: 'af26b287-8854-4329-91b7-9f34a10d73eb',
    transcript_path: '/home/me/.claude/projects/-work/af26b287.jsonl',
    cwd,
    permission_mode: 'default',
    hook_event_name: event,
    ...(event === 'PermissionRequest'
      ? { tool_name: 'Bash', tool_input: { command: 'make deploy', description: 'Deploy' }, permission_suggestions: [] }
      : event === 'Stop'
        ? { stop_hook_active: false }
        : { prompt: 'go on' }),
  });

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}
const ms = (v) => v.toFixed(1);
const stats = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p95: percentile(sorted, 95), max: sorted[sorted.length - 1] };
};

/** Runs `corral hook` like an agent does (or bare node, for the floor); resolves with its wall time. */
function runHook(env, input, argv = [CLI, 'hook', '--agent', 'claude-code']) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, argv, { env, stdio: ['pipe', 'ignore', 'ignore'] });
    child.on('error', reject);
    child.on('exit', () => resolve(performance.now() - started));
    child.stdin.end(input);
  });
}

export async function run(log) {
  const server = startServer(1, `read -p 'Deploy to production? [y/N] ' a; sleep 3600`);
  const pushes = [];
  const receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200).end('{}'));
  });
  await new Promise((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const flags = {
    socketName: server.name,
    port: '0',
    pollIntervalMs: '2000',
    quietThresholdMs: '3600000',
    ntfyUrl: `http://127.0.0.1:${receiver.address().port}/bench`,
    notifyMaxPerMinute: '600',
  };
  const settings = resolveSettings({ flags, env: {}, file: null });
  const tmux = new TmuxClient({ records: LISTED_RECORDS, socket: { kind: 'name', name: server.name }, clock });
  const engine = createEngine({ settings, tmux, clock, wallClock: clock, timers: pollTimers });
  const services = createServices({ engine, tmux, settings, token: TOKEN });
  try {
    engine.start();
    await engine.pollNow();
    await engine.pollNow();
    await services.startHooks();
    const port = new URL(services.status().url).port;
    const pane = engine.getSnapshot().panes[0];
    const socket = server.tmux('display-message', '-p', '#{socket_path}').trim();
    const env = { ...process.env, TMUX: `${socket},${server.pid},0`, TMUX_PANE: pane.pane.paneId, CORRAL_HOOK_URL: `http://127.0.0.1:${port}`, CORRAL_TOKEN: TOKEN };
    delete env.CORRAL_HOOK_LOG;

    let stuckAt = 0;
    let waiting = null;
    let target = pane.pane.paneId;
    engine.onEvent((event) => {
      if (event.paneId !== target || !waiting || event.type !== waiting.type) return;
      if (event.type === 'stuck') stuckAt = performance.now();
      waiting.resolve(performance.now());
      waiting = null;
    });
    const next = (type) => new Promise((resolve) => (waiting = { type, resolve }));
    const isStuck = (paneId = pane.pane.paneId) => engine.getSnapshot().panes.find((v) => v.pane.paneId === paneId)?.state === 'stuck';
    const notifier = await startNotifications({
      engine,
      settings,
      services,
      log: (line) => log(line),
      onPush: () => pushes.push(performance.now() - stuckAt),
    });

    const toStuck = [];
    const hookWall = [];
    const bareNode = [];
    const direct = [];
    for (let i = 0; i < CALLS; i++) {
      const unstuck = isStuck() ? next('unstuck') : null;
      await runHook(env, payload('UserPromptSubmit', pane.pane.cwd));
      await unstuck;
      const stuck = next('stuck');
      const started = performance.now();
      const wallPromise = runHook(env, payload('PermissionRequest', pane.pane.cwd));
      const at = await stuck;
      toStuck.push(at - started);
      hookWall.push(await wallPromise);
      // Node itself, started the same way, in the same round: the floor for any hook written in Node.
      bareNode.push(await runHook(env, '', ['-e', '0']));
      // The pane stays stuck until its push has left, so every round gives one.
      const deadline = Date.now() + 5_000;
      while (pushes.length <= i && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    }
    // The end of a turn: the agent prints its last words, then its Stop hook runs. The pane waits
    // once its screen has held still for the hook's grace (0.5 s), so this is the hook plus that.
    // A pane of its own that shows what is typed and asks nothing (`cat`), so only the hook and
    // the screen's stillness say it waits.
    const agentPane = server.tmux('new-window', '-d', '-P', '-F', '#{pane_id}', 'cat').trim();
    await engine.pollNow();
    const agentEnv = { ...env, TMUX_PANE: agentPane };
    target = agentPane;
    const toStopped = [];
    for (let i = 0; i < STOP_CALLS; i++) {
      const unstuck = isStuck(agentPane) ? next('unstuck') : null;
      await runHook(agentEnv, payload('UserPromptSubmit', pane.pane.cwd));
      await unstuck;
      const stuck = next('stuck');
      server.tmux('send-keys', '-t', agentPane, '-l', `answer ${i}`);
      const started = performance.now();
      await runHook(agentEnv, payload('Stop', pane.pane.cwd));
      toStopped.push((await stuck) - started);
    }
    target = pane.pane.paneId;
    notifier?.close();
    await notifier?.idle();
    // The receiver's own share: the same report POSTed directly, without starting a process.
    const report = (event) =>
      JSON.stringify({ agent: 'claude-code', event, sessionId: 's', transcriptPath: '', cwd: pane.pane.cwd, notificationType: null, message: null, toolName: 'Bash', toolSummary: 'make deploy', pane: pane.pane.paneId, socket, tty: false, daemon: false });
    const post = (event) => fetch(`http://127.0.0.1:${port}/hooks`, { method: 'POST', headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' }, body: report(event) }).then((r) => r.arrayBuffer());
    for (let i = 0; i < CALLS; i++) {
      const unstuck = isStuck() ? next('unstuck') : null;
      await post('UserPromptSubmit');
      await unstuck;
      const stuck = next('stuck');
      const started = performance.now();
      await post('PermissionRequest');
      direct.push((await stuck) - started);
    }

    const a = stats(toStuck);
    const w = stats(hookWall);
    const n = stats(bareNode);
    const d = stats(direct);
    const p = stats(pushes);
    const s = stats(toStopped);
    log(`hook -> stuck p50 ${ms(a.p50)} ms, hook process ${ms(w.p50)} ms, direct POST ${ms(d.p50)} ms, stuck -> push ${ms(p.p50)} ms (${pushes.length} pushes)`);
    return [
      `${CALLS} PermissionRequest calls on one pane (each after a UserPromptSubmit that clears it); load average ${loadavg()[0].toFixed(2)} at the end.`,
      '',
      '| measure | p50 | p95 | max |',
      '|---|---:|---:|---:|',
      `| agent starts \`corral hook\` → corral's \`stuck\` event | ${ms(a.p50)} ms | ${ms(a.p95)} ms | ${ms(a.max)} ms |`,
      `| \`corral hook\` process, start to exit (what the agent waits for) | ${ms(w.p50)} ms | ${ms(w.p95)} ms | ${ms(w.max)} ms |`,
      `| bare \`node -e 0\`, start to exit, in the same rounds (the floor) | ${ms(n.p50)} ms | ${ms(n.p95)} ms | ${ms(n.max)} ms |`,
      `| the same report POSTed to /hooks directly → \`stuck\` (corral's own share) | ${ms(d.p50)} ms | ${ms(d.p95)} ms | ${ms(d.max)} ms |`,
      `| \`stuck\` → the ntfy push request leaves corral (${pushes.length} pushes) | ${ms(p.p50)} ms | ${ms(p.p95)} ms | ${ms(p.max)} ms |`,
      `| the screen changes, then the agent starts \`corral hook\` for \`Stop\` → \`stuck\` (${STOP_CALLS} turns) | ${ms(s.p50)} ms | ${ms(s.p95)} ms | ${ms(s.max)} ms |`,
      '',
      `\`corral hook\` / bare node, p50: ${(w.p50 / n.p50).toFixed(2)}x. The push waits out the notifier's 500 ms coalescing window on purpose (panes that get stuck together go out as one summary); the rest is corral's own time.`,
    ].join('\n');
  } finally {
    await services.close();
    await engine.stop();
    await new Promise((resolve) => receiver.close(resolve));
    server.kill();
  }
}
