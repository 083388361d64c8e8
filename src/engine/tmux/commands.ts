// Pure builders and parsers for tmux command lines. Nothing here runs tmux.

import { bufferedCapture } from './control-capture.js';
import { HOOK_RECORD_FORMAT } from '../hooks/hook-record.js';
import { QUIET_RECORD_FORMAT } from '../quiet-record.js';
import { ATTENTION_RECORD_FORMAT } from '../attention/record.js';
import type { PaneInfo } from '../types.js';
import type { SendItem } from '../keys.js';
import { assertPaneId } from './pane-id.js';

export type TmuxCommand = readonly string[];

/**
 * tmux splits its argv on arguments that end in ';' (that is how `cmd1 \; cmd2` works), so a
 * user string ending in ';' would be cut. A trailing '\;' is read back as ';'.
 */
export function escapeArg(value: string): string {
  return value.endsWith(';') ? `${value.slice(0, -1)}\\;` : value;
}

/** Formats are expanded in display-message and friends: '#' must be doubled to stay literal. */
export function escapeFormat(value: string): string {
  // display-message also runs its text through strftime, where `%3` is a padded field: `%%` is a `%`.
  return value.replaceAll('#', '##').replaceAll('%', '%%');
}

/**
 * display-message passes its text through strftime, so a pane id in a marker comes out mangled
 * (`%4~` prints as ` %4~`, `%12` padded with spaces). The capture-batch markers carry the id's
 * digits only; their parser accepts them with or without the '%'.
 */
export function markerId(paneId: string): string {
  return paneId.slice(1);
}

/** Joins commands into one tmux invocation: `a ; b ; c`. */
export function chain(commands: readonly TmuxCommand[]): string[] {
  const args: string[] = [];
  commands.forEach((command, index) => {
    if (index > 0) args.push(';');
    args.push(...command);
  });
  return args;
}

export function sendItemsCommands(paneId: string, items: readonly SendItem[]): TmuxCommand[] {
  assertPaneId(paneId);
  return items.map((item) =>
    item.kind === 'key'
      ? ['send-keys', '-t', paneId, item.key]
      : ['send-keys', '-t', paneId, '-l', '--', escapeArg(item.text)],
  );
}

/** Bracketed paste of a named buffer that `load-buffer -b NAME -` filled from stdin. */
export function pasteBufferCommands(paneId: string, bufferName: string): TmuxCommand[] {
  assertPaneId(paneId);
  return [['paste-buffer', '-p', '-d', '-b', bufferName, '-t', paneId]];
}

export interface CaptureOptions {
  /** Lines of history above the visible screen (capture-pane -S -N). */
  readonly history?: number;
  /** Keep colour/attribute escapes (capture-pane -e). */
  readonly escapes?: boolean;
  /** Join wrapped lines (capture-pane -J). */
  readonly join?: boolean;
}

export function captureCommand(paneId: string, options: CaptureOptions = {}): TmuxCommand {
  assertPaneId(paneId);
  const args = ['capture-pane', '-p', '-t', paneId];
  if (options.escapes) args.push('-e');
  if (options.join) args.push('-J');
  if (options.history !== undefined && options.history > 0) args.push('-S', `-${Math.floor(options.history)}`);
  return args;
}

// --- discovery ---------------------------------------------------------------------------------

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

/**
 * Record framing for list-panes: fields are separated and records ended by strings that carry a
 * per-process random nonce, so a title or path cannot forge a boundary, whatever it contains.
 */
export interface Framing {
  readonly nonce: string;
  readonly fieldSep: string;
  readonly recordEnd: string;
  readonly blockStart: string;
}

export function makeFraming(nonce: string): Framing {
  return {
    nonce,
    fieldSep: `<~${nonce}~>`,
    recordEnd: `<~${nonce}.~>`,
    blockStart: `<~${nonce}:`,
  };
}

/** A full listing's format: every field, then the pane's hook record (see hook-record.ts), attention record (attention/record.ts) and quiet record (quiet-record.ts). */
export function paneFormat(framing: Framing): string {
  return [...PANE_FIELDS.map((field) => `#{${field}}`), HOOK_RECORD_FORMAT, ATTENTION_RECORD_FORMAT, QUIET_RECORD_FORMAT].join(framing.fieldSep) + framing.recordEnd;
}

export function listPanesCommand(framing: Framing): TmuxCommand {
  return ['list-panes', '-a', '-F', paneFormat(framing)];
}

