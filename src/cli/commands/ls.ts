// `corral ls`: one look at every watched pane: state, quiet time, last line; or the same as JSON.
// States are the dashboard's words (engine/pane/pane-status.ts): STUCK permission, STUCK stopped,
// snoozed, answered, idle, quiet, active; names and order are the dashboard's too.

import { formatDuration } from '../../engine/text/durations.js';
import { OFFLINE_BADGE, needsPerson, paneStatus, statusBadge } from '../../engine/pane/pane-status.js';
import { compareViews } from '../../engine/pane/pane-order.js';
import { paneLabel } from '../../engine/pane/pane-name.js';
import { hostProblem } from '../../engine/hosts/host-status.js';
import { terminalSafeJson } from '../../engine/text/terminal-text.js';
import { cellSafe, cellWidth, padCells, sliceCells } from '../../engine/text/cells.js';
import type { PaneView } from '../../engine/types.js';
import type { Command } from '../command.js';
import { settingsOf } from '../command-settings.js';
import { describeDisagreement } from '../../engine/pane/pane-machine.js';
import { hookReceiverAnswers, hookReceiverUrl } from '../hook-receiver.js';
import { setupEngine } from '../setup.js';
import { clock } from '../time.js';

function stateLabel(view: PaneView, now: number): string {
  return statusBadge(paneStatus(view, now), view.reason);
}

function lastLine(view: PaneView): string {
  for (let i = view.lines.length - 1; i >= 0; i--) {
    const line = (view.lines[i] ?? '').trim();
    if (line !== '') return line;
  }
  return '';
}

/**
 * The rows as columns in `width` cells: each cell made terminal-safe and measured in cells as a
 * terminal draws it (wide glyphs two), so the columns line up; the last column gets what is left
 * (at least 20 cells) and is cut there.
 */
function table(raw: string[][], width: number): string {
  const rows = raw.map((row) => row.map(cellSafe));
  const widths = rows[0]!.map((_, col) => Math.max(...rows.map((r) => cellWidth(r[col] ?? ''))));
  const fixed = widths.slice(0, -1).reduce((sum, w) => sum + w + 2, 0);
  const last = Math.max(20, width - fixed);
  return rows
    .map((row) =>
      row
        .map((cell, col) => (col === row.length - 1 ? sliceCells(cell, last) : padCells(cell, widths[col] ?? 0)))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

export const lsCommand: Command = {
  name: 'ls',
  summary: 'list watched panes with state, quiet time and last line',
  usage: 'ls [--json]',
  details: [
    'Takes two quick looks at the server (list, then capture) and prints a table, or JSON with --json.',
    `STATE is ${statusBadge('stuck', 'permission')} / ${statusBadge('stuck', 'stopped')} (waits for you), ${statusBadge('snoozed', null)}, ${statusBadge('answered', null)}, ${statusBadge('idle', null)} (at its prompt, seen), ${statusBadge('quiet', null)} or ${statusBadge('active', null)} (changed in the last 5 s); ${OFFLINE_BADGE} while its host is down.`,
    'With --json, each pane also says what its wait asks ("ask"), since when it waits ("waitSince", the',
    'same moment in every corral process), the screen token `next --answer --screen` takes ("screen"),',
    'and when you last looked at it ("seenAt").',
    'With --json, each pane also says what its agent hooks last claimed ("hook") and where the screen',
    'disagrees ("disagreement"). Hook claims are read from the panes themselves, where the corral that',
    'received them recorded them, so ls shows the state the running dashboard or serve shows; when no',
    'corral receives hooks on --listen/--port and hooks are on a pane, ls says so on stderr.',
  ].join('\n'),
  // One look: no poll interval to keep.
  settings: settingsOf('servers', 'engine', 'prompt', 'address').filter((key) => key !== 'pollIntervalMs'),
  flags: [{ name: 'json', type: 'boolean', description: 'print a JSON array instead of a table' }],
  async run({ settings, env, flags, stdout, stderr, lifecycle }) {
    const { engine } = await setupEngine(settings, env, stderr);
    // Its ssh masters (and their folder) go when ls is done, on every way out.
    lifecycle.onShutdown('the tmux connections', () => engine.stop());
    await engine.pollNow(); // discovers panes
    await engine.pollNow(); // captures them
    const snapshot = engine.getSnapshot();
    const several = snapshot.hosts.length > 1;
    if (!several && snapshot.status !== 'ok') {
      stderr.write(`corral: ${snapshot.statusMessage ?? snapshot.status}\n`);
      return 1;
    }
    // Across hosts, one that cannot be read is reported and the others are listed.
    const down = snapshot.hosts.filter((h) => h.state !== 'connected' || h.status !== 'ok');
    for (const host of several ? down : []) stderr.write(`corral: ${hostProblem(host)}\n`);
    if (several && down.length === snapshot.hosts.length) return 1;
    const now = clock.now();
    const panes = [...snapshot.panes].sort(compareViews);
    if (panes.some((v) => v.hook !== null) && !(await hookReceiverAnswers(settings, env))) {
      stderr.write(
        `corral: no corral receives agent hooks at ${hookReceiverUrl(settings)}: hooks that know their pane record themselves on it, others (Codex run by its daemon) are lost until corral serve or the dashboard runs\n`,
      );
    }
    if (flags.json) {
      const out = panes.map((v) => ({
        key: v.key,
        host: v.host,
        paneId: v.pane.paneId,
        target: v.target,
        label: v.label,
        name: paneLabel(v),
        title: v.pane.title,
        command: v.pane.command,
        cwd: v.pane.cwd,
        status: paneStatus(v, now),
        waiting: needsPerson(v),
        state: v.state,
        reason: v.reason,
        message: v.message,
        ask: v.attention.ask,
        waitSince: v.waitSince,
        seenAt: v.attention.seenAt,
        answered: v.attention.answered,
        screen: v.contentHash,
        quietMs: Math.max(0, now - v.quietSince),
        busy: v.verdict?.busy ?? false,
        lastLine: lastLine(v),
        sessionId: v.trackingId,
        hook: v.hook,
        disagreement: describeDisagreement(v.hook?.disagreement ?? null),
      }));
      stdout.write(`${terminalSafeJson(out, 2)}\n`);
      return 0;
    }
    if (panes.length === 0) {
      stdout.write(`no panes to watch on ${snapshot.server}${settings.optIn ? ` (opt-in: titles starting with ${settings.prefix})` : ''}\n`);
      return 0;
    }
    const width = (stdout as NodeJS.WriteStream).columns ?? 120;
    const rows = [
      [...(several ? ['HOST'] : []), 'STATE', 'PANE', 'TARGET', 'QUIET', 'NAME', 'COMMAND', 'LAST LINE'],
      ...panes.map((v) => [
        ...(several ? [v.host] : []),
        v.online ? stateLabel(v, now) : OFFLINE_BADGE,
        v.key,
        v.target,
        formatDuration(now - v.quietSince),
        paneLabel(v),
        v.pane.command,
        v.attention.need !== null && v.attention.ask !== null ? v.attention.ask : lastLine(v),
      ]),
    ];
    stdout.write(`${table(rows, width)}\n`);
    return 0;
  },
};
