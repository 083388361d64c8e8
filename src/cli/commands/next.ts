// `corral next`: shows the most urgent waiting pane (the dashboard's first row) on a tmux client,
// from anywhere: a key binding, a shell, a script. The tmux client is the one named, else the one
// this shell runs in, else the most recently active.

import { NoServerError } from '../../engine/tmux/client.js';
import { localHost, openTmux } from '../../engine/tmux/open.js';
import { UsageError } from '../args.js';
import type { Command } from '../command.js';
import { settingsOf } from '../command-settings.js';
import { socketFromSettings } from '../setup.js';
import { AnswerRefusedError, ScreenChangedError } from '../../engine/pane-port.js';
import { answerMostUrgent, waitingPanes } from '../waiting.js';

export const nextCommand: Command = {
  name: 'next',
  summary: 'switch a tmux client to the most urgent pane that waits for you',
  usage: 'next [--client NAME] [--answer OPTION]',
  details: [
    'Finds the pane the dashboard would list first among those that wait (permission before stopped,',
    'each longest waiting first) and switches a tmux client to it: the one --client names, else the',
    'client of the pane this runs in ($TMUX_PANE), else the most recently active one. With --client the',
    'outcome is shown in that client\'s message line (for a key binding); otherwise it is printed.',
    'With --answer OPTION it answers that pane instead, where it stays: only with an answer its prompt',
    'offers (1, y, Enter ...), and only while it shows the screen corral just read (guarded, like the',
    'dashboard\'s quick answers); otherwise nothing is typed and it says why (exit code 3).',
    'Exit code 1 when no pane waits. In ~/.tmux.conf:',
    '  bind-key N run-shell -b \'corral next --client "#{client_name}"\'',
    '  bind-key Y run-shell -b \'corral next --client "#{client_name}" --answer 1\'',
  ].join('\n'),
  settings: settingsOf('servers', 'engine', 'prompt').filter((key) => key !== 'pollIntervalMs' && key !== 'hosts'),
  flags: [
    { name: 'client', type: 'string', valueName: 'NAME', description: 'the tmux client to switch (#{client_name} in a key binding)' },
    { name: 'answer', type: 'string', valueName: 'OPTION', description: 'answer the most urgent waiting pane with one of the answers its prompt offers, instead of switching to it' },
  ],
  async run({ settings, env, flags, positionals, stdout, stderr }) {
    if (positionals.length > 0) throw new UsageError('corral next takes no arguments');
    const named = typeof flags.client === 'string' ? flags.client : null;
    const opened = openTmux(localHost(socketFromSettings(settings, env)), { persistent: false });
    const tmux = opened.client;
    // tmux takes a message for a client it does not have without a word: one that is not there
    // (a stale #{client_name}, a typo) gets the message on stderr, saying so.
    const clientThere = async (name: string): Promise<boolean> => (await tmux.terminalClients().catch(() => [])).some((c) => c.name === name);
    const say = async (text: string, code: number): Promise<number> => {
      if (named !== null && (await clientThere(named))) await tmux.tellClient(named, `corral: ${text}`).catch(() => stderr.write(`corral: ${text}\n`));
      else if (named !== null) stderr.write(`corral: ${text} (no tmux client ${named} to tell)\n`);
      else (code === 0 ? stdout : stderr).write(`corral: ${text}\n`);
      return code;
    };
    const answer = async (option: string): Promise<number> => {
      const done = await answerMostUrgent({ ...settings, hosts: [] }, env, stderr, option);
      if (done === null) return say('no pane waits for you', 1);
      const { view, plan, others } = done;
      return say(`answered ${view.target} (${view.reason ?? 'stopped'}): sent ${plan.label}${others > 0 ? ` (${others} more waiting)` : ''}`, 0);
    };
    try {
      if (typeof flags.answer === 'string') return await answer(flags.answer);
      // Only this server's panes: the client is on it.
      const waiting = await waitingPanes({ ...settings, hosts: [] }, env, stderr);
      const first = waiting.panes[0];
      if (!first) return await say(`no pane waits for you (${waiting.total} watched)`, 1);
      const clients = await tmux.terminalClients();
      const own = env.TMUX_PANE;
      const client = named ?? (own ? clients.find((c) => c.paneId === own)?.name : undefined) ?? clients[0]?.name;
      if (client === undefined) return await say(`no tmux client is attached to ${tmux.serverLabel}; the pane is ${first.target} (${first.paneId})`, 1);
      await tmux.jumpClient(client, first.paneId);
      const others = waiting.panes.length - 1;
      return await say(`${first.target}: ${first.reason}${others > 0 ? ` (${others} more waiting)` : ''}`, 0);
    } catch (error) {
      if (error instanceof NoServerError) return say(error.message, 2);
      if (error instanceof AnswerRefusedError || error instanceof ScreenChangedError) return say(error.message, 3);
      throw error;
    } finally {
      await opened.close();
    }
  },
};
