// Wires notifications for the long-running commands: the notifier on the engine, and, when corral's
// server runs, answer links for ntfy's action buttons (POST /answer/<link> types into the pane).

import type { NotifySettings } from '../engine/config.js';
import type { PanePort } from '../engine/pane-port.js';
import type { EngineHandle, EngineStore } from '../engine/types.js';
import { AnswerLinks, type AnswerClaims } from '../server/answers/answer-links.js';
import { createAnswerFeature } from '../server/answers/answer-feature.js';
import { createNotifier, notificationsWanted, type Notifier, type NotifierOptions } from '../notify/notifier.js';
import type { Services } from './services.js';

/**
 * Types one answer: a key answer is the text (or the Enter key) alone; a line answer is the text,
 * then Enter. Only while the pane shows the screen the link was made for (read again first).
 */
export async function typeAnswer(panes: Pick<PanePort, 'send' | 'reply'>, claims: AnswerClaims): Promise<void> {
  const guard = { shownHash: claims.screen };
  if (claims.answer === 'Enter') await panes.send(claims.pane, [{ kind: 'key', key: 'Enter' }], guard);
  else if (claims.kind === 'line') await panes.reply(claims.pane, claims.answer, guard);
  else await panes.send(claims.pane, [{ kind: 'text', text: claims.answer }], guard);
}

export interface NotificationsOptions {
  readonly engine: EngineStore & Pick<EngineHandle, 'onEvent' | 'pollNow'>;
  readonly settings: NotifySettings;
  /** corral's HTTP services, when this command runs them (answer buttons need them). */
  readonly services: Services | null;
  readonly log: (line: string) => void;
  readonly onPush?: NotifierOptions['onPush'];
}

/** Starts the notifier when a channel is configured; null otherwise. */
export async function startNotifications(options: NotificationsOptions): Promise<Notifier | null> {
  const { engine, settings, services, log } = options;
  if (!notificationsWanted(settings)) return null;
  let actionsFor: NotifierOptions['actionsFor'];
  if (settings.ntfyUrl) {
    if (services) {
      const links = new AnswerLinks(settings.answerTtlMs);
      await services.enable(createAnswerFeature({ links, engine, answer: (claims) => typeAnswer(services.panes(), claims) }));
      const base = settings.answerUrl ?? services.status().url;
      if (base) actionsFor = (view) => links.actionsFor(view, base, Date.now());
      if (!settings.answerUrl && /\/\/(127\.|localhost|\[::1\])/.test(base ?? '')) {
        log(`corral: ntfy answer buttons point at ${base}, which only this machine reaches; set --answer-url to an address your phone reaches`);
      }
    } else {
      log('corral: ntfy notifications without answer buttons (they need corral serve or the dashboard)');
    }
  }
  return createNotifier({ engine, settings, log, ...(actionsFor ? { actionsFor } : {}), ...(options.onPush ? { onPush: options.onPush } : {}) });
}
