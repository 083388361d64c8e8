// `corral status`: how many panes wait for a person, once, for status bars and scripts: the same
// summary the tmux status options hold while corral runs. The exit code says whether any waits.

import { formatDuration } from '../../engine/text/durations.js';
import { terminalSafeJson } from '../../engine/text/terminal-text.js';
import type { Command } from '../command.js';
import { settingsOf } from '../command-settings.js';
import { waitingPanes } from '../waiting.js';
import { clock } from '../time.js';

export const statusCommand: Command = {
  name: 'status',
  summary: 'how many panes wait for you, once (exit code 0: some wait; 1: none)',
  usage: 'status [--short | --json]',
  details: [
    'Prints how many panes wait for a person (stuck and not snoozed), the most urgent reason, and each',
    'waiting pane in the dashboard\'s order. While a corral watches the server (the dashboard, serve or',
    'watch), this reads what it keeps in the tmux status options (one tmux call); otherwise corral',
    'looks at every pane once. Exit code 0 when some pane waits, 1 when none does, 2 when corral',
    'could not look (it says why). --short prints `!2 permission` (or nothing) for another status bar.',
  ].join('\n'),
  settings: settingsOf('servers', 'engine', 'prompt').filter((key) => key !== 'pollIntervalMs'),
  flags: [
    { name: 'short', type: 'boolean', description: 'one word for a status bar: !N and the most urgent reason, or an empty line' },
    { name: 'json', type: 'boolean', description: 'print JSON: waiting, reason, total, panes' },
  ],
  async run({ settings, env, flags, stdout, stderr }) {
    let waiting;
    try {
      waiting = await waitingPanes(settings, env, stderr);
    } catch (error) {
      stderr.write(`corral: ${(error as Error).message}\n`);
      return 2;
    }
    const { panes, total } = waiting;
    const reason = panes[0]?.reason ?? null;
    const now = clock.now();
    if (flags.json) {
      const out = { waiting: panes.length, reason, total, source: waiting.source, panes: panes.map((p) => ({ key: p.key, host: p.host, paneId: p.paneId, target: p.target, reason: p.reason, since: p.since })) };
      stdout.write(`${terminalSafeJson(out)}\n`);
    } else if (flags.short) {
      stdout.write(panes.length > 0 ? `!${panes.length} ${reason}\n` : '\n');
    } else if (panes.length === 0) {
      stdout.write(`no pane waits for you (${total} watched)\n`);
    } else {
      const permission = panes.filter((p) => p.reason === 'permission').length;
      const parts = [permission > 0 ? `${permission} permission` : '', panes.length - permission > 0 ? `${panes.length - permission} stopped` : ''].filter(Boolean);
      stdout.write(`${panes.length} ${panes.length === 1 ? 'pane waits' : 'panes wait'} for you (${parts.join(', ')}; ${total} watched)\n`);
      const width = Math.max(...panes.map((p) => p.target.length));
      for (const p of panes) stdout.write(`  ${p.reason.padEnd(10)}  ${p.target.padEnd(width)}  ${p.key}  waiting ${formatDuration(Math.max(0, now - p.since))}\n`);
    }
    return panes.length > 0 ? 0 : 1;
  },
};