/**
 * The fields of an activity listing: only what tmux itself generates (ids, indexes, numbers and
 * flags), never a name, title or path a program or a person chose, and last the pane's hook record
 * with every character a record never holds removed by tmux. Space-separated, one pane a line:
 * nothing in them can contain a space or a line break, so they need no framing. A poll uses them
 * between two full listings (see TmuxClient); the names come from the last full one.
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

export function activityListCommand(): TmuxCommand {
  return ['list-panes', '-a', '-F', activityFormat()];
}

/** One pane's line of an activity listing. */
function activityFormat(): string {
  return [...ACTIVITY_FIELDS.map((field) => `#{${field}}`), HOOK_RECORD_FORMAT, ATTENTION_RECORD_FORMAT].join(' ');
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
export function paneInfoCommand(framing: Framing, paneId: string): TmuxCommand {
  assertPaneId(paneId);
  return ['display-message', '-p', '-t', paneId, paneFormat(framing)];
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

// --- one poll cycle in one invocation --------------------------------------------------------------

/**
 * `list-panes -a`, then for each watched pane a marker line and its screen. Captures come after the
 * list, so a pane that vanished since the last cycle only cuts the captures after it (tmux stops
 * a command sequence at the first failure); the list itself is always complete.
 */
export function pollCycleCommand(framing: Framing, captureIds: readonly string[], clock = false): string[] {
  return chain([listPanesCommand(framing), ...(clock ? [clockCommand(framing)] : []), ...screenCommands(framing, captureIds)]);
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
 * Only the captures of a poll cycle (its output parses with parsePollCycle, with no panes listed).
 * With `buffer`, each screen goes through that paste buffer (see control-capture.ts: over a control
 * connection, tmux before 3.6 never frees a printed capture).
 */
export function screensCommand(framing: Framing, captureIds: readonly string[], buffer: string | null = null): string[] {
  return chain(screenCommands(framing, captureIds, buffer));
}

function screenCommands(framing: Framing, captureIds: readonly string[], buffer: string | null = null): TmuxCommand[] {
  const commands: TmuxCommand[] = [];
  for (const id of captureIds) {
    assertPaneId(id);
    // display-message runs strftime over its text: `%5~` would print as `  %5~`, so write `%%5`.
    commands.push(['display-message', '-p', `${framing.blockStart}${id.replace('%', '%%')}~>`]);
    if (buffer === null) commands.push(['capture-pane', '-p', '-t', id]);
    else commands.push(...bufferedCapture(id, buffer));
  }
  if (buffer !== null && captureIds.length > 0) commands.push(['delete-buffer', '-b', buffer]);
  return commands;
}

export interface PollCycleOutput {
  readonly panes: PaneInfo[];
  /** Screens by pane id; a pane missing here was not captured this cycle. */
  readonly screens: Map<string, string>;
  /** The tmux server's clock when it listed the panes (epoch ms, whole seconds), when asked for. */
  readonly serverTime: number | null;
  /** Only some windows were listed; the other panes are the last listing's. */
  readonly partial?: boolean;
  /** The answer of the shell command the poll was given (see shell-answer.ts); null when it got none. */
  readonly shellAnswer?: string | null;
}

/** `screen` turns a block's text into the screen (buffered captures need decoding). */
export function parsePollCycle(
  stdout: string,
  framing: Framing,
  exitedCleanly: boolean,
  screen: (body: string) => string = (body) => body,
): PollCycleOutput {
  const { list, screens } = splitPollCycle(stdout, framing, exitedCleanly, screen);
  return { panes: parsePaneList(list, framing), screens, serverTime: parseClock(list, framing) };
}

/** A poll cycle's output cut into the listing's text (with the clock line, if any) and the screens. */
export function splitPollCycle(
  stdout: string,
  framing: Framing,
  exitedCleanly: boolean,
  screen: (body: string) => string = (body) => body,
): { list: string; screens: Map<string, string> } {
  const marker = new RegExp(`^${escapeRegExp(framing.blockStart)}(%\\d+)~>$`, 'm');
  const first = stdout.search(marker);
  const list = first === -1 ? stdout : stdout.slice(0, first);
  const screens = new Map<string, string>();
  if (first !== -1) {
    const blocks = stdout.slice(first).split(new RegExp(`^(?=${escapeRegExp(framing.blockStart)}%\\d+~>$)`, 'm'));
    blocks.forEach((block, index) => {
      const m = marker.exec(block);
      if (!m || m.index !== 0) return;
      const id = m[1] as string;
      const body = block.slice(m[0].length + 1);
      const isLast = index === blocks.length - 1;
      // When tmux stopped early, the last marker has no trustworthy screen after it.
      if (isLast && !exitedCleanly) return;
      screens.set(id, screen(body));
    });
  }
  return { list, screens };
}

function escapeRegExp(value: string): string {
  return value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** `session:window.pane` */
export function paneTarget(pane: Pick<PaneInfo, 'sessionName' | 'windowIndex' | 'paneIndex'>): string {
  return `${pane.sessionName}:${pane.windowIndex}.${pane.paneIndex}`;
}

// --- batched captures for the chat bridge ----------------------------------------------------------

export interface CaptureBatchOptions {
  /** Lines of history above the screen (capture-pane -S -N). */
  readonly history: number;
  /** Per-pane history, where it differs from `history`. */
  readonly historyByPane?: ReadonlyMap<string, number>;
}

/**
 * For each pane: a marker line that also carries the cursor, the screen size, whether the pane is
 * dead, whether it shows the alternate screen, the tmux server's identity and the pane's foreground
 * command, then the joined capture with history. One tmux process for all panes.
 */
export function captureBatchCommand(framing: Framing, paneIds: readonly string[], options: CaptureBatchOptions): string[] {
  const commands: TmuxCommand[] = [];
  for (const id of paneIds) {
    assertPaneId(id);
    commands.push(['display-message', '-p', '-t', id, `${framing.blockStart}${markerId(id)}~> #{cursor_y} #{pane_height} #{pane_dead} #{alternate_on} #{cursor_x} #{pane_width} #{pid}:#{start_time} #{pane_current_command}`]);
    commands.push(captureCommand(id, { history: options.historyByPane?.get(id) ?? options.history, join: true }));
  }
  return chain(commands);
}

export interface BatchCapture {
  readonly paneId: string;
  /** capture-pane output, one line per row (wrapped rows joined). */
  readonly text: string;
  /** Index of the cursor's line in the capture's lines. */
  readonly cursorRow: number;
  readonly height: number;
  readonly dead: boolean;
  /** The pane shows the alternate screen (a full-screen program: vim, less, top, a TUI). */
  readonly alternate: boolean;
  /** The pane's foreground command (`bash`, `sleep`, `vim` ...), as tmux names it. */
  readonly command: string;
  /** Column of the cursor on its row. */
  readonly cursorX?: number;
  readonly width?: number;
  /**
   * The tmux server that holds the pane: its pid and start time (`4411:1796285931`). A pane id is
   * unique only within one server; a new server on the same socket starts again at `%0`.
   */
  readonly server?: string;
}

/**
 * Splits a captureBatchCommand's output. When tmux stopped early (a pane closed), the last block
 * may be cut short, so it is dropped unless the run ended cleanly.
 */
export function parseCaptureBatch(stdout: string, framing: Framing, exitedCleanly: boolean): BatchCapture[] {
  const head = `^${escapeRegExp(framing.blockStart)}%?(\\d+)~> (\\d+) (\\d+) ([01])(?: ([01])(?: (\\d+) (\\d+) (\\d+:\\d+))? ?(.*))?$`;
  const marker = new RegExp(head, 'm');
  const first = stdout.search(marker);
  if (first === -1) return [];
  const blocks = stdout.slice(first).split(new RegExp(`^(?=${escapeRegExp(framing.blockStart)}%?\\d+~> )`, 'm'));
  const out: BatchCapture[] = [];
  blocks.forEach((block, index) => {
    const m = marker.exec(block);
    if (!m || m.index !== 0) return;
    if (index === blocks.length - 1 && !exitedCleanly) return;
    const text = block.slice(m[0].length + 1);
    const cursorY = Number(m[2]);
    const height = Number(m[3]);
    const rows = text.endsWith('\n') ? text.slice(0, -1).split('\n').length : text === '' ? 0 : text.split('\n').length;
    // Count from the bottom: joined rows above the cursor do not shift it.
    const cursorRow = Math.max(0, rows - (height - cursorY));
    out.push({
      paneId: `%${m[1] as string}`,
      text,
      cursorRow,
      height,
      dead: m[4] === '1',
      alternate: m[5] === '1',
      command: m[9] ?? '',
      ...(m[6] !== undefined ? { cursorX: Number(m[6]), width: Number(m[7]), server: m[8] as string } : {}),
    });
  });
  return out;
}
