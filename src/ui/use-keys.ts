// Wires the terminal's key presses to the dashboard: each read is decoded into key presses
// (key-decoder.ts), the pure dispatcher (key-dispatch.ts) decides, the UI store takes the actions
// and the effects run.

import { useCallback, useEffect } from 'react';
import { useStdin } from 'ink';
import { dispatchKey, type KeyPress, type KeyScene } from './key-dispatch.js';
import { runKeyEffect, type EffectDeps } from './key-effects.js';
import { decodeKeys, splitRun } from './key-decoder.js';

const TEXT_MODES = new Set(['reply', 'filter', 'start']);

/**
 * `scene` is read afresh for every key (several keys can arrive between two renders); `deps` runs
 * what the keys ask for.
 */
export function useKeys(scene: () => KeyScene, deps: () => EffectDeps): void {
  const handleKey = useCallback(
    (key: KeyPress) => {
      const outcome = dispatchKey(scene(), key);
      const run = deps();
      for (const action of outcome.actions) run.dispatch(action);
      for (const effect of outcome.effects) runKeyEffect(effect, run);
    },
    [scene, deps],
  );

  // Several keys in one read (fast typing, tmux send-keys, a paste, a loaded machine): the same
  // presses as one key per read. While a text field takes the keys, a run of characters goes in
  // at once; otherwise one key at a time. The mode is read afresh for every press, since a key may
  // change it.
  const handleRead = useCallback(
    (raw: string) => {
      for (const key of decodeKeys(raw)) {
        if (TEXT_MODES.has(scene().ui.mode)) {
          handleKey(key);
          continue;
        }
        const chars = splitRun(key);
        for (const [i, char] of chars.entries()) {
          // A character of the run that made a text field open goes into it whole, with the rest.
          if (i > 0 && TEXT_MODES.has(scene().ui.mode)) {
            const rest = chars.slice(i);
            const text = rest.map((c) => c.input).join('');
            handleKey(rest.length === 1 ? (rest[0] as KeyPress) : { ...key, name: text, input: text });
            break;
          }
          handleKey(char);
        }
      }
    },
    [handleKey, scene],
  );

  // Ink's input events carry each read as the terminal sent it (split only at escape sequences);
  // its useInput would hand over a parse that loses keys, so the raw text is decoded here.
  const { setRawMode, internal_eventEmitter: events } = useStdin();
  useEffect(() => {
    setRawMode(true);
    return () => setRawMode(false);
  }, [setRawMode]);
  useEffect(() => {
    const onInput = (raw: unknown) => {
      if (typeof raw === 'string') handleRead(raw);
    };
    events.on('input', onInput);
    return () => {
      events.removeListener('input', onInput);
    };
  }, [events, handleRead]);
}
