// tmux-style key names (`Enter`, `C-c`, `M-x`, `S-Up`, `C-M-Delete`, `F5` ...) for `corral send`,
// the dashboard's quick answers and the attach server's `keys` message. Items that are not key
// names are literal text; an item that looks like a key but is not one is an error, found before
// anything is typed.

import type { SendItem } from '../tmux/pane-io.js';

export type { SendItem };

/** Accepted name -> the name tmux's send-keys understands. */
const SPECIAL_KEYS: ReadonlyMap<string, string> = new Map([
  ['Enter', 'Enter'],
  ['Escape', 'Escape'],
  ['Esc', 'Escape'],
  ['Tab', 'Tab'],
  ['BTab', 'BTab'],
  ['Space', 'Space'],
  ['BSpace', 'BSpace'],
  ['Backspace', 'BSpace'],
  ['Up', 'Up'],
  ['Down', 'Down'],
  ['Left', 'Left'],
  ['Right', 'Right'],
  ['Home', 'Home'],
  ['End', 'End'],
  ['Insert', 'IC'],
  ['IC', 'IC'],
  ['Delete', 'DC'],
  ['DC', 'DC'],
  ['PgUp', 'PPage'],
  ['PageUp', 'PPage'],
  ['PPage', 'PPage'],
  ['PgDn', 'NPage'],
  ['PageDown', 'NPage'],
  ['NPage', 'NPage'],
  ...Array.from({ length: 12 }, (_, i) => [`F${i + 1}`, `F${i + 1}`] as [string, string]),
]);

/** Keys that have an xterm sequence with modifiers (CSI 1;m X or CSI n;m ~). */
const MODIFIABLE_SPECIALS = new Set([
  'Up',
  'Down',
  'Left',
  'Right',
  'Home',
  'End',
  'IC',
  'DC',
  'PPage',
  'NPage',
  ...Array.from({ length: 12 }, (_, i) => `F${i + 1}`),
]);

/** Characters that C- turns into a control byte. */
const CTRL_CHARS = /^[a-zA-Z@[\\\]^_?]$/;

export class UnknownKeyError extends Error {
  constructor(
    readonly item: string,
    detail: string,
  ) {
    super(`unknown key name ${JSON.stringify(item)}: ${detail}`);
    this.name = 'UnknownKeyError';
  }
}

const MODIFIER_RUN = /^((?:[CMS]-)+)(.+)$/;

/** Parses one key name; returns the tmux spelling, or null when the item is not a key name at all. */
export function parseKeyName(item: string): string | null {
  const plain = SPECIAL_KEYS.get(item);
  if (plain !== undefined) return plain;
  const match = MODIFIER_RUN.exec(item);
  if (!match) return null;
  const modifierText = match[1] ?? '';
  const base = match[2] ?? '';
  const mods = new Set(modifierText.split('-').filter(Boolean));
  if (mods.size !== modifierText.length / 2) throw new UnknownKeyError(item, 'a modifier is repeated');
  const ctrl = mods.has('C');
  const shift = mods.has('S');
  const special = SPECIAL_KEYS.get(base);
  if (special !== undefined) {
    if (MODIFIABLE_SPECIALS.has(special)) return `${modifierText}${special}`;
    if (special === 'Space' && !shift) return `${modifierText}Space`;
    if (special === 'Tab' && !ctrl && !shift) return `M-Tab`;
    if ((special === 'Escape' || special === 'Enter' || special === 'BSpace') && !ctrl && !shift) {
      return `M-${special}`;
    }
    throw new UnknownKeyError(item, `${modifierText}${base} has no terminal escape sequence`);
  }
  if ([...base].length !== 1) throw new UnknownKeyError(item, `"${base}" is not a key (try Enter, Esc, Up, F5, a single character ...)`);
  if (ctrl && !CTRL_CHARS.test(base)) throw new UnknownKeyError(item, `C-${base} is not a control character`);
  if (shift && !/^[a-zA-Z]$/.test(base)) throw new UnknownKeyError(item, 'S- only combines with letters and special keys');
  let key = base;
  if (shift) key = key.toUpperCase();
  if (ctrl) key = `C-${key.toLowerCase()}`;
  if (mods.has('M')) key = `M-${key}`;
  return key;
}

/** Splits `corral send` items into keys and literal text; all or nothing. */
export function parseSendItems(items: readonly string[], options: { literal?: boolean } = {}): SendItem[] {
  return items.map((item): SendItem => {
    if (options.literal) return { kind: 'text', text: item };
    const key = parseKeyName(item);
    return key === null ? { kind: 'text', text: item } : { kind: 'key', key };
  });
}
