// What needs the person, per pane: the pane's own wait (from its machine) joined with what the
// person has seen and decided (its attention record, record.ts). Pure: the engine folds each
// listing's record and its own observations in here, the views and the status words read the result.
//
// "Waiting" means a person is needed:
// - `asks`: a permission or question prompt (held for the threshold, not snoozed, not answered);
// - `new`: a pane that stopped at its prompt after working (an agent that finished, a command that
//   returned) and that the person has not looked at since.
// A prompt the person has seen, or found idle on corral's first look, is `idle`: listed, not counted.

import { createHash } from 'node:crypto';
import type { PaneTrack, WaitTrack } from '../pane/pane-machine.js';
import { askOf } from './ask.js';
import { EMPTY_RECORD, encodeAttention, screenMark, type AnswerMark, type AttentionRecord, type RecordedWait } from './record.js';

/** Which waits count as waiting: only questions (`asks`), questions and unseen finished work (`new`), every prompt held (`all`). */
export type WaitingMode = 'asks' | 'new' | 'all';

/**
 * Two processes that saw the same wait appear name nearly the same moment (each from its own
 * captures); within this much the one already recorded is taken, so they never fight over it.
 */
export const SINCE_TOLERANCE_MS = 5_000;

/** A person at a client showing the pane, who pressed a key within this long, has seen it. */
export const LOOK_MS = 60_000;

/** What needs the person: a question, unseen finished work, or nothing. */
export type AttentionNeed = 'asks' | 'new' | null;

/** The attention part of a pane's view. */
export interface AttentionView {
  readonly need: AttentionNeed;
  /** When the person last looked at the pane (ms), null never. */
  readonly seenAt: number | null;
  /** Snoozed: the person said they have seen this wait (until it changes). */
  readonly snoozed: boolean;
  /** Answered on the screen it shows now (until its content changes). */
  readonly answered: AnswerMark | null;
  /** What the wait asks, in one line; null when nothing is known. */
  readonly ask: string | null;
  /** The wait began after the pane did something. */
  readonly worked: boolean;
  /** The record as this process holds it, encoded ('' when it holds nothing): what its status writer keeps in tmux. */
  readonly record: string;
}


/**
 * A wait's id: a short hash of what it waits for (reason, rule and line) and of the screen it began
 * on (animation masked), so the same prompt drawn again after other output is another wait.
 */
export function waitId(key: string, firstScreen = ''): string {
  return createHash('sha1').update(`${key}\u0000${firstScreen}`).digest('hex').slice(0, 12);
}

function idOf(wait: WaitTrack): string {
  return waitId(wait.key, wait.first);
}

/** The wait a track shows, as records name it: its screen's wait, or the hook's claim that holds it stuck. */
export function trackWait(track: PaneTrack): RecordedWait | null {
  const { wait, reason, stuckSince } = track;
  // A hook's claim holds the pane stuck for a reason the screen does not show (yet): the claim is the wait.
  if (track.state === 'stuck' && reason !== null && stuckSince !== null && (wait === null || wait.reason !== reason)) {
    return { id: waitId(`hook\u0000${reason}`), kind: reason, since: stuckSince, worked: true };
  }
  return wait === null ? null : { id: idOf(wait), kind: wait.reason, since: wait.since, worked: wait.worked };
}

/**
 * Since when the track's wait has been on screen as the record has it, when the record names the
 * same wait and it is the same appearance of it: this process found it on its first look (a
 * restart, a second corral), or the two moments are within SINCE_TOLERANCE_MS. Null otherwise.
 */
export function recordedSince(track: PaneTrack, listed: AttentionRecord | null, now: number): number | null {
  const own = track.wait;
  const theirs = listed?.wait ?? null;
  if (own === null || theirs === null || theirs.id !== idOf(own) || theirs.since === own.since || theirs.since > now) return null;
  return !own.worked || Math.abs(theirs.since - own.since) <= SINCE_TOLERANCE_MS ? theirs.since : null;
}

function sameWait(a: { readonly id: string; readonly since: number } | null, b: RecordedWait | null): boolean {
  return a !== null && b !== null && a.id === b.id && a.since === b.since;
}

function later(a: AnswerMark | null, b: AnswerMark | null): AnswerMark | null {
  if (a === null) return b;
  if (b === null) return a;
  return b.at > a.at ? b : a;
}

