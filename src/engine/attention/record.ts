// A pane's attention record: what needs the person there, and what the person has seen and decided,
// kept in the pane's tmux user option `@corral_attention` so that every corral process on that
// server (the dashboard, `serve`, `watch`, `ls`, `status`, `next`, MCP) reads the same one, and a
// restarted corral takes it over. tmux drops the option with its pane. Pure encoding and decoding.
//
// The value is `a1.` then dot-separated fields, every one of them digits, a letter or base64url,
// so a listing can carry it filtered to those characters and a compare-and-set can name it whole:
//   since.kind.wait.worked.seen.snoozeWait.snoozeSince.answeredAt.surface.answeredOn.answer.ask

export const ATTENTION_OPTION = '@corral_attention';

/**
 * A global option every record write also sets (to the writer's clock), so that one format
 * subscription on a single value tells each corral process that some record changed.
 */
export const ATTENTION_STAMP_OPTION = '@corral_attention_stamp';

/** The characters a record holds; a listing keeps only these (a value somebody else set then fails to decode). */
export const RECORD_CHARS = 'A-Za-z0-9._-';

/** The listing field: the option with every other character removed by tmux. */
export const ATTENTION_RECORD_FORMAT = `#{s/[^${RECORD_CHARS}]//:${ATTENTION_OPTION}}`;

const PREFIX = 'a1';
const FIELDS = 12;
/** Far above a real record: an ask of 200 characters is about 270 in base64url. */
const MAX_RECORD = 2_048;
export const MAX_ASK = 200;
export const MAX_ANSWER = 40;

/** What a wait is: a question or permission (`permission`), or a program idle at its prompt (`stopped`). */
export type WaitKind = 'permission' | 'stopped';

/** The wait on screen, as every process names it: its id (a hash of what it waits for) and since when. */
export interface RecordedWait {
  readonly id: string;
  readonly kind: WaitKind;
  readonly since: number;
  /** The wait began after the pane did something (output while watched), not on the first look. */
  readonly worked: boolean;
}

/** An answer given to the pane, and on which screen (the content hash's last 16 hex digits). */
export interface AnswerMark {
  readonly at: number;
  /** Where it came from: `dashboard`, `page`, `link`, `next`, `mcp`, ... */
  readonly surface: string;
  /** What was sent, for people (`1`, `y`, `Enter`). */
  readonly what: string;
  readonly on: string;
}

export interface AttentionRecord {
  readonly wait: RecordedWait | null;
  /** What the wait asks, in one line ('' when nothing is known). */
  readonly ask: string;
  /** When the person last looked at the pane (ms), 0 never. */
  readonly seenAt: number;
  /** The wait a snooze holds for (until it changes), or null. */
  readonly snoozed: { readonly id: string; readonly since: number } | null;
  readonly answered: AnswerMark | null;
}

export const EMPTY_RECORD: AttentionRecord = { wait: null, ask: '', seenAt: 0, snoozed: null, answered: null };

/** The short form of a content hash that marks a screen in a record. */
export function screenMark(contentHash: string): string {
  return contentHash.slice(-16).toLowerCase();
}

function b64(text: string): string {
  return Buffer.from(text, 'utf8').toString('base64url');
}

function unb64(text: string): string {
  return Buffer.from(text, 'base64url').toString('utf8');
}

const int = (n: number): string => String(Math.max(0, Math.floor(n)));

/** Text cut to `max` characters (code points, so no character is split). */
function cut(text: string, max: number): string {
  return text.length <= max ? text : [...text].slice(0, max).join('');
}

export function encodeAttention(record: AttentionRecord): string {
  const { wait, snoozed, answered } = record;
  return [
    PREFIX,
    wait ? int(wait.since) : '',
    wait ? (wait.kind === 'permission' ? 'p' : 's') : '',
    wait?.id ?? '',
    wait?.worked ? '1' : '0',
    record.seenAt > 0 ? int(record.seenAt) : '',
    snoozed?.id ?? '',
    snoozed ? int(snoozed.since) : '',
    answered ? int(answered.at) : '',
    answered?.surface ?? '',
    answered?.on ?? '',
    answered ? b64(cut(answered.what, MAX_ANSWER)) : '',
    record.ask === '' ? '' : b64(cut(record.ask, MAX_ASK)),
  ].join('.');
}

const DIGITS = /^\d{1,15}$/;
const HEX = /^[0-9a-f]{1,40}$/;
const WORD = /^[a-z]{1,16}$/;

function num(text: string): number | null {
  return DIGITS.test(text) ? Number(text) : null;
}

/** A record from its option's value; null for anything that is not one (absent, or written by something else). */
export function decodeAttention(value: string): AttentionRecord | null {
  if (value === '' || value.length > MAX_RECORD) return null;
  const f = value.split('.');
  if (f.length !== FIELDS + 1 || f[0] !== PREFIX) return null;
  const [, since, kind, id, worked, seen, snoozeId, snoozeSince, answeredAt, surface, on, what, ask] = f as [string, ...string[]] as string[];
  let wait: RecordedWait | null = null;
  if (kind !== '') {
    const at = num(since!);
    if (at === null || (kind !== 'p' && kind !== 's') || !HEX.test(id!)) return null;
    wait = { id: id!, kind: kind === 'p' ? 'permission' : 'stopped', since: at, worked: worked === '1' };
  }
  let snoozed: AttentionRecord['snoozed'] = null;
  if (snoozeId !== '') {
    const at = num(snoozeSince!);
    if (at === null || !HEX.test(snoozeId!)) return null;
    snoozed = { id: snoozeId!, since: at };
  }
  let answered: AnswerMark | null = null;
  if (answeredAt !== '') {
    const at = num(answeredAt!);
    if (at === null || !WORD.test(surface!) || !HEX.test(on!)) return null;
    answered = { at, surface: surface!, on: on!, what: unb64(what!) };
  }
  const seenAt = seen === '' ? 0 : num(seen!);
  if (seenAt === null) return null;
  return { wait, ask: ask === '' ? '' : unb64(ask!), seenAt, snoozed, answered };
}
