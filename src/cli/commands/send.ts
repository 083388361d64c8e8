// `corral send PANE ITEM...`: types into a pane. Items that are key names (Enter, C-c, M-x, S-Up,
// F5 ...) are keys, everything else literal text; -l makes every item literal. All items are
// checked before anything is typed.

import { findPane } from '../../engine/pane/pane-lookup.js';
import { NoServerError } from '../../engine/tmux/core.js';
import { parseSendItems } from '../../engine/typing/keys.js';
import { sendKeys, tmuxKeysSink } from '../../engine/typing/type-into-pane.js';
import { localHost, openTmux } from '../../engine/tmux/open.js';
import type { HostSpec } from '../../engine/types.js';
import { UsageError } from '../args.js';
import type { Command } from '../command.js';
import { settingsOf } from '../command-settings.js';
import { checkTmux, socketFromSettings } from '../setup.js';
import { TMUX_FORMATS } from '../../engine/records/tmux-formats.js';
import { clock, controlTimers } from '../time.js';

/** `build-box/%3` -> that host and `%3`; anything without a known host in front is this machine's. */
export function splitHostPane(name: string, hosts: readonly HostSpec[]): { host: HostSpec | null; pane: string } {
  const slash = name.indexOf('/');
  if (slash > 0) {
    const host = hosts.find((h) => h.name === name.slice(0, slash));
    if (host) return { host, pane: name.slice(slash + 1) };
  }
  return { host: null, pane: name };
}

export const sendCommand: Command = {
  name: 'send',
  summary: 'type text and keys into a pane',
  usage: 'send [-l] PANE ITEM...',
  details: [
    'PANE is a pane id (%3), a target (session:window.pane) or an opt-in label;',
    'on a host named with --host, put the host in front: build-box/%3, build-box/work:1.0.',
    'Key names: Enter Esc Tab BTab Space BSpace Up Down Left Right Home End PgUp PgDn Insert Delete F1-F12,',
    'with C- (Ctrl), M- (Alt) and S- (Shift) prefixes: C-c, M-x, S-Up, C-M-Delete. Other items are typed as text.',
    "Example: corral send %3 'git status' Enter",
  ].join('\n'),
  settings: [...settingsOf('servers'), 'prefix'],
  flags: [{ name: 'literal', short: 'l', type: 'boolean', description: 'type every item as literal text' }],
  async run({ settings, env, flags, positionals, stdout, stderr }) {
    const [name, ...rest] = positionals;
    if (name === undefined || rest.length === 0) throw new UsageError('usage: corral send [-l] PANE ITEM...');
    const items = parseSendItems(rest, { literal: flags.literal === true });
    const { host, pane: wanted } = splitHostPane(name, settings.hosts);
    const opened = openTmux(host ?? localHost(socketFromSettings(settings, env)), { formats: TMUX_FORMATS, persistent: false, clock, timers: controlTimers });
    const tmux = opened.client;
    try {
      if (host === null) await checkTmux(tmux, stderr);
      let panes;
      try {
        panes = await tmux.panes.listPanes();
      } catch (error) {
        // No tmux server there, or (another host) ssh could not reach it: say so, type nothing.
        if (error instanceof NoServerError || host !== null) {
          stderr.write(`corral: ${(error as Error).message}\n`);
          return 1;
        }
        throw error;
      }
      const pane = findPane(panes, wanted, settings.prefix);
      if (!pane) {
        stderr.write(`corral: no pane ${JSON.stringify(wanted)} on ${tmux.serverLabel} (see corral ls)\n`);
        return 1;
      }
      await sendKeys(tmuxKeysSink(tmux.io, pane.paneId), items);
      void stdout;
      return 0;
    } finally {
      await opened.close();
    }
  },
};
