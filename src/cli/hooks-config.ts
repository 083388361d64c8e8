// Adds corral's hook entries to an agent's settings object, or takes them out, leaving every other
// hook and setting as it was. Pure: JSON in, JSON out. All three agents use the same shape:
// settings.hooks[Event] = [{ matcher?, hooks: [{ type: "command", command, timeout, ... }] }].

import { AGENT_HOOKS, type AgentHookSpec } from '../engine/hooks/agent-hooks.js';
import type { AgentName } from '../engine/types.js';

/** Seconds (or ms, by agent) an agent waits for `corral hook`; it gives up after 1 s itself. */
const HOOK_TIMEOUT_SECONDS = 5;

type Json = Record<string, unknown>;

export class HooksConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'HooksConfigError';
  }
}

/** Whether a hook command is one of corral's (`... corral[.js] hook --agent NAME`). */
export function isCorralHookCommand(command: unknown): boolean {
  return typeof command === 'string' && /corral(?:\.js)?['"]?\s+hook\s+--agent\s/.test(command);
}

/** The hook entry corral registers for one event. */
export function corralHandler(spec: AgentHookSpec, command: string): Json {
  const timeout = spec.timeoutUnit === 'seconds' ? HOOK_TIMEOUT_SECONDS : HOOK_TIMEOUT_SECONDS * 1000;
  return spec.agent === 'gemini-cli' ? { type: 'command', name: 'corral', command, timeout } : { type: 'command', command, timeout };
}

/** Only corral's part of the settings: what `corral hooks print` shows. */
export function corralHooks(agent: AgentName, command: string): Json {
  const spec = AGENT_HOOKS[agent];
  const hooks: Json = {};
  for (const event of Object.keys(spec.events)) hooks[event] = [{ hooks: [corralHandler(spec, command)] }];
  return { hooks };
}

function asObject(value: unknown, where: string): Json {
  if (value === undefined) return {};
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new HooksConfigError(`${where} is not a JSON object; corral leaves it alone`);
  return value as Json;
}

/** Removes corral's handlers from every event; groups left empty go, and so does an empty event list. */
function withoutCorral(hooks: Json): { hooks: Json; removed: number } {
  const out: Json = {};
  let removed = 0;
  for (const [event, groups] of Object.entries(hooks)) {
    if (!Array.isArray(groups)) {
      out[event] = groups;
      continue;
    }
    const kept: unknown[] = [];
    for (const group of groups) {
      const handlers = (group as Json | null)?.hooks;
      if (!Array.isArray(handlers)) {
        kept.push(group);
        continue;
      }
      const rest = handlers.filter((h) => !isCorralHookCommand((h as Json | null)?.command));
      removed += handlers.length - rest.length;
      if (rest.length === handlers.length) kept.push(group);
      else if (rest.length > 0) kept.push({ ...(group as Json), hooks: rest });
    }
    if (kept.length > 0) out[event] = kept;
  }
  return { hooks: out, removed };
}

export interface ConfigChange {
  readonly settings: Json;
  readonly changed: boolean;
  /** corral handlers taken out (uninstall) or replaced (install). */
  readonly removed: number;
}

export function installInto(settings: unknown, agent: AgentName, command: string, options: { hideNotifications?: boolean } = {}): ConfigChange {
  const root = asObject(settings, 'the settings file');
  const { hooks, removed } = withoutCorral(asObject(root.hooks, 'its "hooks" entry'));
  const spec = AGENT_HOOKS[agent];
  for (const event of Object.keys(spec.events)) {
    const groups = Array.isArray(hooks[event]) ? (hooks[event] as unknown[]) : [];
    hooks[event] = [...groups, { hooks: [corralHandler(spec, command)] }];
  }
  let next: Json = { ...root, hooks };
  if (agent === 'gemini-cli' && options.hideNotifications) {
    next = { ...next, hooksConfig: { ...asObject(root.hooksConfig, 'its "hooksConfig" entry'), notifications: false } };
  }
  return { settings: next, changed: JSON.stringify(next) !== JSON.stringify(root), removed };
}

export function uninstallFrom(settings: unknown): ConfigChange {
  const root = asObject(settings, 'the settings file');
  if (root.hooks === undefined) return { settings: root, changed: false, removed: 0 };
  const { hooks, removed } = withoutCorral(asObject(root.hooks, 'its "hooks" entry'));
  if (removed === 0) return { settings: root, changed: false, removed: 0 };
  const next: Json = { ...root };
  if (Object.keys(hooks).length === 0) delete next.hooks;
  else next.hooks = hooks;
  return { settings: next, changed: true, removed };
}
