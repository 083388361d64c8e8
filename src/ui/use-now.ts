// One clock for the whole dashboard: ticks every `tickMs`, but only causes a render when what the
// screen shows (given by `displayKey`) changes, e.g. a timer going from 59s to 1m00s.

import { useEffect, useRef, useState } from 'react';
import type { Clock } from '../engine/types.js';

export function useNow(clock: Clock, tickMs: number, displayKey: (now: number) => string): number {
  const [now, setNow] = useState(() => clock.now());
  const keyRef = useRef(displayKey);
  keyRef.current = displayKey;
  useEffect(() => {
    const timer = setInterval(() => {
      const next = clock.now();
      setNow((prev) => (keyRef.current(prev) === keyRef.current(next) ? prev : next));
    }, tickMs);
    return () => clearInterval(timer);
  }, [clock, tickMs]);
  return now;
}
