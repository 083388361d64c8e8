// What each pane was last asked and answered through the bridge, for the titles and summaries
// corral gives. Kept per pane of one tmux server (the key names both), so a new server's `%0`
// starts with nothing.

export interface Exchange {
  /** The user messages of the conversation, in order; the last one is what was typed. */
  readonly userTurns: readonly string[];
  readonly typed: string;
  readonly answer: string;
  readonly finishReason: 'stop' | 'length';
  readonly at: number;
}

const KEPT_PER_PANE = 20;

export class PaneMemory {
  private readonly byPane = new Map<string, Exchange[]>();

  record(pane: string, exchange: Exchange): void {
    const list = this.byPane.get(pane) ?? [];
    list.push(exchange);
    if (list.length > KEPT_PER_PANE) list.splice(0, list.length - KEPT_PER_PANE);
    this.byPane.set(pane, list);
  }

  /** Most recent first. */
  recent(pane: string, count = KEPT_PER_PANE): Exchange[] {
    return (this.byPane.get(pane) ?? []).slice(-count).reverse();
  }

  forget(pane: string): void {
    this.byPane.delete(pane);
  }
}

/** The memory key of a pane: the pane's key under its tmux server's identity. */
export function memoryKey(server: string | null, key: string): string {
  return `${server ?? '?'}|${key}`;
}
