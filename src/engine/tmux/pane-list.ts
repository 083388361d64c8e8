// What a pane listing is: the fields `list-panes` prints (a full listing, and the activity listing
// that carries only what tmux generates), their parsers, the server's clock read along, and the
// memory of the last listing that an activity listing takes its names from. No tmux is run here.
// The records a listing carries come from the caller as formats.

import type { PaneInfo } from '../types.js';
import { escapeRegExp, type Framing, type TmuxCommand } from './command-line.js';
import { assertPaneId } from './pane-id.js';

/**
 * Over a persistent connection, the names, titles, folders and foreground commands of the panes are
 * listed at most this long apart (the default poll interval, so at that interval every listing is
 * full). In between, a poll lists only what tmux generates itself (an activity listing: ids,
 * indexes, sizes, flags, activity stamps), about a seventh of the bytes and half the server's work,
 * and keeps the names of the last full listing. A pane that is new, respawned or moved to another
 * session or window is listed in full at once.
 */
export const DETAILS_MS = 2_000;

/**
 * The pane option records a listing carries, as tmux formats: the agent's hook record, the
 * attention record and the quiet record (what they hold is the engine's business, not tmux's).
 * Each format should keep only the characters its record holds.
 */
export interface ListedRecords {
  readonly hook: string;
  readonly attention: string;
  readonly quiet: string;
}

const PANE_FIELDS = [
  'pane_id',
  'session_id',
  'session_name',
  'window_id',
  'window_index',
  'window_name',
  'pane_index',
  'pane_title',
  'pane_current_path',
  'pane_current_command',
  'pane_pid',
  'pane_dead',
  'pane_width',
  'pane_height',
  'pane_in_mode',
  'alternate_on',
  'window_activity',
] as const;

/** A full listing's format: every field, then the pane's hook record, attention record and quiet record. */
export function paneFormat(framing: Framing, records: ListedRecords): string {
  return [...PANE_FIELDS.map((field) => `#{${field}}`), records.hook, records.attention, records.quiet].join(framing.fieldSep) + framing.recordEnd;
}

export function listPanesCommand(framing: Framing, records: ListedRecords): TmuxCommand {
  return ['list-panes', '-a', '-F', paneFormat(framing, records)];
}

/**
 * The fields of an activity listing: only what tmux itself generates (ids, indexes, numbers and
 * flags), never a name, title or path a program or a person chose, and last the pane's hook and
 * attention records with every character a record never holds removed by tmux. Space-separated,
 * one pane a line: nothing in them can contain a space or a line break, so they need no framing. A
 * poll uses them between two full listings (see polling.ts); the names come from the last full one.
 */
const ACTIVITY_FIELDS = [
  'pane_id',
  'session_id',
  'window_id',
  'window_index',
  'pane_index',
  'pane_pid',
  'pane_dead',
  'pane_width',
  'pane_height',
  'pane_in_mode',
  'alternate_on',
  'window_activity',
] as const;

/** What an activity listing says of a pane: its PaneInfo without the names, title, folder, command and quiet record. */
export type PaneActivity = Omit<PaneInfo, 'sessionName' | 'windowName' | 'title' | 'cwd' | 'command' | 'quietRecord'>;

export function activityListCommand(records: ListedRecords): TmuxCommand {
  return ['list-panes', '-a', '-F', activityFormat(records)];
}

/** One pane's line of an activity listing. */
function activityFormat(records: ListedRecords): string {
  return [...ACTIVITY_FIELDS.map((field) => `#{${field}}`), records.hook, records.attention].join(' ');
}

const PANE_ID = /^%\d+$/;

/** What a full listing adds to an activity listing. */
export type PaneNames = Pick<PaneInfo, 'sessionName' | 'windowName' | 'title' | 'cwd' | 'command' | 'quietRecord'>;

/** A pane's activity from its fields' text, in ACTIVITY_FIELDS order (the caller checked there are as many). */
function activityOf(f: readonly string[]): PaneActivity {
  const [paneId, sessionId, windowId, windowIndex, paneIndex, pid, dead, width, height, inMode, alternateOn, activity, hookRecord, attentionRecord] = f as [
    string, string, string, string, string, string, string, string, string, string, string, string, string, string,
  ];
  return {
    paneId,
    sessionId,
    windowId,
    windowIndex: toInt(windowIndex),
    paneIndex: toInt(paneIndex),
    pid: toInt(pid),
    dead: dead === '1',
    width: toInt(width),
    height: toInt(height),
    inMode: inMode === '1',
    alternateOn: alternateOn === '1',
    windowActivity: toInt(activity) * 1000,
    hookRecord,
    attentionRecord,
  };
}

