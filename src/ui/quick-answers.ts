// The quick answers valid for one pane, from its prompt verdict (the options it offers) and the
// keymap's extras (arrows, Esc and Ctrl keys, which no prompt offers, so they never take an option's
// key). The answer keys, the footer and the help all read this list, so the dashboard never offers
// an answer the prompt does not take. What an option types is not decided here: the
// engine's answer plan (answer-plan.ts) says it, and the pane port's `answer` types it. Pure.

import { offeredAnswers, planAnswer, type AnswerPlan } from '../engine/typing/answer-plan.js';
import type { PaneView, PromptAnswer } from '../engine/types.js';
import type { SendItem } from '../engine/typing/keys.js';
import { screenRefusal } from '../engine/typing/guarded-send.js';
import { paneWhere } from './hosts.js';
import { KEYMAP, couldBeAnswerKey, keyLabel, type KeyBinding } from './keymap.js';

/** An option the prompt offers, picked by one key; the plan says what it types. */
export interface PromptChoice {
  readonly source: 'prompt';
  /** The key name pressed after the answer prefix (`1`, `y`, `enter`). */
  readonly key: string;
  /** The option as the prompt names it (`1`, `yes`, `Enter`): what the pane port is asked to give. */
  readonly option: string;
  readonly plan: AnswerPlan;
  /** What it does, for the help: `send 1`, `type y, then Enter`. */
  readonly label: string;
}

/**
 * A key the keymap adds: `menu` moves in a menu (Up, Down), `signal` is Esc, C-c and the like,
 * which are not answers, name their pane and ask first.
 */
export interface KeyChoice {
  readonly source: 'menu' | 'signal';
  readonly key: string;
  readonly label: string;
  /** Typed into the pane as they are. */
  readonly items: readonly SendItem[];
  /** Ask before sending (signals). */
  readonly confirm: boolean;
}

export type QuickAnswer = PromptChoice | KeyChoice;

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

/** The help's words for an option's plan. */
function planLabel(plan: AnswerPlan, kind: PromptAnswer['kind']): string {
  if (plan.kind === 'keys' && plan.label === 'Enter') {
    return kind === 'key' ? 'send Enter (the highlighted choice)' : 'send Enter (the default)';
  }
  return plan.kind === 'line' ? `type ${plan.label}` : `send ${plan.label}`;
}

function promptChoices(view: PaneView, kind: PromptAnswer['kind'], taken: Set<string>): PromptChoice[] {
  const options = offeredAnswers(view.verdict);
  const choices: PromptChoice[] = [];
  for (const option of options) {
    const key = keyForOption(option, options);
    if (key === null || taken.has(key)) continue;
    taken.add(key);
    const plan = planAnswer(view.verdict, option, paneWhere(view));
    choices.push({ source: 'prompt', key, option, plan, label: planLabel(plan, kind) });
  }
  return choices;
}

function extraChoice(binding: KeyBinding, key: string): KeyChoice {
  return {
    key,
    label: binding.label,
    items: binding.send ?? [],
    confirm: binding.confirm === true,
    source: binding.on === 'any' ? 'signal' : 'menu',
  };
}

/**
 * Every quick answer for the pane: the prompt's own, then the keymap's extras. An extra on a key
 * an option could use is left out, so a character or Enter after `a` is only ever an answer.
 */
export function paneAnswers(view: PaneView | null, keymap: readonly KeyBinding[] = KEYMAP): PaneAnswers {
  const prompt = promptAnswer(view);
  const taken = new Set<string>();
  const choices: QuickAnswer[] = view !== null && prompt && prompt.kind !== 'secret' ? promptChoices(view, prompt.kind, taken) : [];
  if (view !== null) {
    for (const binding of keymap) {
      if (binding.scope !== 'answer' || binding.command !== 'send') continue;
      if (binding.on === 'menu' && prompt?.kind !== 'key') continue;
      for (const key of binding.keys.filter((k) => !couldBeAnswerKey(k) && !taken.has(k))) {
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

/** The footer's answer keys when the selected pane offers none. */
const NOTHING_OFFERED = '—';

/** What `a` offers on the pane, for the footer: `y n q a d j J g / e`, `1 2 3 Enter`; `—` when nothing. */
export function offeredKeysText(answers: PaneAnswers): string {
  const keys = answers.choices.filter((c) => c.source === 'prompt').map((c) => keyLabel(c.key));
  return keys.length === 0 ? NOTHING_OFFERED : keys.join(' ');
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
    parts.push(prompt.some((c) => c.source === 'prompt' && c.plan.kind === 'line') ? `${keys} (Enter follows)` : keys);
  }
  const menu = of('menu');
  if (menu.length > 0) parts.push(menu.map((c) => `${keyLabel(c.key)} ${describeChoice(c)}`).join(' '));
  const signals = of('signal');
  if (signals.length > 0) parts.push(`${signals.map((c) => keyLabel(c.key)).join(' ')} send that key (asks)`);
  return [...parts, 'other keys cancel'].join(' · ');
}

/** `1`, `y + Enter`, `Enter`, `C-c`: what a choice types, for status messages. */
export function describeChoice(choice: QuickAnswer): string {
  if (choice.source === 'prompt') return choice.plan.kind === 'line' ? `${choice.plan.text} + Enter` : describeItems(choice.plan.items);
  return describeItems(choice.items);
}

/** tmux's key names, except Escape, which the keys table, the footer and the help call Esc. */
function describeItems(items: readonly SendItem[]): string {
  return items.map((i) => (i.kind === 'text' ? i.text : i.key === 'Escape' ? 'Esc' : i.key)).join(' ');
}

/**
 * Why an answer chosen on the screen `shownHash` may not go to `pane` now, or null when it may: the
 * pane closed, it was just answered and shows the answered screen still, or its screen is no longer
 * the one that was drawn.
 */
export function answerBlockedReason(
  pane: PaneView | undefined,
  shownHash: string | null,
  answered: { readonly key: string; readonly hash: string } | null,
): string | null {
  if (!pane) return 'that pane has closed; nothing was sent';
  if (answered && answered.key === pane.key && answered.hash === pane.contentHash) {
    return `${paneWhere(pane)} was just answered and its screen has not changed since; nothing was sent`;
  }
  return screenRefusal(paneWhere(pane), shownHash, pane.contentHash)?.message ?? null;
}
