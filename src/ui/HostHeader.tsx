// A header line of the pane list when corral watches several hosts: a host's name and health
// (`build-box · unreachable since 14:05 (retry in 8s)`), a collapsed host's counts, or the line over
// the waiting panes of every host. A collapsed host's line can be selected.

import { Text } from './Text.js';
import { clip } from './format.js';
import { hostTone, type HostTone } from './hosts.js';
import type { HostHealth } from '../engine/types.js';

type Tone = HostTone | 'waiting';

const TONE_COLORS: Record<Tone, string | null> = { ok: null, pending: 'yellow', down: 'red', waiting: 'red' };

interface Props {
  /** The name the line starts with, shown bold. */
  readonly host: string;
  readonly health?: HostHealth | null;
  /** Instead of the health's tone. */
  readonly tone?: Tone;
  /** The whole line, `name · health` (see hostLine). */
  readonly text: string;
  readonly width: number;
  readonly color: boolean;
  readonly selected?: boolean;
}

export function HostHeader({ host, health = null, tone: given, text, width, color, selected = false }: Props) {
  const tone = given ?? hostTone(health);
  const toneColor = color ? TONE_COLORS[tone] : null;
  const marker = selected ? '› ' : '';
  const line = clip(text, width - marker.length);
  const name = line.slice(0, host.length);
  const rest = line.slice(name.length);
  return (
    <Text wrap="truncate-end" inverse={selected}>
      {marker}
      <Text bold>{name}</Text>
      <Text {...(toneColor ? { color: toneColor } : {})} dimColor={tone === 'ok'}>
        {rest}
      </Text>
    </Text>
  );
}
