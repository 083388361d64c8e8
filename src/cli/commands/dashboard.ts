// `corral dashboard` (also `corral` alone): the Ink dashboard on a tmux server. Without a running
// server (and without -L/-S) it falls back to the demo, labelled as such.

import { statusBadge } from '../../engine/pane/pane-status.js';
import type { Command } from '../command.js';
import { ALL_SETTINGS } from '../command-settings.js';
import { loadDashboard } from '../load-dashboard.js';
import { checkDaemonUrl, connectDaemon } from '../daemon-sink.js';
import { createDashboardServices } from '../dashboard-services.js';
import { bellMode, dashboardServiceOptions, requireTerminal } from '../dashboard-options.js';
import { remoteHosts, setupEngine } from '../setup.js';
import { runDemo } from './demo.js';
import { notificationsWanted, notifyRules, type Notifier } from '../../notify/notifier.js';
import { finishesWithin } from '../lifecycle.js';
import { killChildren } from '../../engine/tmux/child-processes.js';
import { terminalSafe } from '../../engine/text/terminal-text.js';

export const dashboardCommand: Command = {
  name: 'dashboard',
  summary: 'the live dashboard: which panes wait for you; answer them from the keyboard',
  usage: 'dashboard [OPTIONS]',
  details: [
    `Lists every pane with a state badge (${(['stuck', 'quiet', 'active', 'snoozed'] as const).map((status) => statusBadge(status, null)).join(' / ')}) and a live quiet timer,`,
    'previews the selected pane and answers it. Press ? inside for all keys, q to quit.',
    'Tip: bind C display-popup -E -w 90% -h 80% corral   (in ~/.tmux.conf)',
    'With no tmux server running (and no -L/-S), it starts the demo instead.',
  ].join('\n'),
  // Every setting but what only an MCP server reads.
  settings: ALL_SETTINGS.filter((key) => key !== 'allowTyping'),
  flags: [],
  async run({ settings, env, stdout, stderr, lifecycle }) {
    requireTerminal(stdout);
    if (notificationsWanted(settings)) notifyRules(settings);
    checkDaemonUrl(settings.daemonUrl);
    // Ink and React load only for the dashboard, not for ls/send/watch; start now, in parallel.
    const session = loadDashboard();
    const setup = await setupEngine(settings, env, stderr, { persistent: true });
    const { selfPaneId, insideServer, tmux, hosts } = setup;
    const engine = { ...setup.engine, tmux, remotes: remoteHosts(hosts) };
    const explicitServer = settings.socketName !== null || settings.socketPath !== null || hosts.size > 1;
    if (!explicitServer && !(await tmux.panes.hasServer())) {
      await engine.stop();
      return runDemo({ settings, env, stderr, lifecycle, label: 'DEMO (no tmux server of yours is running)' });
    }
    // A daemon that goes down is told in tmux's message line: stderr would scribble over the dashboard.
    connectDaemon(engine, settings, (line) => void tmux.clients.displayMessage(terminalSafe(line)).catch(() => {}), lifecycle);
    // Look at the server while Ink loads: the first frame can then list the panes.
    engine.start();
    const { runDashboard, QUIT_BUDGET_MS } = await session.catch(async (error: unknown) => {
      await engine.stop();
      throw error;
    });
    const services = createDashboardServices(engine, settings, env);
    // Agent hooks reach the dashboard when it can listen; without them it watches the screen alone.
    // Notifications start after, so answer buttons can use the same server. (Their log lines would
    // only scribble over the dashboard: a failing channel stays silent here.)
    let notifier: Notifier | null = null;
    const started = services.startHooks().then(async () => {
      const { startNotifications } = await import('../notifications.js');
      notifier = await startNotifications({ engine, settings, services: services.services, log: () => {} });
    });
    try {
      return await runDashboard({ engine, pollMs: settings.pollIntervalMs, selfPaneId, insideServer, bell: bellMode(settings), env, lifecycle, ...dashboardServiceOptions(services) });
    } finally {
      // Bounded like the engine's stop (QUIT_BUDGET_MS): what is still running after it is killed.
      await finishesWithin(started, QUIT_BUDGET_MS / 4);
      (notifier as Notifier | null)?.close();
      if (!(await finishesWithin(services.close(), QUIT_BUDGET_MS / 4))) killChildren();
    }
  },
};
