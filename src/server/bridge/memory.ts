// What each pane was last asked and answered through the bridge. It decides whether a request
// carries a new message from the person (typed) or repeats a conversation already answered
// (a retry, answered again without typing), and it feeds the titles and summaries corral gives.

export interface Exchange {
  /** The user messages of the conversation, in order; the last one is what was typed. */
  readonly userTurns: readonly string[];
  readonly typed: string;
  readonly answer: string;
  readonly finishReason: 'stop' | 'length';
  readonly at: number;
}

/** A retry must come this soon after the answer it repeats; later, the same words run again. */
export const RETRY_WINDOW_MS = 10 * 60_000;
const KEPT_PER_PANE = 20;

export class PaneMemory {
  private readonly byPane = new Map<string, Exchange[]>();

  record(paneId: string, exchange: Exchange): void {
    const list = this.byPane.get(paneId) ?? [];
    list.push(exchange);
    if (list.length > KEPT_PER_PANE) list.splice(0, list.length - KEPT_PER_PANE);
    this.byPane.set(paneId, list);
  }

  /** Most recent first. */
  recent(paneId: string, count = KEPT_PER_PANE): Exchange[] {
    return (this.byPane.get(paneId) ?? []).slice(-count).reverse();
  }

  /**
   * The pane's last exchange when `userTurns` is the same conversation again (every user message
   * the same, none new) and it came within the retry window; otherwise null.
   */
  retryOf(paneId: string, userTurns: readonly string[], now: number): Exchange | null {
    const last = this.byPane.get(paneId)?.at(-1);
    if (!last || now - last.at > RETRY_WINDOW_MS) return null;
    if (last.userTurns.length !== userTurns.length) return null;
    return last.userTurns.every((turn, i) => turn === userTurns[i]) ? last : null;
  }

  forget(paneId: string): void {
    this.byPane.delete(paneId);
  }
}
