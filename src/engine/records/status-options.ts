// What corral shows in tmux's own status line: user options on the watched server that a
// `status-right` or `window-status-format` reads, so tmux draws them at no cost to corral. Pure:
// the options a host's views call for, and the tmux commands that turn the last written set into
// the next one (only values that changed are written).
//
// - pane and window `@corral_state`: permission | stopped | snoozed | answered | idle | active | quiet
//   (a window takes its most urgent pane's; only permission and stopped wait for a person);
// - pane `@corral_since`: since when a waiting pane's wait has been on screen (epoch ms; empty
//   otherwise), the same moment in every corral process, the dashboard's order among waiting panes;
// - session `@corral_session_waiting` and `@corral_session_waiting_reason`: how many of its panes
//   wait for a person, and the most urgent reason (permission before stopped);
// - global `@corral_waiting` and `@corral_waiting_reason`: the same for the whole server.
//
// With them, pane `@corral_quiet` (quiet-record.ts): since when a pane that is not active has been
// quiet, which another corral takes over; and pane `@corral_attention` (attention/record.ts): its
// wait and what the person saw and decided, written compare-and-set. Both stay after corral stops,
// for the next one.

import { paneStatus } from '../pane/pane-status.js';
import { QUIET_OPTION, quietRecordValue } from './quiet-record.js';
import { ATTENTION_OPTION } from '../attention/record.js';
import type { PaneView, StuckReason } from '../types.js';

export const STATE_OPTION = '@corral_state';
export const SINCE_OPTION = '@corral_since';
export const WAITING_OPTION = '@corral_waiting';
export const WAITING_REASON_OPTION = '@corral_waiting_reason';
export const SESSION_WAITING_OPTION = '@corral_session_waiting';
export const SESSION_WAITING_REASON_OPTION = '@corral_session_waiting_reason';

/** The word a status line shows for a pane (and, for its most urgent pane, a window). */
export type StatusWord = StuckReason | 'snoozed' | 'answered' | 'idle' | 'active' | 'quiet';

/** Most urgent first. */
export const STATUS_WORDS: readonly StatusWord[] = ['permission', 'stopped', 'snoozed', 'answered', 'idle', 'active', 'quiet'];

export function statusWord(view: PaneView, now: number): StatusWord {
  const status = paneStatus(view, now);
  if (status !== 'stuck') return status;
  return view.attention.need === 'asks' ? 'permission' : 'stopped';
}

/** Waiting for a person: stuck and not snoozed. */
export function waits(word: StatusWord): word is StuckReason {
  return word === 'permission' || word === 'stopped';
}

export type OptionScope = 'pane' | 'window' | 'session' | 'global';

/** Options a stopping writer leaves in place for the corral that comes next. */
export function keptAfterStop(slot: OptionSlot): boolean {
  return slot.name === QUIET_OPTION || slot.name === ATTENTION_OPTION;
}

/** One option on one tmux object: `pane %3 @corral_state`, `global - @corral_waiting`. */
export interface OptionSlot {
  readonly scope: OptionScope;
  /** `%3`, `@2`, `$1`, or `-` for the global scope. */
  readonly target: string;
  readonly name: string;
}

/** Options by slot key (see slotKey); a value of '' is written as an empty string. */
export type StatusOptions = ReadonlyMap<string, string>;

export function slotKey(slot: OptionSlot): string {
  return `${slot.scope} ${slot.target} ${slot.name}`;
}

export function parseSlotKey(key: string): OptionSlot {
  const [scope, target, name] = key.split(' ') as [OptionScope, string, string];
  return { scope, target, name };
}

function moreUrgent(a: StatusWord, b: StatusWord): StatusWord {
  return STATUS_WORDS.indexOf(a) <= STATUS_WORDS.indexOf(b) ? a : b;
}

interface Count {
  waiting: number;
  reason: StuckReason | null;
}

function countOf(counts: Map<string, Count>, key: string): Count {
  let count = counts.get(key);
  if (!count) counts.set(key, (count = { waiting: 0, reason: null }));
  return count;
}

