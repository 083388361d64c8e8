// What the dashboard and the demo share on the way to runDashboard: the terminal check, the bell
// setting and the service toggles. Both commands import it, so neither imports the other.

import type { DashboardSettings } from '../engine/settings/config.js';
import { UsageError } from './args.js';
import type { BellMode } from './dashboard-session.js';
import type { DashboardServices } from './dashboard-services.js';

/** The dashboard needs a terminal on both ends; anything else gets a sentence and exit code 2. */
export function terminalProblem(stdin: NodeJS.ReadableStream, stdout: NodeJS.WritableStream): string | null {
  if (!(stdout as { isTTY?: boolean }).isTTY)
    return 'the dashboard needs a terminal, but stdout is not one; for a plain list try: corral ls';
  if (!(stdin as { isTTY?: boolean }).isTTY)
    return 'the dashboard needs a terminal to read keys from, but stdin is not one; for a plain list try: corral ls';
  return null;
}

/** Stops a dashboard command that has no terminal: a usage error (exit 2) with the sentence above. */
export function requireTerminal(stdout: NodeJS.WritableStream): void {
  const problem = terminalProblem(process.stdin, stdout);
  if (problem) throw new UsageError(problem);
}

export function bellMode(settings: Pick<DashboardSettings, 'bell'>): BellMode {
  return settings.bell;
}

/** What runDashboard needs from the services: their state, the b / w toggles and the pane port. */
export function dashboardServiceOptions(services: DashboardServices) {
  return { services: services.store, toggleBridge: services.toggleBridge, toggleAttach: services.toggleAttach, panes: services.panes };
}
