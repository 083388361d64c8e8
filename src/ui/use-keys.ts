// Wires the terminal's key presses to the dashboard: each key becomes a KeyPress, the pure
// dispatcher (key-dispatch.ts) decides, the UI store takes the actions and the effects run.

import { useCallback } from 'react';
import { useInput, type Key } from 'ink';
import { dispatchKey, type KeyScene } from './key-dispatch.js';
import { runKeyEffect, type EffectDeps } from './key-effects.js';
import { keyName } from './keymap.js';

const PLAIN_KEY = {
  return: false,
  escape: false,
  ctrl: false,
  meta: false,
  tab: false,
  backspace: false,
  delete: false,
  upArrow: false,
  downArrow: false,
  leftArrow: false,
  rightArrow: false,
} as const;

/**
 * `scene` is read afresh for every key (several keys can arrive between two renders); `deps` runs
 * what the keys ask for.
 */
export function useKeys(scene: () => KeyScene, deps: () => EffectDeps): void {
  const handleKey = useCallback(
    (input: string, key: Key) => {
      const outcome = dispatchKey(scene(), { name: keyName(input, key), input, ctrl: key.ctrl, meta: key.meta });
      const run = deps();
      for (const action of outcome.actions) run.dispatch(action);
      for (const effect of outcome.effects) runKeyEffect(effect, run);
    },
    [scene, deps],
  );

  // Several keys in one read (fast typing, tmux send-keys, a paste): while typing text, runs of
  // text go in at once and a newline is Enter; otherwise one key at a time. The mode is read
  // afresh for every piece, since a key may change it.
  const handleInput = useCallback(
    (input: string, key: Key) => {
      if (keyName(input, key) !== input || [...input].length <= 1) {
        handleKey(input, key);
        return;
      }
      let rest = input;
      while (rest !== '') {
        const mode = scene().ui.mode;
        const textMode = mode === 'reply' || mode === 'filter' || mode === 'start';
        const piece = /^[\r\n]/.test(rest)
          ? (rest[0] as string)
          : textMode
            ? (/^[^\r\n]+/.exec(rest)?.[0] as string)
            : ([...rest][0] as string);
        rest = rest.slice(piece.length);
        const isEnter = piece === '\r' || piece === '\n';
        handleKey(isEnter ? '\r' : piece, { ...key, ...PLAIN_KEY, return: isEnter });
      }
    },
    [handleKey, scene],
  );

  useInput(handleInput);
}
