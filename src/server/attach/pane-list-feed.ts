// The page's pane list, served once (GET /api/panes) or as a stream of server-sent events
// (/api/panes/events). One list per second (or soon after a snapshot change) for every open page:
// states such as "active" turn into "quiet" with time alone. A page is sent a list only when
// something besides the quiet times changed, or every 30 s so its timers stay honest.

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Clock, EngineStore, Timers } from '../../engine/types.js';
import { repeatEvery } from '../../engine/time/repeat-every.js';
import type { Access } from './auth.js';
import { listPanes, listShape, type PaneList } from './pane-list.js';
import { SECURITY_HEADERS } from './page-files.js';
import type { SessionConnections } from './session-routes.js';

export interface PaneListFeedOptions {
  readonly store: EngineStore;
  readonly clock: Clock;
  /** For the lists, the pushes after a change and the streams' keep-alives. */
  readonly timers: Timers;
  /** Whether a request with this access may type (its list then offers quick answers). */
  readonly mayWrite: (access: Access) => boolean;
  readonly allowResize: boolean;
  /** Open streams by browser session: a session that ends ends its streams. */
  readonly live: SessionConnections;
}

type Lists = Map<boolean, PaneList>;

export class PaneListFeed {
  private readonly listeners = new Set<(lists: Lists) => void>();
  private stopLists: (() => void) | null = null;
  private pendingPush: unknown = null;
  private unsubscribe: (() => void) | null = null;

  constructor(private readonly options: PaneListFeedOptions) {}

  /** The list as a request with `access` sees it now. */
  list(access: Access): PaneList {
    const write = this.options.mayWrite(access);
    return listPanes(this.options.store.getSnapshot(), this.options.clock.now(), {
      write,
      resize: write && this.options.allowResize,
    });
  }

  /** Streams the list to one page until it goes away or its session ends. */
  stream(req: IncomingMessage, res: ServerResponse, access: Access): void {
    const forget = this.options.live.add(access, () => res.end());
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
      ...SECURITY_HEADERS,
    });
    // HEAD asks for the head alone: there is no stream to keep open.
    if (req.method === 'HEAD') {
      forget();
      return void res.end();
    }
    let lastShape = '';
    let lastSent = 0;
    const push = (list: PaneList) => {
      const shape = listShape(list);
      const now = this.options.clock.now();
      if (shape === lastShape && now - lastSent < 30_000) return;
      lastShape = shape;
      lastSent = now;
      res.write(`data: ${JSON.stringify(list)}\n\n`);
    };
    push(this.list(access));
    const stop = this.listen((lists) => push(lists.get(this.options.mayWrite(access)) as PaneList));
    const stopKeepAlive = repeatEvery(this.options.timers, 15_000, () => res.write(': keep-alive\n\n'));
    const end = () => {
      stop();
      forget();
      stopKeepAlive();
    };
    req.on('close', end);
    res.on('close', end);
  }

  /** Stops every stream's updates (the server is stopping). */
  close(): void {
    this.listeners.clear();
    this.idle();
  }

  /** Builds the read-only and the writing list once for every open page. */
  private readonly broadcast = (): void => {
    this.pendingPush = null;
    const lists: Lists = new Map();
    for (const write of [false, true]) lists.set(write, this.list({ write, via: 'session', sessionId: null }));
    for (const listener of [...this.listeners]) listener(lists);
  };

  private listen(listener: (lists: Lists) => void): () => void {
    this.listeners.add(listener);
    if (this.listeners.size === 1) {
      this.stopLists = repeatEvery(this.options.timers, 1000, this.broadcast);
      // Snapshots can come many times a second; the page needs at most a few updates per second.
      this.unsubscribe = this.options.store.subscribe(() => {
        this.pendingPush ??= this.options.timers.setTimeout(this.broadcast, 150);
      });
    }
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0) this.idle();
    };
  }

  private idle(): void {
    this.stopLists?.();
    if (this.pendingPush !== null) this.options.timers.clearTimeout(this.pendingPush);
    this.stopLists = null;
    this.pendingPush = null;
    this.unsubscribe?.();
    this.unsubscribe = null;
  }
}
