// What a pane listing is: the fields `list-panes` prints (a full listing, and the activity listing
// that carries only what tmux generates), their parsers, and how an activity listing takes the
// names of the last full one. Pure. The records a listing carries come from the caller as formats.

import type { PaneInfo } from '../types.js';
import type { Framing, TmuxCommand } from './command-line.js';
import { assertPaneId } from './pane-id.js';

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
