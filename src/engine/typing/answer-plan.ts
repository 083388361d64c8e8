// "Answer option X on the prompt the pane shows": the one place that turns a prompt verdict and a
// chosen option into the keys to type, with a label for people. Pure. Every surface that answers
// (the dashboard, the web page, answer links, hook notifications, the MCP server, `corral next
// --answer`) goes through it, and through the pane port's guarded `answer`; the chat bridge's
// reply to a command's question is typed the way planFreeText says.

import type { SendItem } from './keys.js';
import type { PromptAnswer, PromptVerdict } from '../types.js';

/** What to type: keys at once, or a line (the text, a short pause, then Enter). */
export type AnswerPlan =
  | { readonly kind: 'keys'; readonly items: readonly SendItem[]; readonly label: string }
  | { readonly kind: 'line'; readonly text: string; readonly label: string };

export type AnswerRefusalCode = 'no_prompt' | 'secret' | 'not_an_option' | 'answered';

/** The answer cannot be given: the pane shows no prompt, asks for a secret, or does not offer it. */
export class AnswerRefusedError extends Error {
  constructor(
    readonly code: AnswerRefusalCode,
    message: string,
    readonly offered: readonly string[] = [],
  ) {
    super(message);
    this.name = 'AnswerRefusedError';
  }
}

/** The options the verdict's prompt offers (empty when it shows none). */
export function offeredAnswers(verdict: PromptVerdict | null): readonly string[] {
  return verdict?.prompt && !verdict.busy && verdict.answer ? verdict.answer.options : [];
}

/**
 * The keys that give `option` to the prompt of `verdict` (`target` names the pane in messages): a
 * menu takes the option's key alone, a line prompt the text then Enter, `Enter` is the key itself.
 */
export function planAnswer(verdict: PromptVerdict | null, option: string, target: string): AnswerPlan {
  const answer = verdict?.prompt && !verdict.busy ? verdict.answer : null;
  if (!answer) throw new AnswerRefusedError('no_prompt', `${target} shows no prompt now; nothing was sent`);
  if (answer.kind === 'secret') throw new AnswerRefusedError('secret', `${target} asks for a secret: type it in the pane yourself; nothing was sent`);
  if (!answer.options.includes(option)) {
    const offered = answer.options.length > 0 ? answer.options.join(', ') : 'none (type a reply instead)';
    throw new AnswerRefusedError('not_an_option', `${JSON.stringify(option)} is not an answer ${target} offers; offered: ${offered}`, answer.options);
  }
  if (option === 'Enter') return { kind: 'keys', items: [{ kind: 'key', key: 'Enter' }], label: 'Enter' };
  return planFreeText(answer.kind, option);
}

/**
 * Free text given to a prompt of `kind` (the chat bridge's reply to a command's question): a menu
 * takes it as keys alone, any other prompt as a line (the text, then Enter).
 */
export function planFreeText(kind: PromptAnswer['kind'] | null, text: string): AnswerPlan {
  if (kind === 'key') return { kind: 'keys', items: text === '' ? [] : [{ kind: 'text', text }], label: text };
  return { kind: 'line', text, label: text === '' ? 'Enter' : `${text}, then Enter` };
}
