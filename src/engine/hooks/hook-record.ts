// An agent hook event as corral records it on its pane, in the tmux user option `@corral_hook`, so
// that every corral process watching that server (the dashboard, `serve`, `watch`, `ls`) reads the
// same hook claims from its pane listing, whichever of them received the hook. Pure encoding and
// decoding: the value is `h1.`, the event as base64url JSON, `.` and the pane's foreground command,
// which tmux fills in itself as it stores the value (`set-option -F`), so it needs no quoting.

import { isShell } from '../pane/shells.js';
import { AGENTS, type HookEvent, type HookSignal } from '../types.js';

/** The pane option that holds a pane's last hook event. */
export const HOOK_OPTION = '@corral_hook';

/**
 * The option as listings read it: tmux removes every character a record never holds, so a value
 * somebody else wrote cannot break a listing's fields or lines (it then fails to decode).
 */
export const HOOK_RECORD_FORMAT = `#{s/[^A-Za-z0-9._-]//:${HOOK_OPTION}}`;

const PREFIX = 'h1.';
/** Far above a real record (messages are cut to 300 characters, paths are short). */
const MAX_RECORD_LENGTH = 8 * 1024;
const MAX_FIELD = 2 * 1024;
const SIGNALS: readonly HookSignal[] = ['prompt', 'tool', 'permission', 'stop', 'end'];

/** A hook event and when it happened (epoch ms, the clock of the machine that recorded it). */
export interface HookRecord {
  readonly hook: HookEvent;
  readonly at: number;
  /**
   * The pane's foreground command when the hook was recorded (the agent: `claude`, `node` ...); ''
   * when not known. A pane that shows a shell instead has no agent any more.
   */
  readonly command: string;
}

/** The value to store with `set-option -F`: tmux replaces the format at its end with the pane's command. */
export function hookRecordValue(record: Omit<HookRecord, 'command'>): string {
  return `${encodeHookRecord({ ...record, command: '' })}.#{pane_current_command}`;
}

/** The event part of a record's value (without the command): the same event has the same one. */
export function hookRecordEvent(value: string): string {
  const dot = value.indexOf('.', PREFIX.length);
  return dot === -1 ? value : value.slice(0, dot);
}

export function encodeHookRecord(record: HookRecord): string {
  const { hook, at, command } = record;
  const encoded = encodeEvent(hook, at);
  return command === '' ? encoded : `${encoded}.${command}`;
}

function encodeEvent(hook: HookEvent, at: number): string {
  const body = {
    a: hook.agent,
    s: hook.signal,
    e: hook.event,
    i: hook.sessionId,
    t: hook.transcriptPath,
    c: hook.cwd,
    m: hook.message,
    at: Math.round(at),
  };
  return PREFIX + Buffer.from(JSON.stringify(body), 'utf8').toString('base64url');
}

function field(body: Record<string, unknown>, name: string): string | null {
  const value = body[name];
  return typeof value === 'string' && value.length <= MAX_FIELD ? value : null;
}

/** The record in an option's value; null for an empty, foreign or malformed value. */
export function decodeHookRecord(value: string): HookRecord | null {
  if (!value.startsWith(PREFIX) || value.length > MAX_RECORD_LENGTH) return null;
  const event = hookRecordEvent(value);
  const command = value.slice(event.length + 1);
  let body: unknown;
  try {
    body = JSON.parse(Buffer.from(event.slice(PREFIX.length), 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return null;
  const b = body as Record<string, unknown>;
  const agent = b.a;
  const signal = b.s;
  if (typeof agent !== 'string' || !(AGENTS as readonly string[]).includes(agent)) return null;
  if (typeof signal !== 'string' || !(SIGNALS as readonly string[]).includes(signal)) return null;
  const name = field(b, 'e');
  const sessionId = field(b, 'i');
  const transcriptPath = field(b, 't');
  const cwd = field(b, 'c');
  const message = b.m === null ? null : field(b, 'm');
  if (name === null || sessionId === null || transcriptPath === null || cwd === null) return null;
  if (b.m !== null && message === null) return null;
  if (typeof b.at !== 'number' || !Number.isFinite(b.at) || b.at <= 0) return null;
  return {
    hook: { agent: agent as HookEvent['agent'], signal: signal as HookSignal, event: name, sessionId, transcriptPath, cwd, message },
    at: b.at,
    command,
  };
}

/**
 * Whether the agent that sent a pane's hooks has exited: the pane shows a shell now, where the
 * hooks came with another command in the foreground.
 */
export function agentExited(agentCommand: string, paneCommand: string): boolean {
  return paneCommand !== agentCommand && isShell(paneCommand);
}
