// `corral end PANE`: ends a pane (tmux kill-pane) after naming it and asking, or at once with
// --yes. Only the pane that was named and shown is ended: pane-launch.ts checks it is still there
// and still runs the same process.

import { createInterface } from 'node:readline/promises';
import { findPane } from '../../engine/pane/pane-lookup.js';
import { endPane } from '../../engine/launch/pane-launch.js';
import { terminalSafe } from '../../engine/text/terminal-text.js';
import { paneTarget } from '../../engine/tmux/command-line.js';
import { localHost, openTmux } from '../../engine/tmux/open.js';
import type { PaneInfo } from '../../engine/types.js';
import { UsageError } from '../args.js';
import type { Command } from '../command.js';
import { settingsOf } from '../command-settings.js';
import { checkTmux, socketFromSettings } from '../setup.js';
import { splitHostPane } from './send.js';
import { TMUX_FORMATS } from '../../engine/records/tmux-formats.js';
import { clock, controlTimers } from '../time.js';

/** `main:1.0 on build-box (claude · fix the tests)`, terminal-safe. */
export function describeEnding(pane: PaneInfo, host: string | null): string {
  const named = [pane.command, pane.title.trim() === '' || pane.title === pane.command ? null : pane.title].filter((part) => part !== null).join(' · ');
  return terminalSafe(`${paneTarget(pane)}${host === null ? '' : ` on ${host}`} (${pane.paneId}${named === '' ? '' : `: ${named}`})`);
}

/** Asks on the terminal; true only for y or yes. */
async function confirmed(question: string, stderr: NodeJS.WritableStream): Promise<boolean> {
  const reader = createInterface({ input: process.stdin, output: stderr });
  try {
    return /^y(es)?$/i.test((await reader.question(question)).trim());
  } finally {
    reader.close();
  }
}

export const endCommand: Command = {
  name: 'end',
  summary: 'end a pane (tmux kill-pane) after naming it and asking, or at once with --yes',
  usage: 'end [--yes] PANE',
  details: [
    'PANE is a pane id (%3), a target (session:window.pane) or an opt-in label; build-box/%3 on a',
    'host named with --host. The pane and the programs in it end (tmux sends them SIGHUP).',
    'Without --yes it names the pane and asks on the terminal; without a terminal it refuses.',
    'Exit code 0 ended, 1 not ended (no such pane, it changed, or the answer was not y), 2 usage.',
  ].join('\n'),
  settings: [...settingsOf('servers'), 'prefix'],
  flags: [{ name: 'yes', short: 'y', type: 'boolean', description: 'end it without asking' }],
  async run({ settings, env, flags, positionals, stdout, stderr }) {
    const [name, ...rest] = positionals;
    if (name === undefined || rest.length > 0) throw new UsageError('usage: corral end [--yes] PANE');
    if (flags.yes !== true && !process.stdin.isTTY) throw new UsageError('corral end asks before it ends a pane: run it in a terminal, or add --yes');
    const { host, pane: wanted } = splitHostPane(name, settings.hosts);
    const opened = openTmux(host ?? localHost(socketFromSettings(settings, env)), { formats: TMUX_FORMATS, persistent: false, clock, timers: controlTimers });
    try {
      if (host === null) await checkTmux(opened.client, stderr);
      const pane = findPane(await opened.client.panes.listPanes(), wanted, settings.prefix);
      if (!pane) {
        stderr.write(`corral: no pane ${terminalSafe(JSON.stringify(wanted))} on ${terminalSafe(opened.client.serverLabel)} (see corral ls)\n`);
        return 1;
      }
      const what = describeEnding(pane, host?.name ?? null);
      if (flags.yes !== true && !(await confirmed(`end ${what}? [y/N] `, stderr))) {
        stderr.write(`corral: not ended: ${what}\n`);
        return 1;
      }
      await endPane(opened.client, pane.paneId, pane.pid);
      stdout.write(`ended ${what}\n`);
      return 0;
    } finally {
      await opened.close();
    }
  },
};
