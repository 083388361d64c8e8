// What a message to a full-screen program (less, vim, man, top) is: keys. A key name alone (`Esc`,
// `Enter`, `C-c`, `PageDown`) is that key; a command line for the program (`:q!`, `/pattern`,
// `?pattern`) is typed and entered; anything else is typed as it is (`q`, `jjj`, `G`).

import type { SendItem } from '../typing/keys.js';
import { parseKeyName } from '../typing/keys.js';

const COMMAND_LINE = /^[:/?]/;

/** Whether the whole message is one key name (`C-c`, `Esc`, `Enter`). */
export function isKeyName(message: string): boolean {
  const text = message.trim();
  if (text.length < 2) return false;
  try {
    return parseKeyName(text) !== null;
  } catch {
    return false;
  }
}

export function screenKeys(message: string): SendItem[] {
  const text = message.replace(/\n+$/, '');
  if (text === '') return [{ kind: 'key', key: 'Enter' }];
  let key: string | null = null;
  try {
    key = parseKeyName(text.trim());
  } catch {
    key = null;
  }
  if (key !== null) return [{ kind: 'key', key }];
  if (COMMAND_LINE.test(text)) return [{ kind: 'text', text }, { kind: 'key', key: 'Enter' }];
  return [{ kind: 'text', text }];
}
