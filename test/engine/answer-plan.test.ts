// The one answer plan: a prompt's verdict and a chosen option in, the keys to type out (or a refusal
// that says why). Pure.

import { describe, expect, it } from 'vitest';
import { AnswerRefusedError, offeredAnswers, planAnswer, planFreeText } from '../../src/engine/typing/answer-plan.js';
import type { PromptVerdict } from '../../src/engine/types.js';

const verdict = (kind: 'key' | 'line' | 'secret', options: string[], over: Partial<PromptVerdict> = {}): PromptVerdict => ({
  prompt: true,
  reason: 'permission',
  busy: false,
  tool: 'generic',
  rule: 'r',
  line: 'q',
  answer: { kind, options },
  ...over,
});

function refusal(run: () => unknown): AnswerRefusedError {
  try {
    run();
  } catch (error) {
    if (error instanceof AnswerRefusedError) return error;
    throw error;
  }
  throw new Error('no refusal');
}

describe('answer plan', () => {
  it('gives a menu the option key alone, a line prompt the text then Enter, and Enter as the key', () => {
    expect(planAnswer(verdict('key', ['1', '2', '3', 'Enter']), '2', 'work:1.0')).toEqual({ kind: 'keys', items: [{ kind: 'text', text: '2' }], label: '2' });
    expect(planAnswer(verdict('line', ['y', 'n', 'Enter']), 'y', 'work:1.0')).toEqual({ kind: 'line', text: 'y', label: 'y, then Enter' });
    expect(planAnswer(verdict('line', ['y', 'n', 'Enter']), 'Enter', 'work:1.0')).toEqual({ kind: 'keys', items: [{ kind: 'key', key: 'Enter' }], label: 'Enter' });
    expect(planAnswer(verdict('key', ['yes', 'no']), 'yes', 'w')).toEqual({ kind: 'keys', items: [{ kind: 'text', text: 'yes' }], label: 'yes' });
  });

  it('refuses what the prompt does not offer, a secret, and a screen with no prompt or a busy one', () => {
    const notOffered = refusal(() => planAnswer(verdict('line', ['y', 'n', 'Enter']), 'x', 'work:1.0'));
    expect(notOffered).toMatchObject({ code: 'not_an_option', offered: ['y', 'n', 'Enter'] });
    expect(notOffered.message).toBe('"x" is not an answer work:1.0 offers; offered: y, n, Enter');
    expect(refusal(() => planAnswer(verdict('secret', []), 'hunter2', 'w'))).toMatchObject({ code: 'secret' });
    expect(refusal(() => planAnswer(null, 'y', 'w'))).toMatchObject({ code: 'no_prompt' });
    expect(refusal(() => planAnswer(verdict('line', ['y'], { prompt: false, answer: null }), 'y', 'w'))).toMatchObject({ code: 'no_prompt' });
    expect(refusal(() => planAnswer(verdict('line', ['y'], { busy: true }), 'y', 'w'))).toMatchObject({ code: 'no_prompt' });
  });

  it('offers what the verdict offers, nothing on a busy screen', () => {
    expect(offeredAnswers(verdict('key', ['1', '2']))).toEqual(['1', '2']);
    expect(offeredAnswers(verdict('key', ['1', '2'], { busy: true }))).toEqual([]);
    expect(offeredAnswers(null)).toEqual([]);
  });

  it("types a free reply to a command's question as its prompt wants: keys alone for a menu, else a line", () => {
    expect(planFreeText('key', '2')).toEqual({ kind: 'keys', items: [{ kind: 'text', text: '2' }], label: '2' });
    expect(planFreeText('line', 'deploy now')).toEqual({ kind: 'line', text: 'deploy now', label: 'deploy now, then Enter' });
    expect(planFreeText(null, '')).toEqual({ kind: 'line', text: '', label: 'Enter' });
    // Every offered option is planned as the same reply would be, except Enter, which is the key.
    for (const kind of ['key', 'line'] as const) {
      expect(planAnswer(verdict(kind, ['yes', 'no']), 'no', 'w')).toEqual(planFreeText(kind, 'no'));
    }
  });
});
