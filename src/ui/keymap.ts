// The dashboard's keys, as one table. It drives input handling (App), the help overlay, the
// footer and the README's keys table (renderKeysMarkdown), so the three cannot disagree.

import type { SendItem } from '../engine/typing/keys.js';
import type { LineEdit } from './line-editor.js';

export type CommandName =
  | 'up'
  | 'down'
  | 'first'
  | 'last'
  | 'next-stuck'
  | 'jump'
  | 'reply'
  | 'answer'
  | 'answer-option'
  | 'send'
  | 'snooze'
  | 'start'
  | 'end'
  | 'filter'
  | 'fold-host'
  | 'fold-hosts'
  | 'help'
  | 'bridge'
  | 'attach'
  | 'quit';

/**
 * `normal`: the pane list; `answer`: the key after the answer prefix `a`: a character or Enter is
 * one of the selected prompt's own answers (see quick-answers.ts), and the table adds only keys no
 * prompt offers (arrows, Esc, Ctrl keys), so a key after `a` means one thing on every pane.
 */
export type KeyScope = 'normal' | 'answer';

export type KeyGroup = 'Move' | 'Answer' | 'Panes' | 'Services' | 'Dashboard';

export interface KeyBinding {
  readonly command: CommandName;
  /** Key names as produced by `keyName` (`up`, `enter`, `escape`, `ctrl+c`, `G`, `?` ...). */
  readonly keys: readonly string[];
  readonly scope: KeyScope;
  readonly label: string;
  readonly group: KeyGroup;
  /** Short label for the footer; bindings without one are only in the help. */
  readonly footer?: string;
  /** For `send`: what is typed into the selected pane. */
  readonly send?: readonly SendItem[];
  /** For `send`: ask before sending (signals such as C-c). */
  readonly confirm?: boolean;
  /**
   * For `send` and `answer-option`: the panes it is offered on. `menu`: a prompt answered with a
   * key (a numbered menu); `any`: every pane (signals, which are not answers and ask first).
   */
  readonly on?: 'menu' | 'any';
}

/** The prefix key for quick answers; the next key picks the answer. */
export const ANSWER_PREFIX = 'a';

const key = (k: string): SendItem[] => [{ kind: 'key', key: k }];

/** A key sent to the selected pane as it is, after a confirmation that names the pane. */
function signal(name: string, tmuxKey: string, label: string): KeyBinding {
  return { command: 'send', keys: [name], scope: 'answer', label, group: 'Answer', send: key(tmuxKey), confirm: true, on: 'any' };
}

