// The dashboard's view of hosts: which rows belong under which host, the host's health line, and
// why a pane on a host that is down cannot be typed into. Pure: snapshot data and `now` in, text out.

import { needsPerson } from '../engine/pane/pane-status.js';
import { LOCAL_HOST, type HostHealth, type PaneView } from '../engine/types.js';
import { formatQuiet } from './format.js';

/** One host's rows, in display order. `health` is null for a host the snapshot does not list. */
export interface HostGroup {
  readonly host: string;
  readonly health: HostHealth | null;
  readonly keys: readonly string[];
}

/**
 * A host's group as the list shows it: its rows (those not listed among the waiting panes on top),
 * whether it is collapsed to its header line, and the counts that line gives when it is.
 */
export interface ShownGroup extends HostGroup {
  readonly collapsed: boolean;
  /** The host's panes the list holds (the filter applied), waiting ones included. */
  readonly panes: number;
  readonly waiting: number;
  readonly offline: number;
}

/** A pane that waits for a person (engine/pane/pane-status.ts: needsPerson), on a host that is up. */
export const isWaiting = needsPerson;

// The selection id of a collapsed host's header line. Pane keys are `%3` or `host/%3`: never this.
const COLLAPSED_PREFIX = '\u0000host ';

export function collapsedHostId(host: string): string {
  return `${COLLAPSED_PREFIX}${host}`;
}

/** The host whose collapsed header line this selection id names, or null for a pane key. */
export function collapsedHostOf(id: string | null): string | null {
  return id !== null && id.startsWith(COLLAPSED_PREFIX) ? id.slice(COLLAPSED_PREFIX.length) : null;
}

/** Rows are grouped only when corral watches more than this machine. */
export function isMultiHost(hosts: readonly HostHealth[], panes: readonly PaneView[]): boolean {
  return hosts.length > 1 || panes.some((v) => v.host !== LOCAL_HOST);
}

/**
 * Splits rows (pane keys in display order) by host: the local host first, then the hosts in the
 * snapshot's order, then any host the snapshot does not list. Every listed host gets a group, empty
 * or not, unless `keepEmpty` is false (a filter is on: only hosts with matching rows are shown).
 */
export function groupByHost(
  keys: readonly string[],
  byKey: ReadonlyMap<string, PaneView>,
  hosts: readonly HostHealth[],
  keepEmpty: boolean,
): HostGroup[] {
  const ordered = [...hosts.filter((h) => h.name === LOCAL_HOST), ...hosts.filter((h) => h.name !== LOCAL_HOST)];
  const groups = new Map<string, { host: string; health: HostHealth | null; keys: string[] }>();
  for (const health of ordered) groups.set(health.name, { host: health.name, health, keys: [] });
  for (const key of keys) {
    const host = byKey.get(key)?.host ?? LOCAL_HOST;
    let group = groups.get(host);
    if (!group) {
      group = { host, health: null, keys: [] };
      groups.set(host, group);
    }
    group.keys.push(key);
  }
  return [...groups.values()].filter((g) => keepEmpty || g.keys.length > 0);
}

/** `14:05`: a moment of today in local time, for "since" texts. */
export function clockTime(ms: number): string {
  const at = new Date(ms);
  return `${String(at.getHours()).padStart(2, '0')}:${String(at.getMinutes()).padStart(2, '0')}`;
}

/** `8s`, `2m`: time left until `at`, rounded up so a countdown never shows 0s before it is due. */
function timeLeft(at: number, now: number): string {
  return formatQuiet(Math.ceil(Math.max(0, at - now) / 1000) * 1000);
}

function paneCount(n: number): string {
  return n === 0 ? 'no panes' : n === 1 ? '1 pane' : `${n} panes`;
}

/** What the host's health line says after its name. */
export function hostHealthText(health: HostHealth, now: number): string {
  const retry =
    health.retryAt === null ? '' : health.retryAt > now ? ` (retry in ${timeLeft(health.retryAt, now)})` : ' (retrying…)';
  switch (health.state) {
    case 'connecting':
      return 'connecting…';
    case 'unreachable':
      return `unreachable since ${clockTime(health.since)}${retry}${health.error ? `: ${health.error}` : ''}`;
    case 'auth-failed':
      return `auth failed${health.error ? `: ${health.error}` : ''}${retry}`;
    case 'connected':
      switch (health.status) {
        case 'no-server':
          return 'connected · no tmux server';
        case 'no-tmux':
          return 'connected · tmux is not installed';
        case 'error':
          return `connected · ${health.error ?? 'tmux error'}`;
        default:
          return `connected · ${paneCount(health.paneCount)}`;
      }
  }
}

/** `build-box · unreachable since 14:05 (retry in 8s)`; a host the snapshot does not list is `offline`. */
export function hostLine(group: Pick<HostGroup, 'host' | 'health'>, now: number): string {
  return `${group.host} · ${group.health === null ? 'offline' : hostHealthText(group.health, now)}`;
}

/**
 * A collapsed host's one line: `build-box ▸ 50 panes · 3 waiting · 0 offline · connected`, then
 * what is wrong with the host when something is (`unreachable since 14:05 (retry in 8s): ...`).
 */
export function collapsedHostLine(group: ShownGroup, now: number): string {
  const health = group.health;
  const state =
    health === null
      ? 'offline'
      : health.state === 'connected' && (health.status === 'ok' || health.status === 'starting')
        ? 'connected'
        : hostHealthText(health, now);
  return `${group.host} ▸ ${paneCount(group.panes)} · ${group.waiting} waiting · ${group.offline} offline · ${state}`;
}

/** The line over the waiting panes of every host: `waiting · 12 panes on 4 hosts`. */
export function waitingLine(keys: readonly string[], byKey: ReadonlyMap<string, PaneView>): string {
  const hosts = new Set(keys.map((key) => byKey.get(key)?.host ?? LOCAL_HOST)).size;
  return `waiting · ${paneCount(keys.length)} on ${hosts === 1 ? '1 host' : `${hosts} hosts`}`;
}

export type HostTone = 'ok' | 'pending' | 'down';

export function hostTone(health: HostHealth | null): HostTone {
  if (health === null) return 'down';
  if (health.state === 'connecting') return 'pending';
  return health.state === 'connected' ? 'ok' : 'down';
}

/**
 * Why nothing can be typed into the pane now: `build-box is unreachable`, `vm1: auth failed`,
 * `build-box is connecting`; null when its host is up.
 */
export function hostDown(view: PaneView, hosts: readonly HostHealth[]): string | null {
  if (view.online) return null;
  const health = hosts.find((h) => h.name === view.host);
  switch (health?.state) {
    case 'unreachable':
      return `${view.host} is unreachable`;
    case 'auth-failed':
      return `${view.host}: auth failed`;
    case 'connecting':
      return `${view.host} is connecting`;
    default:
      return `${view.host} is offline`;
  }
}

/** The pane as people name it in messages: `main:1.0` here, `main:1.0 on build-box` elsewhere. */
export function paneWhere(view: PaneView): string {
  return view.host === LOCAL_HOST ? view.target : `${view.target} on ${view.host}`;
}
