// The top line: which tmux server is watched, how many panes in each state (or "loading" until the
// first look at the server has answered), and the servers' state. When it does not fit on one
// line, the servers' state moves to a second line.

import { Box } from 'ink';
import { Text } from './Text.js';
import { clip } from './format.js';
import type { StatusCounts } from '../engine/pane/pane-status.js';
import { describeService, type ServicesSnapshot } from './service-state.js';

interface Props {
  readonly server: string;
  /** Shown instead of the plain server name, e.g. the demo label. */
  readonly label: string | null;
  /** Null until the first poll has answered: the header says "loading" instead of counting. */
  readonly counts: StatusCounts | null;
  readonly services: ServicesSnapshot;
  readonly width: number;
  readonly color: boolean;
  /** Panes on hosts that are down, counted apart from the others (their state may be stale). */
  readonly offline?: number;
}

export interface HeaderText {
  readonly where: string;
  readonly tally: string;
  readonly services: string;
  readonly lines: 1 | 2;
}

export function headerText(
  server: string,
  label: string | null,
  counts: StatusCounts | null,
  services: ServicesSnapshot,
  width: number,
  offline = 0,
): HeaderText {
  const where = label ?? server;
  const tally =
    counts === null
      ? 'loading…'
      : `${counts.stuck} stuck` +
        (counts.snoozed > 0 ? ` (+${counts.snoozed} snoozed)` : '') +
        ` · ${counts.quiet} quiet · ${counts.active} active · ${counts.total} total` +
        (offline > 0 ? ` · ${offline} offline` : '');
  const right = `${describeService('bridge', services.bridge)} · ${describeService('attach', services.attach)}`;
  const oneLine = `corral · ${where} · ${tally}   ${right}`.length <= width;
  return { where, tally, services: right, lines: oneLine ? 1 : 2 };
}

export function Header({ server, label, counts, services, width, color, offline = 0 }: Props) {
  const text = headerText(server, label, counts, services, width, offline);
  const first = `corral · ${text.where} · ${text.tally}`;
  const gap = text.lines === 1 ? width - first.length - text.services.length : 0;
  return (
    <Box flexDirection="column" width={width}>
      <Text wrap="truncate-end">
        <Text bold>corral</Text>
        {' · '}
        <Text {...(label !== null && color ? { color: 'magenta' } : {})} bold={label !== null}>
          {clip(text.where, Math.max(8, width - text.tally.length - 12))}
        </Text>
        {' · '}
        <Text {...((counts?.stuck ?? 0) > 0 && color ? { color: 'red' } : {})} bold={(counts?.stuck ?? 0) > 0}>
          {text.tally}
        </Text>
        {text.lines === 1 ? ' '.repeat(Math.max(3, gap)) : ''}
        {text.lines === 1 ? <Text dimColor>{text.services}</Text> : ''}
      </Text>
      {text.lines === 2 ? (
        <Text dimColor wrap="truncate-end">
          {clip(text.services, width)}
        </Text>
      ) : null}
    </Box>
  );
}
