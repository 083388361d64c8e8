// corral with its hook receiver on a private tmux server: the engine, the HTTP services on port 0,
// and a way to run the real `corral hook` (the built CLI) inside a pane, as an agent would.

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveSettings } from '../../src/engine/settings/config.js';
import { createEngine, type Engine } from '../../src/engine/engine.js';
import { TmuxClient } from '../../src/engine/tmux/client.js';
import type { CorralEvent } from '../../src/engine/types.js';
import { createServices, type Services } from '../../src/cli/http-services.js';
import { CLI } from './cli.js';
import { startTestTmux, type TestTmux } from './tmux-server.js';
import { LISTED_RECORDS } from '../../src/engine/records/tmux-formats.js';
import { realClock, realEngineTime } from './real-time.js';

export const HOOK_TOKEN = 'hook-test-token-0123456789';

export interface HookHarness {
  readonly tmux: TestTmux;
  readonly engine: Engine;
  readonly services: Services;
  readonly port: number;
  readonly events: CorralEvent[];
  readonly dir: string;
  /** A shell pane at its prompt in `cwd`, known to the engine. */
  shell(cwd?: string): Promise<string>;
  /**
   * Runs `corral hook --agent AGENT` in the pane with this payload on stdin; resolves when it exited.
   * `url` sends it elsewhere than this harness's receiver (one where nothing listens, say).
   */
  hookInPane(paneId: string, agent: string, payload: object, url?: string): Promise<void>;
  waitForEvent(predicate: (event: CorralEvent) => boolean, timeoutMs?: number): Promise<CorralEvent>;
  close(): Promise<void>;
}

const shellQuote = (s: string) => `'${s.replaceAll("'", "'\\''")}'`;

export async function startHookHarness(flags: Record<string, unknown> = {}): Promise<HookHarness> {
  const tmux = await startTestTmux();
  const dir = mkdtempSync(join(tmpdir(), 'corral-hooks-'));
  try {
    await tmux.spawn(undefined, { title: 'first' });
    const settings = resolveSettings({
      flags: { socketName: tmux.socketName, port: '0', pollIntervalMs: '200', quietThresholdMs: '60000', ...flags },
      env: {},
      file: null,
    });
    const client = new TmuxClient({ clock: realClock, records: LISTED_RECORDS, socket: tmux.socket });
    const engine = createEngine({ ...realEngineTime, settings, tmux: client });
    const events: CorralEvent[] = [];
    engine.onEvent((event) => events.push(event));
    engine.start();
    const services = createServices({ engine, tmux: client, settings, token: HOOK_TOKEN });
    await services.startHooks();
    const port = Number(new URL(services.status().url!).port);
    let calls = 0;
    return {
      tmux,
      engine,
      services,
      port,
      events,
      dir,
      async shell(cwd = dir) {
        const id = (await tmux.tmux('new-window', '-d', '-c', cwd, '-P', '-F', '#{pane_id}', 'bash', '--norc', '--noprofile')).trim();
        await tmux.waitForScreen(id, (screen) => /\$\s*$/.test(screen.trimEnd()));
        await engine.pollNow();
        return id;
      },
      async hookInPane(paneId, agent, payload, url = `http://127.0.0.1:${port}`) {
        calls += 1;
        const file = join(dir, `payload-${calls}.json`);
        writeFileSync(file, JSON.stringify(payload));
        const env = `CORRAL_HOOK_URL=${url} CORRAL_TOKEN=${HOOK_TOKEN}`;
        const marker = `hook-done-${calls}`;
        // In the background, as an agent runs its hooks: the pane's foreground stays the "agent" (the shell).
        await tmux.tmux('send-keys', '-t', paneId, '-l', `${env} ${shellQuote(process.execPath)} ${shellQuote(CLI)} hook --agent ${agent} < ${shellQuote(file)} & wait $!; echo ${marker}-$?`);
        await tmux.tmux('send-keys', '-t', paneId, 'Enter');
        await tmux.waitForScreen(paneId, (screen) => screen.includes(`${marker}-0`), 10_000);
      },
      async waitForEvent(predicate, timeoutMs = 5_000) {
        const deadline = Date.now() + timeoutMs;
        for (;;) {
          const found = events.find(predicate);
          if (found) return found;
          if (Date.now() > deadline) throw new Error(`no such event; events were:\n${events.map((e) => JSON.stringify(e)).join('\n')}`);
          await new Promise((r) => setTimeout(r, 20));
        }
      },
      async close() {
        await services.close();
        await engine.stop();
        await tmux.kill();
      },
    };
  } catch (error) {
    await tmux.kill();
    throw error;
  }
}

/** A Claude Code payload as 2.1.197 sends it (fields from its measured hook calls). */
export function claudePayload(event: string, cwd: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    session_id: 'af26b287-8854-4329-91b7-9f34a10d73eb',
    transcript_path: `/home/me/.claude/projects/-work/af26b287-8854-4329-91b7-9f34a10d73eb.jsonl`,
    cwd,
    prompt_id: '544f86bf-1368-498a-8045-c07aff67f07d',
    permission_mode: 'default',
    hook_event_name: event,
    ...extra,
  };
}