/** A whole PaneInfo, written out in one order so that every PaneInfo has one shape (a spread would not). */
export function withNames(a: PaneActivity, names: PaneNames): PaneInfo {
  return {
    paneId: a.paneId,
    sessionId: a.sessionId,
    sessionName: names.sessionName,
    windowId: a.windowId,
    windowIndex: a.windowIndex,
    windowName: names.windowName,
    paneIndex: a.paneIndex,
    title: names.title,
    cwd: names.cwd,
    command: names.command,
    pid: a.pid,
    dead: a.dead,
    width: a.width,
    height: a.height,
    inMode: a.inMode,
    alternateOn: a.alternateOn,
    windowActivity: a.windowActivity,
    hookRecord: a.hookRecord,
    quietRecord: names.quietRecord,
    attentionRecord: a.attentionRecord,
  };
}

/** Parses an activity listing; a line that is not one record of it is skipped (a clock line, say). */
export function parseActivityList(text: string): PaneActivity[] {
  const panes: PaneActivity[] = [];
  for (const line of text.split('\n')) {
    const f = line.split(' ');
    if (f.length !== ACTIVITY_FIELDS.length + 2 || !PANE_ID.test(f[0]!)) continue;
    panes.push(activityOf(f));
  }
  return panes;
}

/** What list-panes says about one pane, from `display-message` (no other pane is listed). */
export function paneInfoCommand(framing: Framing, records: ListedRecords, paneId: string): TmuxCommand {
  assertPaneId(paneId);
  return ['display-message', '-p', '-t', paneId, paneFormat(framing, records)];
}

export function parsePaneList(text: string, framing: Framing): PaneInfo[] {
  const panes: PaneInfo[] = [];
  for (const raw of text.split(framing.recordEnd)) {
    const record = raw.replace(/^\r?\n/, '');
    if (record.trim() === '') continue;
    const f = record.split(framing.fieldSep);
    if (f.length !== PANE_FIELDS.length + 3) continue;
    const [paneId, sessionId, sessionName, windowId, windowIndex, windowName, paneIndex, title, cwd, command, pid, dead, width, height, inMode, alternateOn, activity, hookRecord, attentionRecord, quietRecord] = f as [
      string, string, string, string, string, string, string, string, string, string, string, string, string, string, string, string, string, string, string, string,
    ];
    const numbers = activityOf([paneId, sessionId, windowId, windowIndex, paneIndex, pid, dead, width, height, inMode, alternateOn, activity, hookRecord, attentionRecord]);
    panes.push(withNames(numbers, { sessionName, windowName, title, cwd, command, quietRecord }));
  }
  return panes;
}

function toInt(value: string): number {
  const n = Number.parseInt(value, 10);
  return Number.isFinite(n) ? n : 0;
}

/** What a full listing says of a pane that an activity listing does not, and what it is checked by. */
export interface PaneDetails {
  readonly pid: number;
  readonly dead: boolean;
  readonly sessionId: string;
  readonly windowId: string;
  readonly sessionName: string;
  readonly windowName: string;
  readonly title: string;
  readonly cwd: string;
  readonly command: string;
  readonly quietRecord: string;
}

export function detailsOf(pane: PaneInfo): PaneDetails {
  const { pid, dead, sessionId, windowId, sessionName, windowName, title, cwd, command, quietRecord } = pane;
  return { pid, dead, sessionId, windowId, sessionName, windowName, title, cwd, command, quietRecord };
}

/**
 * An activity listing with the names of the last full one (a pane listed as before keeps its
 * PaneInfo object); null when a pane is new, respawned, or now in another session or window.
 */
export function withDetails(
  panes: readonly PaneActivity[],
  details: ReadonlyMap<string, PaneDetails>,
  known: ReadonlyMap<string, PaneInfo>,
): PaneInfo[] | null {
  const filled: PaneInfo[] = [];
  for (const pane of panes) {
    const d = details.get(pane.paneId);
    if (d === undefined || d.pid !== pane.pid || d.dead !== pane.dead || d.sessionId !== pane.sessionId || d.windowId !== pane.windowId) return null;
    const last = known.get(pane.paneId);
    if (last !== undefined && sameActivity(last, pane)) {
      filled.push(last);
      continue;
    }
    filled.push(withNames(pane, d));
  }
  return filled;
}

