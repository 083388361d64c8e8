// The quick answers valid for one pane, from its prompt verdict (how the prompt is answered and
// which answers it offers) and the keymap's extras. The answer keys, the footer and the help all
// read this list, so the dashboard never offers an answer the prompt does not take. Pure.

import type { PaneView, PromptAnswer } from '../engine/types.js';
import type { SendItem } from '../engine/keys.js';
import { paneWhere } from './hosts.js';
import { KEYMAP, keyLabel, type KeyBinding } from './keymap.js';

export interface QuickAnswer {
  /** The key name pressed after the answer prefix (`1`, `y`, `enter`, `up`, `c`). */
  readonly key: string;
  /** What it does, for the help and the status line: `send 1`, `type y, then Enter`. */
  readonly label: string;
  /** Typed into the pane in order. */
  readonly items: readonly SendItem[];
  /** Enter follows the items after a short pause (a line prompt's answer). */
  readonly enter: boolean;
  /** Ask before sending (signals). */
  readonly confirm: boolean;
  /**
   * `prompt`: an answer the prompt offers; `menu`: a key that moves in a menu; `signal`: C-c and
   * the like, which are not answers. Only prompt and menu keys are checked against the screen that
   * was drawn (a signal names its pane and asks first).
   */
  readonly source: 'prompt' | 'menu' | 'signal';
}

export interface PaneAnswers {
  /** The prompt's answer kind, or null when the pane shows no prompt. */
  readonly kind: PromptAnswer['kind'] | null;
  readonly choices: readonly QuickAnswer[];
}

/** The prompt the pane shows, if any (a busy screen vetoes it in the verdict already). */
export function promptAnswer(view: PaneView | null): PromptAnswer | null {
  const verdict = view?.verdict;
  return verdict && verdict.prompt && verdict.answer ? verdict.answer : null;
}

/** The key that picks an offered answer: `Enter`, a digit or a letter as is, a word by its first letter. */
function keyForOption(option: string, options: readonly string[]): string | null {
  if (option === 'Enter') return 'enter';
  if ([...option].length === 1) return option;
  if (!/^[A-Za-z]+$/.test(option)) return null;
  const first = option[0] as string;
  // `yes` / `no` answer with y / n, unless another option starts the same way or is that letter.
  const clash = options.some((o) => o !== option && (o === first || o[0] === first));
  return clash ? null : first;
}

function optionChoice(option: string, key: string, kind: PromptAnswer['kind']): QuickAnswer {
  if (option === 'Enter') {
    return {
      key,
      label: kind === 'key' ? 'send Enter (the highlighted choice)' : 'send Enter (the default)',
      items: [{ kind: 'key', key: 'Enter' }],
      enter: false,
      confirm: false,
      source: 'prompt',
    };
  }
  if (kind === 'key') {
    return {
      key,
      label: `send ${option}`,
      items: [{ kind: 'text', text: option }],
      enter: false,
      confirm: false,
      source: 'prompt',
    };
  }
  return {
    key,
    label: `type ${option}, then Enter`,
    items: [{ kind: 'text', text: option }],
    enter: true,
    confirm: false,
    source: 'prompt',
  };
}

function extraChoice(binding: KeyBinding, key: string): QuickAnswer {
  return {
    key,
    label: binding.label,
    items: binding.send ?? [],
    enter: false,
    confirm: binding.confirm === true,
    source: binding.on === 'any' ? 'signal' : 'menu',
  };
}

