// The dashboard's hook receiver: it listens from the start only when a token exists already, and
// never makes a token file by itself.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createDashboardServices, type DashboardServices } from '../../src/cli/dashboard-services.js';
import { resolveSettings, type Settings } from '../../src/engine/settings/config.js';
import type { Engine } from '../../src/engine/engine.js';
import { TmuxClient } from '../../src/engine/tmux/client.js';
import type { EngineSnapshot } from '../../src/engine/types.js';
import { hookUrl, buildReport } from '../../src/hook/hook-client.js';
import { scriptedTmux } from '../helpers/scripted-panes.js';
import { LISTED_RECORDS } from '../../src/engine/records/tmux-formats.js';
import { realClock } from '../helpers/real-time.js';

function engineWith(flags: Record<string, unknown>): Engine & { readonly settings: Settings; readonly tmux: TmuxClient } {
  const settings = resolveSettings({ flags: { port: '0', ...flags }, env: {}, file: null });
  return {
    tmux: new TmuxClient({ clock: realClock, records: LISTED_RECORDS, socket: { kind: 'name', name: 'unit' }, runner: scriptedTmux({}).runner }),
    settings,
    getSnapshot: () => ({ panes: [] }) as unknown as EngineSnapshot,
    subscribe: () => () => undefined,
    acknowledge: () => undefined,
    markSeen: () => undefined,
    markAnswered: () => undefined,
    focus: () => undefined,
    observeHook: () => false,
    pollNow: async () => undefined,
    onEvent: () => () => undefined,
    start: () => undefined,
    stop: async () => undefined,
  };
}

let services: DashboardServices | null = null;
const dirs: string[] = [];
afterEach(async () => {
  await services?.close();
  services = null;
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('the dashboard and agent hooks', () => {
  it('starts the receiver when a token exists, and only then', async () => {
    const config = mkdtempSync(join(tmpdir(), 'corral-dash-hooks-'));
    dirs.push(config);
    const engine = engineWith({});
    services = createDashboardServices(engine, engine.settings, { XDG_CONFIG_HOME: config } as NodeJS.ProcessEnv);
    expect(await services.startHooks()).toBe('no token yet (corral hooks install makes one)');
    expect(services.services).toBeNull();
    await services.close();

    services = createDashboardServices(engine, engine.settings, { XDG_CONFIG_HOME: config, CORRAL_TOKEN: 'dashboard-hooks-token-0123' } as NodeJS.ProcessEnv);
    expect(await services.startHooks()).toBeNull();
    const url = services.services!.status().url!;
    const refused = await fetch(`${url}/hooks`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(refused.status).toBe(401);

    const off = engineWith({ hooks: false });
    await services.close();
    services = createDashboardServices(off, off.settings, { CORRAL_TOKEN: 'dashboard-hooks-token-0123' } as NodeJS.ProcessEnv);
    expect(await services.startHooks()).toBe('switched off (--no-hooks)');
  });
});

describe('corral hook, without I/O', () => {
  it('finds corral from the flag, CORRAL_HOOK_URL, CORRAL_LISTEN/PORT or the defaults', () => {
    expect(hookUrl({}, 'http://10.0.0.2:9000/')).toBe('http://10.0.0.2:9000/hooks');
    expect(hookUrl({ CORRAL_HOOK_URL: 'http://127.0.0.1:1234/hooks' }, null)).toBe('http://127.0.0.1:1234/hooks');
    expect(hookUrl({ CORRAL_LISTEN: '0.0.0.0', CORRAL_PORT: '8080', XDG_CONFIG_HOME: '/nonexistent' }, null)).toBe('http://127.0.0.1:8080/hooks');
    expect(hookUrl({ XDG_CONFIG_HOME: '/nonexistent' }, null)).toBe('http://127.0.0.1:7878/hooks');
  });

  it('keeps only what corral reads: no prompt text, no tool output; long text cut', () => {
    const report = buildReport(
      'claude-code',
      { hook_event_name: 'PostToolUse', session_id: 's', transcript_path: '/t.jsonl', cwd: '/w', prompt: 'secret plans', tool_name: 'Bash', tool_input: { command: 'x'.repeat(1000) }, tool_response: { stdout: 'big' } },
      { TMUX: '/tmp/tmux-0/default,123,0', TMUX_PANE: '%4' },
      false,
      false,
    );
    expect(report).toMatchObject({ agent: 'claude-code', event: 'PostToolUse', pane: '%4', socket: '/tmp/tmux-0/default', tty: false, daemon: false });
    expect(report.toolSummary).toHaveLength(300);
    expect(JSON.stringify(report)).not.toContain('secret plans');
    expect(JSON.stringify(report)).not.toContain('big');
    expect(buildReport('codex', { tool_input: { command: ['bash', '-lc', 'ls'] } }, {}, false, true)).toMatchObject({ pane: null, socket: null, toolSummary: 'bash -lc ls', daemon: true });
  });
});
