// One engine per host, seen as one: the snapshot lists every host's panes (local first) with each
// host's health, events arrive from all of them, and calls that name a pane go to its host's
// engine. Each host polls on its own timer, so a host that is slow or down delays no other.

import type { Engine, HookPort } from '../engine.js';
import { type CorralEvent, type EngineHandle, type EngineSnapshot, type HookEvent } from '../types.js';
import { parsePaneKey } from '../pane/pane-key.js';

export interface HostsEngine extends EngineHandle, HookPort {
  /** Host names in display order (local first). */
  readonly hostNames: readonly string[];
  /** The engine of one host, or null for a host corral does not watch. */
  engineOf(host: string): Engine | null;
  start(): void;
  stop(): Promise<void>;
}

/** `engines` maps host name to its engine, in display order. */
export function combineEngines(engines: ReadonlyMap<string, Engine>): HostsEngine {
  const list = [...engines.values()];
  if (list.length === 0) throw new Error('corral needs at least one host to watch');
  let parts: readonly EngineSnapshot[] = list.map((e) => e.getSnapshot());
  let combined = combine(parts);

  const route = (key: string): Engine | null => {
    const parsed = parsePaneKey(key);
    return parsed === null ? null : (engines.get(parsed.host) ?? null);
  };

  return {
    hostNames: [...engines.keys()],
    engineOf: (host) => engines.get(host) ?? null,
    getSnapshot() {
      const now = list.map((e) => e.getSnapshot());
      if (now.some((s, i) => s !== parts[i])) {
        parts = now;
        combined = combine(parts);
      }
      return combined;
    },
    subscribe(listener) {
      const offs = list.map((e) => e.subscribe(listener));
      return () => offs.forEach((off) => off());
    },
    onEvent(listener: (event: CorralEvent) => void) {
      const offs = list.map((e) => e.onEvent(listener));
      return () => offs.forEach((off) => off());
    },
    acknowledge(key) {
      route(key)?.acknowledge(key);
    },
    markSeen(key) {
      route(key)?.markSeen(key);
    },
    markAnswered(key, answer, contentHash) {
      route(key)?.markAnswered(key, answer, contentHash);
    },
    focus(keys) {
      // Every host hears the whole list: each keeps the keys of its own panes (none, for the others).
      for (const engine of list) engine.focus(keys);
    },
    observeHook(key: string, hook: HookEvent) {
      return route(key)?.observeHook(key, hook) ?? false;
    },
    async pollNow() {
      await Promise.all(list.map((e) => e.pollNow()));
    },
    start() {
      for (const engine of list) engine.start();
    },
    async stop() {
      await Promise.all(list.map((e) => e.stop()));
    },
  };
}

/** One snapshot of many: the first host's server and status lead (the local host, when watched). */
function combine(parts: readonly EngineSnapshot[]): EngineSnapshot {
  const [first] = parts as [EngineSnapshot, ...EngineSnapshot[]];
  if (parts.length === 1) return first;
  return {
    server: first.server,
    hosts: parts.flatMap((p) => p.hosts),
    status: first.status,
    statusMessage: first.statusMessage,
    panes: parts.flatMap((p) => p.panes),
    updatedAt: Math.max(...parts.map((p) => p.updatedAt)),
    cycle: parts.reduce((sum, p) => sum + p.cycle, 0),
  };
}
