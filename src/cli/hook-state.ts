// Asks a running corral (serve, or the dashboard) what agent hooks said about each pane, for the
// one-shot commands (`ls --json`, `check --pane`), which see only the screen themselves.

import { realpathSync } from 'node:fs';
import type { ServerSettings } from '../engine/config.js';
import type { HookView } from '../engine/types.js';
import { configDir } from './config-file.js';
import { findToken } from './token.js';

export interface PaneHookState {
  readonly hook: HookView | null;
  readonly disagreement: string | null;
}

const ASK_TIMEOUT_MS = 500;

function samePath(a: string, b: string): boolean {
  try {
    return realpathSync(a) === realpathSync(b);
  } catch {
    return a === b;
  }
}

/**
 * The hook state of every pane, by pane id, from the corral listening at --listen/--port, when it
 * watches the same tmux server (`socketPath`); null when none answers (then hooks are unknown).
 */
export async function fetchHookStates(settings: Pick<ServerSettings, 'listen' | 'port'>, env: NodeJS.ProcessEnv, socketPath: string | null): Promise<Map<string, PaneHookState> | null> {
  let token;
  try {
    token = findToken({ env, configDir: configDir(env) });
  } catch {
    return null;
  }
  if (!token || socketPath === null) return null;
  const host = settings.listen === '0.0.0.0' || settings.listen === '::' ? '127.0.0.1' : settings.listen;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${settings.port}/hooks/state`;
  try {
    const response = await fetch(url, { headers: { authorization: `Bearer ${token.token}` }, signal: AbortSignal.timeout(ASK_TIMEOUT_MS) });
    if (!response.ok) return null;
    const body = (await response.json()) as { server: string | null; panes: Array<{ paneId: string; hook: HookView | null; disagreement: string | null }> };
    if (body.server === null || !samePath(body.server, socketPath)) return null;
    return new Map(body.panes.map((p) => [p.paneId, { hook: p.hook, disagreement: p.disagreement }]));
  } catch {
    return null;
  }
}