/** Every quick answer for the pane: the prompt's own first, then the extras whose keys are still free. */
export function paneAnswers(view: PaneView | null, keymap: readonly KeyBinding[] = KEYMAP): PaneAnswers {
  const prompt = promptAnswer(view);
  const choices: QuickAnswer[] = [];
  const taken = new Set<string>(['escape']);
  if (prompt && prompt.kind !== 'secret') {
    for (const option of prompt.options) {
      const key = keyForOption(option, prompt.options);
      if (key === null || taken.has(key)) continue;
      taken.add(key);
      choices.push(optionChoice(option, key, prompt.kind));
    }
  }
  if (view !== null) {
    for (const binding of keymap) {
      if (binding.scope !== 'answer' || binding.command !== 'send') continue;
      if (binding.on === 'menu' && prompt?.kind !== 'key') continue;
      for (const key of binding.keys) {
        if (taken.has(key)) continue;
        taken.add(key);
        choices.push(extraChoice(binding, key));
      }
    }
  }
  return { kind: prompt?.kind ?? null, choices };
}

export function findAnswer(answers: PaneAnswers, key: string): QuickAnswer | undefined {
  return answers.choices.find((c) => c.key === key);
}

/**
 * The prompt's answers in a few characters, for the footer: `1-3/Enter`, `y/n/Enter`; null when
 * the prompt offers none (a secret, free text, no prompt).
 */
export function answerKeysText(answers: PaneAnswers): string | null {
  const keys = answers.choices.filter((c) => c.source === 'prompt').map((c) => c.key);
  if (keys.length === 0) return null;
  const digits = keys.filter((k) => /^\d$/.test(k));
  const rest = keys.filter((k) => !/^\d$/.test(k)).map(keyLabel);
  const run =
    digits.length >= 3 && digits.every((d, i) => i === 0 || Number(d) === Number(digits[i - 1]) + 1)
      ? [`${digits[0]}-${digits[digits.length - 1]}`]
      : digits;
  return [...run, ...rest].join('/');
}

/** The status line while an answer key is awaited: only the answers this pane takes. */
export function answerHint(answers: PaneAnswers): string {
  const of = (source: QuickAnswer['source']) => answers.choices.filter((c) => c.source === source);
  const prompt = of('prompt');
  const parts: string[] = [];
  if (answers.kind === 'secret') parts.push('a password prompt: no quick answer (Enter jumps there)');
  else if (answers.kind === null) parts.push('no prompt: no quick answer');
  else if (prompt.length === 0) parts.push('free text: r types a reply');
  else {
    const keys = prompt.map((c) => keyLabel(c.key)).join(' ');
    parts.push(answers.kind === 'line' && prompt.some((c) => c.enter) ? `${keys} (Enter follows)` : keys);
  }
  const menu = of('menu');
  if (menu.length > 0)
    parts.push(
      menu.map((c) => `${keyLabel(c.key)} ${c.label.replace(/^send /, '').replace(/ \(.*\)$/, '')}`).join(' '),
    );
  const signals = of('signal');
  if (signals.length > 0)
    parts.push(`${signals.map((c) => c.key).join('/')} ${signals.map((c) => describeChoice(c)).join('/')} (asks)`);
  return [...parts, 'Esc cancels'].join(' · ');
}

/** `1`, `y + Enter`, `Enter`, `C-c`: what a choice types, for status messages. */
export function describeChoice(choice: QuickAnswer): string {
  const typed = choice.items.map((i) => (i.kind === 'key' ? i.key : i.text)).join(' ');
  return choice.enter ? `${typed} + Enter` : typed;
}

/**
 * Why an answer chosen on the screen `shownHash` may not go to `pane` now, or null when it may: the
 * pane closed, it was just answered and shows the answered screen still, or its screen is no longer
 * the one that was drawn.
 */
export function answerRefusal(
  pane: PaneView | undefined,
  shownHash: string | null,
  answered: { readonly key: string; readonly hash: string } | null,
): string | null {
  if (!pane) return 'that pane has closed; nothing was sent';
  if (answered && answered.key === pane.key && answered.hash === pane.contentHash) {
    return `${paneWhere(pane)} was just answered and its screen has not changed since; nothing was sent`;
  }
  if (shownHash !== null && shownHash !== pane.contentHash) {
    return `${paneWhere(pane)} changed since it was drawn; nothing was sent: look again, then answer`;
  }
  return null;
}
