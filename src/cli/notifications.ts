// Wires notifications for the long-running commands: the notifier on the engine, and, when corral's
// server runs, answer links for ntfy's action buttons (POST /answer/<link> types into the pane).

import type { NotifySettings } from '../engine/settings/config.js';
import type { EngineHandle, EngineStore } from '../engine/types.js';
import { AnswerLinks } from '../server/answers/answer-links.js';
import { createAnswerFeature } from '../server/answers/answer-feature.js';
import { createNotifier, notificationsWanted, type Notifier, type NotifierOptions } from '../notify/notifier.js';
import type { Services } from './http-services.js';
import { clock, notifyTimers } from './time.js';

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
      await services.enable(createAnswerFeature({ links, engine, panes: () => services.panes(), clock }));
      const base = settings.answerUrl ?? services.status().url;
      if (base) actionsFor = (view) => links.actionsFor(view, base, clock.now());
      if (!settings.answerUrl && /\/\/(127\.|localhost|\[::1\])/.test(base ?? '')) {
        log(`corral: ntfy answer buttons point at ${base}, which only this machine reaches; set --answer-url to an address your phone reaches`);
      }
    } else {
      log('corral: ntfy notifications without answer buttons (they need corral serve or the dashboard)');
    }
  }
  return createNotifier({ engine, settings, log, clock, timers: notifyTimers, ...(actionsFor ? { actionsFor } : {}), ...(options.onPush ? { onPush: options.onPush } : {}) });
}