export const KEYMAP: readonly KeyBinding[] = [
  { command: 'up', keys: ['up', 'k'], scope: 'normal', label: 'previous pane', group: 'Move' },
  { command: 'down', keys: ['down', 'j'], scope: 'normal', label: 'next pane', group: 'Move', footer: 'move' },
  { command: 'first', keys: ['g'], scope: 'normal', label: 'first pane', group: 'Move' },
  { command: 'last', keys: ['G'], scope: 'normal', label: 'last pane', group: 'Move' },
  {
    command: 'next-stuck',
    keys: ['n'],
    scope: 'normal',
    label: 'next stuck pane',
    group: 'Move',
    footer: 'next stuck',
  },
  {
    command: 'jump',
    keys: ['enter'],
    scope: 'normal',
    label: 'jump to the pane (switch the tmux client, or show the tmux attach command)',
    group: 'Panes',
    footer: 'jump',
  },
  {
    command: 'reply',
    keys: ['r'],
    scope: 'normal',
    label: 'type a reply into the pane, then Enter (Esc cancels; not for passwords; asks first when the pane is not at a prompt)',
    group: 'Panes',
    footer: 'reply',
  },
  {
    command: 'answer',
    keys: [ANSWER_PREFIX],
    scope: 'normal',
    label: 'quick answer: the next key picks one of the answers the prompt offers',
    group: 'Panes',
    footer: 'answer',
  },
  {
    command: 'snooze',
    keys: ['s'],
    scope: 'normal',
    label: 'snooze a stuck pane until it shows another prompt or new output',
    group: 'Panes',
    footer: 'snooze',
  },
  {
    command: 'start',
    keys: ['c'],
    scope: 'normal',
    label: "start a command in a new window in the pane's folder (Tab: in a new git worktree on a new branch)",
    group: 'Panes',
  },
  { command: 'end', keys: ['X'], scope: 'normal', label: 'end the pane (kill it) after y to the question that names it', group: 'Panes' },
  {
    command: 'answer-option',
    // Examples for the help and the README; the real keys come from the selected prompt.
    keys: ['1', 'y', 'n', 'enter'],
    scope: 'answer',
    label:
      'an answer the selected prompt offers, and nothing else (1–3 on a three-option menu, y / n / Enter on [y/N], y n q a d j J g / e on git add -p; the footer shows them): a menu gets the key alone, a line prompt the answer then Enter, a password prompt nothing',
    group: 'Answer',
  },
  // The keys below are never a prompt's answer (no prompt offers an arrow, Esc or a Ctrl key), so
  // they mean the same on every pane: the key itself, typed into the pane.
  { command: 'send', keys: ['up'], scope: 'answer', label: 'send Up (move in a menu)', group: 'Answer', send: key('Up'), on: 'menu' },
  { command: 'send', keys: ['down'], scope: 'answer', label: 'send Down', group: 'Answer', send: key('Down'), on: 'menu' },
  signal('escape', 'Escape', 'send Esc (leave a menu, interrupt an agent; asks first)'),
  signal('ctrl+c', 'C-c', 'send C-c (asks first)'),
  signal('ctrl+d', 'C-d', 'send C-d (asks first)'),
  signal('ctrl+z', 'C-z', 'send C-z (asks first)'),
  {
    command: 'filter',
    keys: ['/'],
    scope: 'normal',
    label: 'filter by window name, title, command, cwd, session or host (host:NAME keeps one host; Esc clears)',
    group: 'Dashboard',
    footer: 'filter',
  },
  {
    command: 'fold-host',
    keys: ['space'],
    scope: 'normal',
    label: "collapse the selected pane's host to one line, or open the collapsed host selected (several hosts)",
    group: 'Dashboard',
  },
  {
    command: 'fold-hosts',
    keys: ['H'],
    scope: 'normal',
    label: 'collapse every host, or open them all when all are collapsed (several hosts)',
    group: 'Dashboard',
  },
  { command: 'bridge', keys: ['b'], scope: 'normal', label: 'turn the chat bridge on or off', group: 'Services' },
  { command: 'attach', keys: ['w'], scope: 'normal', label: 'turn the attach server on or off', group: 'Services' },
  { command: 'help', keys: ['?'], scope: 'normal', label: 'show or hide all keys, and the last message whole', group: 'Dashboard', footer: 'help' },
  { command: 'quit', keys: ['q', 'ctrl+c'], scope: 'normal', label: 'quit', group: 'Dashboard', footer: 'quit' },
];

/**
 * Keys in a text field (a reply, the filter, the start prompt): one table for every field, read by
 * the dispatcher and the help. Enter, Esc and Tab belong to the field's own prompt.
 */
export const LINE_KEYS: readonly { readonly keys: readonly string[]; readonly edit: LineEdit['kind']; readonly label: string }[] = [
  { keys: ['left', 'ctrl+b'], edit: 'left', label: 'cursor left' },
  { keys: ['right', 'ctrl+f'], edit: 'right', label: 'cursor right' },
  { keys: ['home', 'ctrl+a'], edit: 'home', label: 'start of the line' },
  { keys: ['end', 'ctrl+e'], edit: 'end', label: 'end of the line' },
  { keys: ['backspace', 'ctrl+h'], edit: 'backspace', label: 'delete before the cursor' },
  { keys: ['delete', 'ctrl+d'], edit: 'delete', label: 'delete under the cursor' },
  { keys: ['ctrl+u'], edit: 'kill-before', label: 'delete to the start' },
  { keys: ['ctrl+k'], edit: 'kill-after', label: 'delete to the end' },
  { keys: ['ctrl+w'], edit: 'kill-word', label: 'delete the word before the cursor' },
];

export const LINE_KEYS_TITLE = 'Text fields (r, /, c)';

/** The edit a key makes in a text field, if it is one of LINE_KEYS. */
export function lineEditKey(name: string): Exclude<LineEdit['kind'], 'insert'> | null {
  const found = LINE_KEYS.find((k) => k.keys.includes(name))?.edit;
  return found === undefined || found === 'insert' ? null : found;
}

export const GROUP_ORDER: readonly KeyGroup[] = ['Move', 'Panes', 'Answer', 'Dashboard', 'Services'];

export function findBinding(
  scope: KeyScope,
  name: string,
  keymap: readonly KeyBinding[] = KEYMAP,
): KeyBinding | undefined {
  return keymap.find((b) => b.scope === scope && b.keys.includes(name));
}