/**
 * The record after a listing: this process's own view of the wait (and what it asks), joined with
 * the record tmux holds. Every merge only moves forward (the later look, the snooze of the wait on
 * screen, the later answer), so processes that write in turn reach the same record.
 */
export function mergeRecord(own: AttentionRecord, listed: AttentionRecord | null, wait: RecordedWait | null, ask: string): AttentionRecord {
  const theirs = listed ?? own;
  const worked = wait !== null && (wait.worked || (sameWait(wait, theirs.wait) && theirs.wait!.worked) || (sameWait(wait, own.wait) && own.wait!.worked));
  const snoozed = [own.snoozed, theirs.snoozed].find((s) => s !== null && sameWait(s, wait)) ?? null;
  const merged: AttentionRecord = {
    wait: wait === null ? null : { ...wait, worked },
    ask: wait === null ? '' : ask || (sameWait(wait, theirs.wait) ? theirs.ask : ''),
    seenAt: Math.max(own.seenAt, theirs.seenAt),
    snoozed,
    answered: later(own.answered, theirs.answered),
  };
  return sameRecord(merged, own) ? own : merged;
}

export function sameRecord(a: AttentionRecord, b: AttentionRecord): boolean {
  const wa = a.wait;
  const wb = b.wait;
  const sa = a.snoozed;
  const sb = b.snoozed;
  const na = a.answered;
  const nb = b.answered;
  return (
    (wa === wb || (wa !== null && wb !== null && wa.id === wb.id && wa.since === wb.since && wa.kind === wb.kind && wa.worked === wb.worked)) &&
    a.ask === b.ask &&
    a.seenAt === b.seenAt &&
    (sa === sb || (sa !== null && sb !== null && sa.id === sb.id && sa.since === sb.since)) &&
    (na === nb || (na !== null && nb !== null && na.at === nb.at && na.surface === nb.surface && na.on === nb.on && na.what === nb.what))
  );
}

/** The record with the person's look at `at`. */
export function withLook(record: AttentionRecord, at: number): AttentionRecord {
  return at > record.seenAt ? { ...record, seenAt: at } : record;
}

/** The record with its wait snoozed (nothing when it shows no wait). */
export function withSnooze(record: AttentionRecord): AttentionRecord {
  return record.wait === null ? record : { ...record, snoozed: { id: record.wait.id, since: record.wait.since } };
}

/** The record with an answer given on the screen of content hash `contentHash`. */
export function withAnswer(record: AttentionRecord, answer: Omit<AnswerMark, 'on'>, contentHash: string): AttentionRecord {
  return { ...record, answered: { ...answer, on: screenMark(contentHash) } };
}

/**
 * What the record and the track say to people. `stuck` is the machine's word that the wait has
 * been held for the threshold: only then can it need anybody.
 */
export function attentionView(record: AttentionRecord, track: PaneTrack, mode: WaitingMode): AttentionView {
  // The track's own wait when the record has not caught up with it yet (a hook between two listings).
  const own = trackWait(track);
  const current = sameWait(record.wait, own);
  const wait = current ? record.wait : own;
  // Until the record catches up with a new wait (a hook between two listings), the machine's words for it.
  const ask = current ? record.ask : wait !== null ? askOf(null, [], track.message) : '';
  const answered = record.answered !== null && track.contentHash !== '' && record.answered.on === screenMark(track.contentHash) ? record.answered : null;
  const snoozed = track.state === 'stuck' && sameWait(record.snoozed, wait);
  const seenAt = record.seenAt > 0 ? record.seenAt : null;
  let need: AttentionNeed = null;
  if (track.state === 'stuck' && wait !== null && answered === null && !snoozed) {
    if (wait.kind === 'permission') need = 'asks';
    else if (mode === 'all' || (mode === 'new' && wait.worked && record.seenAt < wait.since)) need = 'new';
  }
  const encoded = record === EMPTY_RECORD ? '' : encodeAttention(record);
  return { need, seenAt, snoozed, answered, ask: ask === '' ? null : ask, worked: wait?.worked ?? false, record: encoded };
}

export function sameAttention(a: AttentionView, b: AttentionView): boolean {
  return a.need === b.need && a.seenAt === b.seenAt && a.snoozed === b.snoozed && a.answered === b.answered && a.ask === b.ask && a.worked === b.worked && a.record === b.record;
}
