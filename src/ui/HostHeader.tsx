// The line above a host's rows when corral watches several hosts: the host's name and health
// (`build-box · unreachable since 14:05 (retry in 8s)`).

import { Text } from './Text.js';
import { clip } from './format.js';
import { hostTone, type HostTone } from './hosts.js';
import type { HostHealth } from '../engine/types.js';

const TONE_COLORS: Record<HostTone, string | null> = { ok: null, pending: 'yellow', down: 'red' };

interface Props {
  readonly host: string;
  readonly health: HostHealth | null;
  /** The whole line, `name · health` (see hostLine). */
  readonly text: string;
  readonly width: number;
  readonly color: boolean;
}

export function HostHeader({ host, health, text, width, color }: Props) {
  const tone = hostTone(health);
  const toneColor = color ? TONE_COLORS[tone] : null;
  const line = clip(text, width);
  const name = line.slice(0, host.length);
  const rest = line.slice(name.length);
  return (
    <Text wrap="truncate-end">
      <Text bold>{name}</Text>
      <Text {...(toneColor ? { color: toneColor } : {})} dimColor={tone === 'ok'}>
        {rest}
      </Text>
    </Text>
  );
}