/** Minimal shape of Ink's `Key` that keyName needs (kept local so this file stays Ink-free). */
export interface KeyFlags {
  readonly upArrow?: boolean;
  readonly downArrow?: boolean;
  readonly leftArrow?: boolean;
  readonly rightArrow?: boolean;
  readonly pageUp?: boolean;
  readonly pageDown?: boolean;
  readonly home?: boolean;
  readonly end?: boolean;
  readonly return?: boolean;
  readonly escape?: boolean;
  readonly tab?: boolean;
  readonly backspace?: boolean;
  readonly delete?: boolean;
  readonly ctrl?: boolean;
}

/** One name per key press, in the spelling the table uses. */
export function keyName(input: string, key: KeyFlags): string {
  if (key.upArrow) return 'up';
  if (key.downArrow) return 'down';
  if (key.leftArrow) return 'left';
  if (key.rightArrow) return 'right';
  if (key.pageUp) return 'pageup';
  if (key.pageDown) return 'pagedown';
  if (key.home) return 'home';
  if (key.end) return 'end';
  if (key.return) return 'enter';
  if (key.escape) return 'escape';
  if (key.tab) return 'tab';
  if (key.backspace || key.delete) return 'backspace';
  if (key.ctrl && input !== '') return `ctrl+${input.toLowerCase()}`;
  if (input === ' ') return 'space';
  return input;
}

const KEY_LABELS: Record<string, string> = {
  up: '↑',
  down: '↓',
  left: '←',
  right: '→',
  enter: 'Enter',
  escape: 'Esc',
  tab: 'Tab',
  backspace: 'Backspace',
  delete: 'Delete',
  home: 'Home',
  end: 'End',
  space: 'Space',
};

export function keyLabel(name: string): string {
  const known = KEY_LABELS[name];
  if (known !== undefined) return known;
  const ctrl = /^ctrl\+(.)$/.exec(name);
  if (ctrl) return `Ctrl-${(ctrl[1] ?? '').toUpperCase()}`;
  return name;
}

/** `↑ k`, or `a 1` for answer keys. */
export function bindingKeys(binding: KeyBinding): string {
  const keys = binding.keys.map(keyLabel).join(' / ');
  return binding.scope === 'answer' ? `${ANSWER_PREFIX} ${keys}` : keys;
}

export function bindingsByGroup(keymap: readonly KeyBinding[] = KEYMAP): Array<[KeyGroup, KeyBinding[]]> {
  return GROUP_ORDER.map(
    (group) => [group, keymap.filter((b) => b.group === group)] as [KeyGroup, KeyBinding[]],
  ).filter(([, list]) => list.length > 0);
}

/**
 * The footer: `a: y n q … · ↑↓ move · n next stuck · ...`. `answerKeys` is what `a` offers on the
 * selected pane (`1 2 3 Enter`, or `—` when it offers nothing), shown before the person presses it.
 */
export function footerItems(answerKeys: string, keymap: readonly KeyBinding[] = KEYMAP): Array<{ keys: string; label: string }> {
  const shown = keymap.filter((b) => b.footer !== undefined);
  // What `a` offers comes first: it changes with the selected pane, the rest never does.
  const answer = shown.filter((b) => b.command === 'answer').map(() => ({ keys: `${ANSWER_PREFIX}:`, label: answerKeys }));
  const rest = shown
    .filter((b) => b.command !== 'answer')
    .map((b) => ({ keys: b.command === 'down' ? '↑↓' : keyLabel(b.keys[0] ?? ''), label: b.footer as string }));
  return [...answer, ...rest];
}

/**
 * True for a key name a prompt's option can be picked with (a character, or Enter). The keys the
 * table adds after the answer prefix are never such a key, so they cannot take an option's place.
 */
export function couldBeAnswerKey(name: string): boolean {
  return name === 'enter' || [...name].length === 1;
}

/** The README's keys table (Markdown), generated from the table above. */
export function renderKeysMarkdown(keymap: readonly KeyBinding[] = KEYMAP): string {
  const rows = ['| Keys | What it does |', '|---|---|'];
  for (const [group, list] of bindingsByGroup(keymap)) {
    rows.push(`| **${group}** | |`);
    for (const b of list) {
      const keys =
        b.command === 'answer-option'
          ? `${b.keys.map((k) => `\`${keyLabel(k)}\``).join(' ')} …`
          : b.keys.map((k) => `\`${keyLabel(k)}\``).join(' ');
      const shown = b.scope === 'answer' ? `\`${ANSWER_PREFIX}\` then ${keys}` : keys;
      rows.push(`| ${shown} | ${b.label} |`);
    }
  }
  rows.push(`| **${LINE_KEYS_TITLE}** | |`);
  for (const k of LINE_KEYS) rows.push(`| ${k.keys.map((name) => `\`${keyLabel(name)}\``).join(' ')} | ${k.label} |`);
  return rows.join('\n');
}