/** The options one host's online views call for at `now`. */
export function desiredOptions(views: readonly PaneView[], now: number): StatusOptions {
  const out = new Map<string, string>();
  const windows = new Map<string, StatusWord>();
  const sessions = new Map<string, Count>();
  const server: Count = { waiting: 0, reason: null };
  const set = (scope: OptionScope, target: string, name: string, value: string) => out.set(slotKey({ scope, target, name }), value);
  for (const view of views) {
    if (!view.online) continue;
    const word = statusWord(view, now);
    const { paneId, windowId, sessionId } = view.pane;
    set('pane', paneId, STATE_OPTION, word);
    set('pane', paneId, SINCE_OPTION, waits(word) ? String(waitedSince(view)) : '');
    // Written once a pane turns quiet, not while it prints: no write per capture of a busy pane.
    if (word !== 'active' && view.contentHash !== '') set('pane', paneId, QUIET_OPTION, quietRecordValue(view.quietSince, view.contentHash));
    const window = windows.get(windowId);
    windows.set(windowId, window === undefined ? word : moreUrgent(window, word));
    const session = countOf(sessions, sessionId);
    if (waits(word)) {
      for (const count of [session, server]) {
        count.waiting += 1;
        count.reason = count.reason === 'permission' || word === 'permission' ? 'permission' : 'stopped';
      }
    }
  }
  for (const [windowId, word] of windows) set('window', windowId, STATE_OPTION, word);
  for (const [sessionId, count] of sessions) {
    set('session', sessionId, SESSION_WAITING_OPTION, String(count.waiting));
    set('session', sessionId, SESSION_WAITING_REASON_OPTION, count.reason ?? '');
  }
  set('global', '-', WAITING_OPTION, String(server.waiting));
  set('global', '-', WAITING_REASON_OPTION, server.reason ?? '');
  return out;
}

/** Since when a waiting pane has waited: its wait's first moment on screen (the same in every corral process). */
export function waitedSince(view: PaneView): number {
  return view.waitSince ?? view.stuckSince ?? view.quietSince;
}

function scopeFlags(slot: OptionSlot): string[] {
  switch (slot.scope) {
    case 'pane':
      return ['-p', '-t', slot.target];
    case 'window':
      return ['-w', '-t', slot.target];
    case 'session':
      return ['-t', slot.target];
    case 'global':
      return ['-g'];
  }
}

export function setOptionCommand(slot: OptionSlot, value: string): string[] {
  return ['set-option', '-q', ...scopeFlags(slot), slot.name, value];
}

export function unsetOptionCommand(slot: OptionSlot): string[] {
  return ['set-option', '-q', '-u', ...scopeFlags(slot), slot.name];
}

/**
 * The commands that turn `written` into `wanted`: a set for each value that is new or changed, an
 * unset for each slot no longer wanted whose object still exists (a closed pane, window or session
 * takes its options with it; `gone` says which of them went).
 */
export function optionCommands(written: StatusOptions, wanted: StatusOptions, gone: (slot: OptionSlot) => boolean = () => false): string[][] {
  const commands: string[][] = [];
  for (const [key, value] of wanted) if (written.get(key) !== value) commands.push(setOptionCommand(parseSlotKey(key), value));
  for (const key of written.keys()) {
    if (wanted.has(key)) continue;
    const slot = parseSlotKey(key);
    if (!gone(slot)) commands.push(unsetOptionCommand(slot));
  }
  return commands;
}

/** When the next `active` pane turns `quiet` by time alone (ms, the views' clock), or null. */
export function nextQuietAt(views: readonly PaneView[], now: number, activeWindowMs: number): number | null {
  let next: number | null = null;
  for (const view of views) {
    if (!view.online || statusWord(view, now) !== 'active' || view.state === 'registered') continue;
    const at = view.quietSince + activeWindowMs;
    if (next === null || at < next) next = at;
  }
  return next;
}

/** A pane as the status options tell it (what `corral status` and `corral next` read back). */
export interface OptionPane {
  readonly paneId: string;
  readonly word: StatusWord | null;
  /** Epoch ms it began to wait; null when it does not. */
  readonly since: number | null;
}

/** The listing format that reads the pane options back, with nothing a program or person could write but digits and letters. */
export const OPTION_PANES_FORMAT = `#{pane_id} #{s/[^a-z]//:${STATE_OPTION}} #{s/[^0-9]//:${SINCE_OPTION}}`;

export function parseOptionPanes(text: string): OptionPane[] {
  const panes: OptionPane[] = [];
  for (const line of text.split('\n')) {
    const [paneId = '', word = '', since = ''] = line.split(' ');
    if (!/^%\d+$/.test(paneId)) continue;
    panes.push({
      paneId,
      word: (STATUS_WORDS as readonly string[]).includes(word) ? (word as StatusWord) : null,
      since: since === '' ? null : Number(since),
    });
  }
  return panes;
}

/** The waiting panes in the dashboard's order: permission first, then stopped, each longest waiting first. */
export function waitingInOrder(panes: readonly OptionPane[]): OptionPane[] {
  const rank = (p: OptionPane) => (p.word === 'permission' ? 0 : 1);
  return panes
    .filter((p) => p.word !== null && waits(p.word))
    .sort((a, b) => rank(a) - rank(b) || (a.since ?? 0) - (b.since ?? 0) || Number(a.paneId.slice(1)) - Number(b.paneId.slice(1)));
}
