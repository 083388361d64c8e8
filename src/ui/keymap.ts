// The dashboard's keys, as one table. It drives input handling (App), the help overlay, the
// footer and the README's keys table (renderKeysMarkdown), so the three cannot disagree.

import type { SendItem } from '../engine/keys.js';

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
 * `normal`: the pane list; `answer`: the key after the answer prefix `a`, where the selected
 * prompt's own answers (see quick-answers.ts) come first and the table's extras fill in.
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
    label: 'type a reply into the pane, then Enter (Esc cancels; not for passwords)',
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
      'an answer the selected prompt offers (1–3 on a three-option menu, y / n / Enter on [y/N]): a menu gets the key alone, a line prompt the answer then Enter, a password prompt nothing',
    group: 'Answer',
  },
  { command: 'send', keys: ['up'], scope: 'answer', label: 'send Up (move in a menu)', group: 'Answer', send: key('Up'), on: 'menu' },
  { command: 'send', keys: ['down'], scope: 'answer', label: 'send Down', group: 'Answer', send: key('Down'), on: 'menu' },
  { command: 'send', keys: ['e'], scope: 'answer', label: 'send Esc (leave a menu)', group: 'Answer', send: key('Escape'), on: 'menu' },
  {
    command: 'send',
    keys: ['c'],
    scope: 'answer',
    label: 'send C-c (asks first)',
    group: 'Answer',
    send: key('C-c'),
    confirm: true,
    on: 'any',
  },
  {
    command: 'send',
    keys: ['d'],
    scope: 'answer',
    label: 'send C-d (asks first)',
    group: 'Answer',
    send: key('C-d'),
    confirm: true,
    on: 'any',
  },
  {
    command: 'send',
    keys: ['z'],
    scope: 'answer',
    label: 'send C-z (asks first)',
    group: 'Answer',
    send: key('C-z'),
    confirm: true,
    on: 'any',
  },
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
  { command: 'help', keys: ['?'], scope: 'normal', label: 'show or hide all keys', group: 'Dashboard', footer: 'help' },
  { command: 'quit', keys: ['q', 'ctrl+c'], scope: 'normal', label: 'quit', group: 'Dashboard', footer: 'quit' },
];

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
 * The footer: `↑↓ move · n next stuck · ...`. `answerKeys` names the quick answers valid for the
 * selected pane (`1-3/Enter`); without any, the answer key is left out.
 */
export function footerItems(
  answerKeys: string | null = null,
  keymap: readonly KeyBinding[] = KEYMAP,
): Array<{ keys: string; label: string }> {
  return keymap
    .filter((b) => b.footer !== undefined && (b.command !== 'answer' || answerKeys !== null))
    .map((b) => ({
      keys:
        b.command === 'down'
          ? '↑↓'
          : b.command === 'answer'
            ? `${ANSWER_PREFIX} ${answerKeys}`
            : b.keys[0] !== undefined
              ? keyLabel(b.keys[0])
              : '',
      label: b.footer as string,
    }));
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
  return rows.join('\n');
}
