// The person's terminal clients on a server (`client.clients`): which there are and what they show,
// moving one to a pane, and messages in a client's status line or tmux's message line.

import type { PaneInfo } from '../types.js';
import { chain, escapeArg, escapeFormat } from './command-line.js';
import { NoClientError, type TmuxCore } from './core.js';
import { assertPaneId } from './pane-id.js';
import { runChecked } from './runner.js';

export interface TerminalClient {
  readonly name: string;
  readonly tty: string;
  readonly sessionId: string;
  readonly paneId: string;
}

export class TerminalClients {
  constructor(private readonly core: TmuxCore) {}

  /**
   * Moves a person's tmux client to the target pane, across sessions: the client that shows
   * `fromPaneId` (corral's own pane), else the one used most recently (corral in a popup, or in a
   * pane no client shows). Throws NoClientError when no terminal client is attached at all.
   */
  async switchClientTo(target: PaneInfo, fromPaneId: string | null): Promise<void> {
    assertPaneId(target.paneId);
    const client = ['-c', await this.clientOf(fromPaneId)];
    await this.core.checked(
      target.paneId,
      chain([
        ['switch-client', ...client, '-t', target.sessionId],
        ['select-window', '-t', target.windowId],
        ['select-pane', '-t', target.paneId],
      ]),
    );
  }

  /**
   * The terminal clients attached to this server (never a control-mode one, such as corral's own
   * connection), most recently active first: name, tty, session id and current pane.
   */
  async terminalClients(): Promise<TerminalClient[]> {
    const { framing } = this.core;
    const sep = framing.fieldSep;
    const format = ['#{client_activity}', '#{client_control_mode}', '#{client_name}', '#{client_tty}', '#{session_id}', '#{pane_id}'].join(sep) + framing.recordEnd;
    const out = await runChecked(this.core.runner, ['list-clients', '-F', format]);
    return out
      .split(framing.recordEnd)
      .map((record) => record.replace(/^\n/, '').split(sep))
      .filter((f) => f.length === 6 && f[1] === '0')
      .sort((a, b) => Number(b[0]) - Number(a[0]))
      .map((f) => ({ name: f[2]!, tty: f[3]!, sessionId: f[4]!, paneId: f[5]! }));
  }

  /**
   * The pane each attached terminal client shows, with the client's last key press (epoch ms, to
   * the second); corral's own control connections are left out. Over the poll's connection.
   */
  async clientViews(): Promise<Array<{ readonly paneId: string; readonly activity: number }>> {
    const out = await runChecked(this.core.commandRunner, ['list-clients', '-F', '#{client_control_mode} #{pane_id} #{client_activity}']);
    const views: Array<{ paneId: string; activity: number }> = [];
    for (const line of out.split('\n')) {
      const [control, paneId = '', activity = ''] = line.split(' ');
      if (control === '0' && /^%\d+$/.test(paneId) && /^\d+$/.test(activity)) views.push({ paneId, activity: Number(activity) * 1000 });
    }
    return views;
  }

  /** Shows the pane on a client: its session, its window, the pane itself, in one step. */
  async jumpClient(client: string, paneId: string): Promise<void> {
    assertPaneId(paneId);
    await this.core.checked(
      paneId,
      chain([
        ['switch-client', '-c', client, '-t', paneId],
        ['select-window', '-t', paneId],
        ['select-pane', '-t', paneId],
      ]),
    );
  }

  /**
   * A message in a client's status line (a key binding has no other place to say something).
   * `safeText` is already terminal-safe (the caller runs it through terminal-text.ts).
   */
  async tellClient(client: string, safeText: string): Promise<void> {
    await runChecked(this.core.runner, ['display-message', '-c', client, escapeArg(escapeFormat(safeText))]);
  }

  /** A message in tmux's message line; `safeText` is already terminal-safe (terminal-text.ts), so control characters are shown, never sent. */
  async displayMessage(safeText: string): Promise<void> {
    await runChecked(this.core.runner, ['display-message', escapeArg(escapeFormat(safeText))]);
  }

  /**
   * The terminal client (never a control-mode one, such as corral's own poll connection) that
   * shows `paneId`, else the most recently active one, wherever it is attached.
   */
  private async clientOf(paneId: string | null): Promise<string> {
    if (paneId !== null) assertPaneId(paneId);
    const sep = this.core.framing.fieldSep;
    const fields = ['#{client_name}', '#{client_control_mode}', '#{pane_id}', '#{client_activity}'];
    const out = await runChecked(this.core.runner, ['list-clients', '-F', fields.join(sep)]);
    return pickClient(out, sep, paneId);
  }
}

/**
 * From a `list-clients` listing (name, control mode, current pane, last activity): the terminal
 * client showing `paneId`, else the one with the latest activity.
 */
export function pickClient(listing: string, sep: string, paneId: string | null): string {
  const clients = listing
    .split('\n')
    .map((line) => line.split(sep))
    .filter((f) => f.length === 4 && f[1] === '0')
    .map(([name, , pane, activity]) => ({ name: name as string, pane: pane as string, activity: Number(activity) || 0 }));
  const showing = paneId === null ? undefined : clients.find((c) => c.pane === paneId);
  const recent = clients.reduce<(typeof clients)[number] | undefined>((best, c) => (best === undefined || c.activity > best.activity ? c : best), undefined);
  const client = showing ?? recent;
  if (!client) throw new NoClientError();
  return client.name;
}
