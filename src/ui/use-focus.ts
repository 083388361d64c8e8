// Tells the engine which pane a person looks at: the selected pane while its preview is drawn.
// That pane is captured every poll, where one that keeps printing is otherwise followed at a
// steady pace. Nothing stays focused once the dashboard is gone.

import { useEffect } from 'react';
import type { EngineHandle } from '../engine/types.js';

export function useFocus(engine: Pick<EngineHandle, 'focus'>, key: string | null): void {
  useEffect(() => {
    engine.focus(key === null ? [] : [key]);
  }, [engine, key]);
  useEffect(() => () => engine.focus([]), [engine]);
}
