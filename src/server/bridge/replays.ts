// Which requests are a client's own automatic retry of one the bridge is answering or has just
// answered: only those get that answer again, with nothing typed. A retry is a request that says
// it is one: the openai SDKs' `x-stainless-retry-count` above 0 with the same body for the same
// pane of the same tmux server, or an `Idempotency-Key` seen before. Anything else is typed, the
// same words included: a person sending a message again runs the command again.

import { createHash } from 'node:crypto';
import type { FinishReason } from './sse-chunks.js';

/** A request that says it is a retry (retry count, idempotency key) is matched this far back. */
export const DECLARED_RETRY_MS = 10 * 60_000;

export interface RequestMark {
  /** The pane's key and its tmux server (`host/pid:start`): a new server's `%0` is another pane. */
  readonly pane: string;
  readonly server: string;
  readonly body: string;
  /** `x-stainless-retry-count` (0 when absent). */
  readonly retryCount: number;
  readonly idempotencyKey: string | null;
}

export type AnswerEnd = 'finished' | 'cut' | 'failed';

export interface RecordedAnswer {
  /** The completion id of the first answer. */
  readonly id: string;
  readonly answer: string;
  readonly finishReason: FinishReason;
  readonly end: AnswerEnd;
  readonly at: number;
}

/** An answer still streaming: a retry follows it from its start. */
export class LiveAnswer {
  private text = '';
  private readonly listeners = new Set<(text: string) => void>();
  private resolveDone!: (recorded: RecordedAnswer) => void;
  readonly done: Promise<RecordedAnswer> = new Promise((resolve) => (this.resolveDone = resolve));

  constructor(readonly id: string) {}

  get soFar(): string {
    return this.text;
  }

  push(text: string): void {
    this.text += text;
    for (const listener of this.listeners) listener(text);
  }

  /** Calls `listener` with each later piece; returns the function that stops it. */
  follow(listener: (text: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  end(recorded: RecordedAnswer): void {
    this.listeners.clear();
    this.resolveDone(recorded);
  }
}

export type Replay = { readonly kind: 'live'; readonly live: LiveAnswer; readonly why: string } | { readonly kind: 'recorded'; readonly recorded: RecordedAnswer; readonly why: string };

interface Entry {
  readonly mark: RequestMark;
  readonly hash: string;
  live: LiveAnswer | null;
  recorded: RecordedAnswer | null;
}

const KEPT = 200;

export class ReplayDesk {
  private readonly entries: Entry[] = [];

  /** The answer this request retries, or null when it is a new request (to be typed). */
  find(mark: RequestMark, now: number): Replay | null {
    const hash = digest(mark.body);
    for (let i = this.entries.length - 1; i >= 0; i--) {
      const entry = this.entries[i] as Entry;
      if (entry.mark.pane !== mark.pane || entry.mark.server !== mark.server) continue;
      const sameKey = mark.idempotencyKey !== null && entry.mark.idempotencyKey === mark.idempotencyKey;
      const sameBody = entry.hash === hash;
      if (!sameKey && !sameBody) continue;
      // Only a request that says it is a retry is one: the same words from a person run again.
      if (!sameKey && mark.retryCount === 0) return null;
      const why = sameKey ? `Idempotency-Key ${mark.idempotencyKey}` : `x-stainless-retry-count: ${mark.retryCount}`;
      if (entry.live) return { kind: 'live', live: entry.live, why };
      const recorded = entry.recorded;
      if (!recorded) continue;
      if (now - recorded.at <= DECLARED_RETRY_MS) return { kind: 'recorded', recorded, why };
      // The newest matching answer decides: an older one is never replayed past it.
      return null;
    }
    return null;
  }

  /** A request that is being typed and answered. */
  start(mark: RequestMark, id: string): LiveAnswer {
    const live = new LiveAnswer(id);
    this.entries.push({ mark, hash: digest(mark.body), live, recorded: null });
    if (this.entries.length > KEPT) this.entries.splice(0, this.entries.length - KEPT);
    return live;
  }

  /** A request that typed nothing after all (refused, failed before typing): never replayed. */
  drop(live: LiveAnswer): void {
    const index = this.entries.findIndex((e) => e.live === live);
    if (index !== -1) this.entries.splice(index, 1);
    live.end({ id: live.id, answer: '', finishReason: 'stop', end: 'failed', at: 0 });
  }

  finish(live: LiveAnswer, recorded: Omit<RecordedAnswer, 'id'>): void {
    const entry = this.entries.find((e) => e.live === live);
    const full = { ...recorded, id: live.id };
    if (entry) {
      entry.live = null;
      entry.recorded = full;
    }
    live.end(full);
  }
}

function digest(body: string): string {
  return createHash('sha256').update(body).digest('hex');
}