function sameActivity(a: PaneActivity, b: PaneActivity): boolean {
  return (
    a.paneId === b.paneId &&
    a.sessionId === b.sessionId &&
    a.windowId === b.windowId &&
    a.windowIndex === b.windowIndex &&
    a.paneIndex === b.paneIndex &&
    a.pid === b.pid &&
    a.dead === b.dead &&
    a.width === b.width &&
    a.height === b.height &&
    a.inMode === b.inMode &&
    a.alternateOn === b.alternateOn &&
    a.windowActivity === b.windowActivity &&
    a.hookRecord === b.hookRecord &&
    a.attentionRecord === b.attentionRecord
  );
}

export function samePaneInfo(a: PaneInfo, b: PaneInfo): boolean {
  return (
    sameActivity(a, b) &&
    a.sessionName === b.sessionName &&
    a.windowName === b.windowName &&
    a.title === b.title &&
    a.cwd === b.cwd &&
    a.command === b.command
  );
}

/**
 * The tmux server's own clock, in whole seconds: display-message runs its text through strftime,
 * and `%s` is the epoch. It lets corral compare a remote host's activity stamps with that host's
 * clock rather than its own.
 */
export function clockCommand(framing: Framing): TmuxCommand {
  return ['display-message', '-p', `${framing.blockStart}clock~>%s`];
}

/** The server time a clockCommand printed (epoch ms), or null when the output holds none. */
export function parseClock(stdout: string, framing: Framing): number | null {
  const match = new RegExp(`^${escapeRegExp(framing.blockStart)}clock~>(\\d+)$`, 'm').exec(stdout);
  return match ? Number(match[1]) * 1000 : null;
}

/**
 * What the last listings said: each pane's details from the last full one (for the activity
 * listings in between, see DETAILS_MS) and each pane's PaneInfo from the last one (a pane listed
 * the same again is that same object, so readers can tell nothing changed by identity).
 */
export class ListingMemory {
  private details = new Map<string, PaneDetails>();
  private detailsAt: number | null = null;
  private known = new Map<string, PaneInfo>();

  constructor(
    private readonly framing: Framing,
    private readonly records: ListedRecords,
  ) {}

  /** Whether a full listing was read yet (a listing of some windows needs one). */
  get listed(): boolean {
    return this.detailsAt !== null;
  }

  /** The panes of the last listing. */
  last(): PaneInfo[] {
    return [...this.known.values()];
  }

  /** Whether a listing at `now` can be an activity listing: the last full one is recent. */
  activityAt(now: number): boolean {
    return this.detailsAt !== null && now >= this.detailsAt && now - this.detailsAt < DETAILS_MS;
  }

  /** The listing of a poll (an activity listing or a full one), with the server's clock after it when asked; chained. */
  command(clock: boolean, activity: boolean): string[] {
    const list = activity ? activityListCommand(this.records) : listPanesCommand(this.framing, this.records);
    return clock ? [...list, ';', ...clockCommand(this.framing)] : [...list];
  }

  /**
   * The panes of a listing's text, and the server's clock in it. An activity listing takes the
   * names of the last full one: null panes when it shows a pane that listing does not know as it
   * is now (new, respawned or moved).
   */
  read(text: string, activity: boolean, now: number): { panes: PaneInfo[] | null; serverTime: number | null } {
    const serverTime = parseClock(text, this.framing);
    let panes: PaneInfo[];
    if (activity) {
      const filled = withDetails(parseActivityList(text), this.details, this.known);
      if (filled === null) return { panes: null, serverTime };
      panes = filled;
    } else {
      panes = this.keptAsKnown(parsePaneList(text, this.framing));
      this.details = new Map(panes.map((p) => [p.paneId, detailsOf(p)]));
      this.detailsAt = now;
    }
    this.known = new Map(panes.map((p) => [p.paneId, p]));
    return { panes, serverTime };
  }

  /** The panes of a listing of some windows (full records), each one listed as before kept as that same object. */
  readSome(text: string): PaneInfo[] {
    return this.keptAsKnown(parsePaneList(text, this.framing));
  }

  /** Takes a listing of some windows: `listed`, as read by readSome, and every pane as merged with the last listing. */
  tookSome(listed: readonly PaneInfo[], panes: readonly PaneInfo[]): void {
    for (const pane of listed) this.details.set(pane.paneId, detailsOf(pane));
    this.known = new Map(panes.map((p) => [p.paneId, p]));
  }

  /** Freshly listed panes, each one listed the same as last time replaced by that same object. */
  private keptAsKnown(panes: readonly PaneInfo[]): PaneInfo[] {
    return panes.map((pane) => {
      const last = this.known.get(pane.paneId);
      return last !== undefined && samePaneInfo(last, pane) ? last : pane;
    });
  }
}
