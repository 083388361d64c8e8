// Whether a corral process receives agent hooks where they are sent (its HTTP server's /hooks),
// for the one-shot commands that say so when none does. What the hooks said reaches every corral
// through the panes' records (engine/hooks/hook-record.ts), not through this question.

import type { ServerSettings } from '../engine/settings/config.js';
import { configDir } from './config-file.js';
import { findToken } from './token.js';

/**
 * How long a receiver may take to answer. No receiver refuses the connection at once; a running one
 * on a busy machine can take over half a second, and a shorter wait then warned of no receiver.
 */
const ASK_TIMEOUT_MS = 3_000;

/** Where `corral hook` posts with these settings. */
export function hookReceiverUrl(settings: Pick<ServerSettings, 'listen' | 'port'>): string {
  const host = settings.listen === '0.0.0.0' || settings.listen === '::' ? '127.0.0.1' : settings.listen;
  return `http://${host.includes(':') ? `[${host}]` : host}:${settings.port}/hooks`;
}

/** True when a corral answers at the hook URL with this machine's token. */
export async function hookReceiverAnswers(settings: Pick<ServerSettings, 'listen' | 'port'>, env: NodeJS.ProcessEnv): Promise<boolean> {
  let token;
  try {
    token = findToken({ env, configDir: configDir(env) });
  } catch {
    return false;
  }
  if (!token) return false;
  try {
    const response = await fetch(`${hookReceiverUrl(settings)}/state`, { headers: { authorization: `Bearer ${token.token}` }, signal: AbortSignal.timeout(ASK_TIMEOUT_MS) });
    await response.body?.cancel();
    return response.ok;
  } catch {
    return false;
  }
}
