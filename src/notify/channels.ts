// What a notification says, once, for every channel: title, message, priority, tags. Pure.

import { hostname } from 'node:os';
import type { Notification } from '../engine/notify/notify-planner.js';

export interface NotificationText {
  readonly title: string;
  readonly message: string;
  /** ntfy priorities: 5 urgent ... 3 default ... 1 min. */
  readonly priority: 3 | 4;
  readonly tags: readonly string[];
  /** For CORRAL_* variables. */
  readonly panes: readonly string[];
  readonly targets: readonly string[];
  readonly reason: string;
  /**
   * CORRAL_MESSAGE: what the pane says, one line, without the target (CORRAL_TARGET has it), so
   * `"$CORRAL_TARGET: $CORRAL_MESSAGE"` names the pane once; a summary: `reason: message` per pane, `; ` between.
   */
  readonly summary: string;
}

export function describeNotification(n: Notification, host: string = hostname()): NotificationText {
  if (n.kind === 'single') {
    const { view, reason, message } = n.item;
    const who = view.label ?? view.target;
    return {
      title: reason === 'permission' ? `${who} asks for permission` : `${who} is waiting for you`,
      message: `${message}\n${view.target} (${view.pane.command}) on ${host}`,
      priority: reason === 'permission' ? 4 : 3,
      tags: reason === 'permission' ? ['warning', 'corral'] : ['hourglass', 'corral'],
      panes: [view.pane.paneId],
      targets: [view.target],
      reason,
      summary: oneLine(message),
    };
  }
  const permission = n.items.filter((i) => i.reason === 'permission').length;
  const lines = n.items.slice(0, 10).map((i) => `${i.view.target}: ${i.reason}: ${i.message}`);
  if (n.items.length > 10) lines.push(`and ${n.items.length - 10} more`);
  return {
    title: `${n.items.length} panes wait for you${permission ? ` (${permission} for permission)` : ''}`,
    message: `${lines.join('\n')}\non ${host}`,
    priority: permission ? 4 : 3,
    tags: ['bell', 'corral'],
    panes: n.items.map((i) => i.view.pane.paneId),
    targets: n.items.map((i) => i.view.target),
    reason: permission === n.items.length ? 'permission' : permission === 0 ? 'stopped' : 'mixed',
    summary: n.items.map((i) => oneLine(`${i.reason}: ${i.message}`)).join('; '),
  };
}

const oneLine = (text: string): string => text.replace(/\s*[\r\n]+\s*/g, ' ').trim();
