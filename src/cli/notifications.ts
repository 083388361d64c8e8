// Wires notifications for the long-running commands: the notifier on the engine, and, when corral's
// server runs, answer links for ntfy's action buttons (POST /answer/<link> types into the pane).

import type { NotifySettings } from '../engine/config.js';
import type { Engine } from '../engine/engine.js';
import { AnswerLinks, type AnswerClaims } from '../server/answers/answer-links.js';
import { createAnswerFeature } from '../server/answers/answer-feature.js';
import { createNotifier, notificationsWanted, type Notifier, type NotifierOptions } from '../notify/notifier.js';
import type { Services } from './services.js';

/** Full-screen agents can drop an Enter that arrives with the text. */
const ENTER_DELAY_MS = 100;

/** Types one answer: a key answer is the text (or the Enter key) alone; a line answer is the text, then Enter. */
export async function typeAnswer(engine: Pick<Engine, 'tmux'>, claims: AnswerClaims): Promise<void> {
  const { tmux } = engine;
  if (claims.answer === 'Enter') {
    await tmux.send(claims.pane, [{ kind: 'key', key: 'Enter' }]);
    return;
  }
  await tmux.send(claims.pane, [{ kind: 'text', text: claims.answer }]);
  if (claims.kind === 'line') {
    await new Promise((resolve) => setTimeout(resolve, ENTER_DELAY_MS));
    await tmux.send(claims.pane, [{ kind: 'key', key: 'Enter' }]);
  }
}

export interface NotificationsOptions {
  readonly engine: Engine;
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
      await services.enable(createAnswerFeature({ links, engine, answer: (claims) => typeAnswer(engine, claims) }));
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
