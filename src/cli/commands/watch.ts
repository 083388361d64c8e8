// `corral watch`: the headless detector. stdout is JSON Lines (one event a line, nothing else);
// diagnostics go to stderr. Runs until SIGINT/SIGTERM.

import { REASON_MEANINGS, STATUS_MEANINGS, statusBadge } from '../../engine/pane/pane-status.js';
import type { EngineStatus, HostState } from '../../engine/types.js';
import type { Command } from '../command.js';
import { settingsOf } from '../command-settings.js';
import { checkDaemonUrl, connectDaemon } from '../daemon-sink.js';
import { setupEngine } from '../setup.js';
import { hostProblem } from '../../engine/hosts/host-status.js';
import { notificationsWanted, notifyRules } from '../../notify/notifier.js';
import { terminalSafeJson } from '../../engine/text/terminal-text.js';
import { lineLog } from '../log-lines.js';

export const watchCommand: Command = {
  name: 'watch',
  summary: 'headless detector: print events as JSON Lines',
  usage: 'watch [OPTIONS]',
  details: [
    'Prints one JSON object per line on stdout for every event: registered, stuck, unstuck, ended.',
    'Each has type, host, key, sessionId (tmux-%ID-<ms>), paneId and timestamp (ms); stuck adds reason and message.',
    'key is the pane id (%3) on this machine and HOST/%3 on a host named with --host; a host that goes down ends its panes (why: host-gone).',
    `stuck: ${STATUS_MEANINGS.stuck}; the dashboard and ls show it as ${statusBadge('stuck', 'permission')} (${REASON_MEANINGS.permission})`,
    `or ${statusBadge('stuck', 'stopped')} (${REASON_MEANINGS.stopped}). unstuck: its wait ended (another prompt, none, or new output).`,
    'With --daemon-url the same events are POSTed there, queued while the daemon is down.',
    'Notifications: --on-stuck CMD, --notify-desktop, --ntfy TOPIC_URL (without answer buttons here).',
    'Example: corral watch --quiet-threshold 10000 | jq -c \'select(.type == "stuck")\'',
  ].join('\n'),
  settings: settingsOf('servers', 'engine', 'prompt', 'notify', 'events', 'status'),
  flags: [],
  async run({ settings, env, stdout, stderr, lifecycle }) {
    checkDaemonUrl(settings.daemonUrl);
    if (notificationsWanted(settings)) notifyRules(settings);
    const { engine } = await setupEngine(settings, env, stderr, { persistent: true });
    const notifier = notificationsWanted(settings)
      ? await (await import('../notifications.js')).startNotifications({ engine, settings, services: null, log: lineLog(stderr, '') })
      : null;
    engine.onEvent((event) => stdout.write(`${terminalSafeJson(event)}\n`));
    // Before the engine's own step: the shutdown stack runs last in, first out, so the queue
    // delivers what it holds once the engine has stopped.
    connectDaemon(engine, settings, (line) => stderr.write(`${line}\n`), lifecycle);
    let lastStatus: EngineStatus = 'starting';
    const hostStates = new Map<string, HostState>();
    engine.subscribe(() => {
      const { status, statusMessage, server, hosts } = engine.getSnapshot();
      // Remote hosts: each change of state is told once (the local host speaks through the status).
      for (const host of hosts.slice(1)) {
        const before = hostStates.get(host.name) ?? 'connecting';
        hostStates.set(host.name, host.state);
        if (host.state === before) continue;
        if (host.state === 'connected') stderr.write(`corral: ${host.name} is connected\n`);
        else if (host.state !== 'connecting') stderr.write(`corral: ${hostProblem(host)}; retrying\n`);
      }
      if (status === lastStatus) return;
      if (status === 'no-server') stderr.write(`corral: ${statusMessage}; waiting for one to start\n`);
      else if (status === 'error' || status === 'no-tmux') stderr.write(`corral: ${statusMessage}\n`);
      else if (status === 'ok' && lastStatus !== 'starting') stderr.write(`corral: tmux server on ${server} is available\n`);
      lastStatus = status;
    });
    lifecycle.onShutdown('the engine', () => engine.stop());
    // Last in, first out: notifications stop before the engine does.
    if (notifier) lifecycle.onShutdown('notifications', () => notifier.close());
    engine.start();
    await lifecycle.untilStopped();
    return 0;
  },
};
