// `corral hooks doctor`: for each agent, whether its hooks can reach a running corral: corral's
// entries in the agent's settings, the program they run (and, for corral's launcher, the corral it
// runs), the token, and a corral answering at the hook address. Reads files and asks the server;
// changes nothing.

import { accessSync, constants, existsSync, readFileSync } from 'node:fs';
import { AGENT_HOOKS } from '../engine/hooks/agent-hooks.js';
import type { AgentName } from '../engine/types.js';
import { hookUrl } from '../hook/hook-client.js';
import { hookLauncherPath } from './hook-launcher.js';
import { isCorralHookCommand } from './hooks-config.js';

export interface DoctorLine {
  readonly ok: boolean;
  readonly text: string;
}

/** The corral hook commands in a settings document (any event), in order. */
export function corralCommands(settings: unknown): string[] {
  const hooks = (settings as { hooks?: unknown } | null)?.hooks;
  if (typeof hooks !== 'object' || hooks === null) return [];
  const commands: string[] = [];
  for (const groups of Object.values(hooks)) {
    if (!Array.isArray(groups)) continue;
    for (const group of groups) {
      const handlers = (group as { hooks?: unknown } | null)?.hooks;
      if (!Array.isArray(handlers)) continue;
      for (const handler of handlers) {
        const command = (handler as { command?: unknown } | null)?.command;
        if (isCorralHookCommand(command)) commands.push(command as string);
      }
    }
  }
  return commands;
}

/** The program a hook command starts: its first word, unquoted. */
export function programOf(command: string): string {
  const quoted = /^'((?:[^']|'\\'')*)'/.exec(command);
  if (quoted) return (quoted[1] as string).replaceAll("'\\''", "'");
  return command.split(/\s+/)[0] ?? '';
}

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** What the launcher runs: the corral it names when that is still there, else `corral` on PATH. */
function launcherTarget(path: string): DoctorLine {
  const main = /^main='?(.*?)'?$/m.exec(readFileSync(path, 'utf8'))?.[1];
  if (main && existsSync(main)) return { ok: true, text: `the launcher runs ${main}` };
  return { ok: false, text: `the launcher names ${main ?? 'no corral'}, which is gone: it falls back to corral on PATH; start corral serve or the dashboard (they repoint it), or run corral hooks install again` };
}

/** The checks of one agent's settings (`settings` null when the file is missing). */
export function checkAgent(agent: AgentName, path: string, settings: unknown | null, env: NodeJS.ProcessEnv): DoctorLine[] {
  const name = AGENT_HOOKS[agent].displayName;
  if (settings === null) return [{ ok: false, text: `${name}: no settings file at ${path}: corral hooks install --agent ${agent}` }];
  const commands = corralCommands(settings);
  if (commands.length === 0) return [{ ok: false, text: `${name}: no corral hooks in ${path}: corral hooks install --agent ${agent}` }];
  const lines: DoctorLine[] = [{ ok: true, text: `${name}: ${commands.length} corral hook entries in ${path}` }];
  const program = programOf(commands[0] as string);
  if (!executable(program)) {
    lines.push({ ok: false, text: `${name}: the hooks run ${program}, which is missing or not executable: corral hooks install --agent ${agent}` });
    return lines;
  }
  lines.push({ ok: true, text: `${name}: the hooks run ${program}` });
  if (program === hookLauncherPath(env)) lines.push(launcherTarget(program));
  return lines;
}

/** Whether a corral answers at the hook address with this token. */
export async function checkServer(env: NodeJS.ProcessEnv, token: string | null, timeoutMs = 2_000, at: string | null = null): Promise<DoctorLine> {
  const url = at ?? hookUrl(env, null);
  if (token === null) return { ok: false, text: `no token: the hooks cannot sign in (corral hooks install makes one)` };
  try {
    const res = await fetch(`${url}/state`, { headers: { authorization: `Bearer ${token}` }, signal: AbortSignal.timeout(timeoutMs) });
    if (res.ok) return { ok: true, text: `a corral receives hooks at ${url}` };
    if (res.status === 401) return { ok: false, text: `the corral at ${url} refuses the token: it was started with another one` };
    return { ok: false, text: `the server at ${url} answered ${res.status}: is it corral with hooks on (not --no-hooks)?` };
  } catch {
    return { ok: false, text: `no corral listens at ${url}: hooks reach corral only while corral serve or the dashboard runs` };
  }
}
