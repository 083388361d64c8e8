// `POST /answer/<link>`: what a notification's action button calls. The link is the credential:
// signed, short-lived, single use, bound to one pane and one screen. Before typing, the pane is
// looked at afresh; a screen that changed since the notification (answered at the keyboard, moved
// on) refuses the link, so an answer never lands on a prompt the person did not see.

import { AnswerRefusedError, ScreenChangedError, type PanePort } from '../../engine/port/pane-port-api.js';
import type { EngineStore } from '../../engine/types.js';
import { decodeComponent, errorBody, sendJson, type HttpFeature } from '../http-server.js';
import type { AnswerLinks } from './answer-links.js';
import type { Clock } from '../../engine/types.js';

export const ANSWERS_FEATURE = 'answers';

export interface AnswerFeatureOptions {
  readonly links: AnswerLinks;
  readonly engine: EngineStore & { pollNow(): Promise<void> };
  /** The pane port the answer is given through (its guarded `answer`, the one every surface uses). */
  readonly panes: () => Pick<PanePort, 'answer'>;
  readonly clock: Clock;
}

export function createAnswerFeature(options: AnswerFeatureOptions): HttpFeature {
  const { links, engine } = options;
  const { clock } = options;
  const now = () => clock.now();
  return {
    name: ANSWERS_FEATURE,
    matches: (url) => url.pathname.startsWith('/answer/'),
    async handleRequest({ req, res, url }) {
      req.resume();
      const refuse = (status: number, code: string, message: string, headers: Record<string, string> = {}) =>
        sendJson(res, status, errorBody(message, 'invalid_request_error', code), headers);
      if (req.method !== 'POST') return refuse(405, 'method_not_allowed', 'answer links take POST', { allow: 'POST' });
      const link = decodeComponent(url.pathname.slice('/answer/'.length));
      if (link === null) return refuse(404, 'bad_link', 'this is not an answer link');
      const verified = links.verify(link, now());
      if (!verified.ok) return refuse(verified.status, verified.code, verified.message);
      const { claims } = verified;
      // Single use from here on, whatever happens next: a second tap is always refused.
      if (!links.consume(claims, now())) return refuse(409, 'already_answered', 'this notification has been answered already');
      await engine.pollNow();
      const view = engine.getSnapshot().panes.find((v) => v.key === claims.pane);
      if (!view) return refuse(404, 'pane_gone', `pane ${claims.pane} is gone`);
      if (!view.online) return refuse(503, 'host_unreachable', `${view.host} is unreachable: not sent`, { 'retry-after': '5' });
      if (view.contentHash !== claims.screen) return refuse(409, 'stale_screen', `pane ${claims.pane} shows another screen now; nothing was typed`);
      try {
        await options.panes().answer(claims.pane, claims.answer, { shownHash: claims.screen, target: view.target, surface: 'link' });
      } catch (error) {
        // Read again right before typing, the pane showed another screen after all.
        if (error instanceof ScreenChangedError) return refuse(409, 'stale_screen', `pane ${claims.pane} shows another screen now; nothing was typed`);
        if (error instanceof AnswerRefusedError) return refuse(409, 'stale_screen', `${error.message}; nothing was typed`);
        throw error;
      }
      void engine.pollNow().catch(() => {});
      sendJson(res, 200, { answered: claims.pane, target: view.target, sent: claims.answer, kind: claims.kind });
    },
  };
}
