// `corral next`: shows the most urgent waiting pane (the dashboard's first row) on a tmux client,
// from anywhere: a key binding, a shell, a script. The tmux client is the one named, else the one
// this shell runs in, else the most recently active.

import { NoServerError } from '../../engine/tmux/core.js';
import { terminalSafe } from '../../engine/text/terminal-text.js';
import { localHost, openTmux } from '../../engine/tmux/open.js';
import { UsageError } from '../args.js';
import type { Command } from '../command.js';
import { settingsOf } from '../command-settings.js';
import { socketFromSettings } from '../setup.js';
import { AnswerRefusedError, ScreenChangedError } from '../../engine/port/pane-port.js';
import { answerWaiting, ANSWER_BURST_MS, waitingPanes } from '../waiting.js';
import { TMUX_FORMATS } from '../../engine/records/tmux-formats.js';
import { clock, controlTimers } from '../time.js';

export const nextCommand: Command = {
  name: 'next',
  summary: 'switch a tmux client to the most urgent pane that waits for you',
  usage: 'next [--client NAME] [--answer OPTION (--screen TOKEN | --yes)]',
  details: [
    'Finds the pane the dashboard would list first among those that wait (permission before stopped,',
    'each longest waiting first) and switches a tmux client to it: the one --client names, else the',
    'client of the pane this runs in ($TMUX_PANE), else the most recently active one. With --client the',
    'outcome is shown in that client\'s message line (for a key binding); otherwise it is printed.',
    'With --answer OPTION it answers a waiting pane instead, where it stays, and only the prompt you name:',
    'alone, it types nothing and prints the pane it would answer, what that prompt asks, and its screen',
    'token; --screen TOKEN (from that, or `screen` in `corral ls --json`) answers the pane showing that',
    'screen, only while it still does. --yes answers the most urgent pane without naming it: UNSAFE, a',
    'prompt you have not read may be answered; a second --yes within ' + `${ANSWER_BURST_MS / 1000} s that would answer another pane is`,
    'refused (a double tap). Only an answer the prompt offers (1, y, Enter ...) is typed, never on a screen',
    'answered already; otherwise nothing is typed and it says why (exit code 3). Exit code 1 when no pane',
    'waits, 2 when there is no tmux server. In ~/.tmux.conf:',
    '  bind-key N run-shell -b \'corral next --client "#{client_name}"\'',
  ].join('\n'),
  settings: settingsOf('servers', 'engine', 'prompt').filter((key) => key !== 'pollIntervalMs' && key !== 'hosts'),
  flags: [
    { name: 'client', type: 'string', valueName: 'NAME', description: 'the tmux client to switch (#{client_name} in a key binding)' },
    { name: 'answer', type: 'string', valueName: 'OPTION', description: 'answer a waiting pane with one of the answers its prompt offers, instead of switching to it (with --screen or --yes; alone it only says what it would answer)' },
    { name: 'screen', type: 'string', valueName: 'TOKEN', description: 'with --answer: the screen token of the prompt to answer (from a dry run or `corral ls --json`)' },
    { name: 'yes', type: 'boolean', description: 'with --answer: answer the most urgent pane without naming its screen (unsafe: a prompt you have not read may be answered)' },
  ],
  async run({ settings, env, flags, positionals, stdout, stderr }) {
    if (positionals.length > 0) throw new UsageError('corral next takes no arguments');
    const named = typeof flags.client === 'string' ? flags.client : null;
    const opened = openTmux(localHost(socketFromSettings(settings, env)), { formats: TMUX_FORMATS, persistent: false, clock, timers: controlTimers });
    const tmux = opened.client;
    // tmux takes a message for a client it does not have without a word: one that is not there
    // (a stale #{client_name}, a typo) gets the message on stderr, saying so.
    const clientThere = async (name: string): Promise<boolean> => (await tmux.clients.terminalClients().catch(() => [])).some((c) => c.name === name);
    const say = async (text: string, code: number): Promise<number> => {
      if (named !== null && (await clientThere(named))) await tmux.clients.tellClient(named, terminalSafe(`corral: ${text}`)).catch(() => stderr.write(`corral: ${text}\n`));
      else if (named !== null) stderr.write(`corral: ${text} (no tmux client ${named} to tell)\n`);
      else (code === 0 ? stdout : stderr).write(`corral: ${text}\n`);
      return code;
    };
    const answer = async (option: string): Promise<number> => {
      const choice = { screen: typeof flags.screen === 'string' ? flags.screen : null, yes: flags.yes === true };
      const done = await answerWaiting({ ...settings, hosts: [] }, env, stderr, option, choice);
      if (done === null) return say('no pane waits for you', 1);
      if (done.kind === 'no-screen') return say(`no waiting pane shows screen ${done.token} (it changed, or was answered); nothing was typed`, 3);
      const asks = (view: { attention: { ask: string | null }; message: string | null }) => view.attention.ask ?? view.message ?? '';
      if (done.kind === 'would') {
        return say(`would answer ${done.view.target} (${asks(done.view)}) with ${option}; nothing was typed. To answer it: corral next --answer ${option} --screen ${done.token}`, 3);
      }
      if (done.kind === 'burst') return say(`${done.last} was answered a moment ago; not answering ${done.view.target} (${asks(done.view)}) in the same burst; nothing was typed`, 3);
      const { view, plan, others } = done;
      return say(`answered ${view.target} (${view.reason ?? 'stopped'}): sent ${plan.label}${others > 0 ? ` (${others} more waiting)` : ''}`, 0);
    };
    try {
      if (typeof flags.answer === 'string') return await answer(flags.answer);
      if (flags.screen !== undefined || flags.yes !== undefined) throw new UsageError('--screen and --yes go with --answer');
      // Only this server's panes: the client is on it.
      const waiting = await waitingPanes({ ...settings, hosts: [] }, env, stderr);
      const first = waiting.panes[0];
      if (!first) return await say(`no pane waits for you (${waiting.total} watched)`, 1);
      const clients = await tmux.clients.terminalClients();
      const own = env.TMUX_PANE;
      const client = named ?? (own ? clients.find((c) => c.paneId === own)?.name : undefined) ?? clients[0]?.name;
      if (client === undefined) return await say(`no tmux client is attached to ${tmux.serverLabel}; the pane is ${first.target} (${first.paneId})`, 1);
      await tmux.clients.jumpClient(client, first.paneId);
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
