import { describe, expect, it } from 'vitest';
import type { PromptAnswer, PromptVerdict } from '../../src/engine/types.js';
import { answerHint, answerBlockedReason, findAnswer, offeredKeysText, paneAnswers } from '../../src/ui/quick-answers.js';
import { paneView } from '../helpers/fake-engine.js';

function withPrompt(answer: PromptAnswer | null, prompt = true) {
  const verdict: PromptVerdict = {
    prompt,
    reason: prompt ? 'permission' : null,
    busy: false,
    tool: 'generic',
    rule: 'generic/test',
    line: '',
    answer,
  };
  return paneView({ verdict });
}

/** The keys that send Esc and the Ctrl keys, on every pane alike. */
const SIGNALS = ['escape', 'ctrl+c', 'ctrl+d', 'ctrl+z'];

const keysOf = (view: ReturnType<typeof withPrompt>, source?: string) =>
  paneAnswers(view)
    .choices.filter((c) => source === undefined || c.source === source)
    .map((c) => c.key);

describe('paneAnswers', () => {
  it('offers a menu its numbers and Enter, each planned as the key alone, plus menu keys and signals', () => {
    const view = withPrompt({ kind: 'key', options: ['1', '2', '3', 'Enter'] });
    expect(keysOf(view, 'prompt')).toEqual(['1', '2', '3', 'enter']);
    expect(keysOf(view, 'menu')).toEqual(['up', 'down']);
    expect(keysOf(view, 'signal')).toEqual(SIGNALS);
    const two = findAnswer(paneAnswers(view), '2');
    expect(two).toMatchObject({ option: '2', plan: { kind: 'keys', items: [{ kind: 'text', text: '2' }] }, label: 'send 2' });
    expect(offeredKeysText(paneAnswers(view))).toBe('1 2 3 Enter');
    // No y on a menu: it is not one of its answers.
    expect(findAnswer(paneAnswers(view), 'y')).toBeUndefined();
  });

  it('plans a line answer as the text, then Enter; Enter alone takes the default', () => {
    const view = withPrompt({ kind: 'line', options: ['y', 'n', 'Enter'] });
    expect(keysOf(view, 'prompt')).toEqual(['y', 'n', 'enter']);
    expect(findAnswer(paneAnswers(view), 'y')).toMatchObject({ option: 'y', plan: { kind: 'line', text: 'y' }, label: 'type y, then Enter' });
    expect(findAnswer(paneAnswers(view), 'enter')).toMatchObject({
      option: 'Enter',
      plan: { kind: 'keys', items: [{ kind: 'key', key: 'Enter' }] },
      label: 'send Enter (the default)',
    });
    // Menu keys are for menus only.
    expect(keysOf(view, 'menu')).toEqual([]);
    expect(offeredKeysText(paneAnswers(view))).toBe('y n Enter');
  });

  it('answers a word prompt by its first letter, with the whole word typed', () => {
    const view = withPrompt({ kind: 'line', options: ['yes', 'no'] });
    expect(findAnswer(paneAnswers(view), 'y')).toMatchObject({ option: 'yes', plan: { kind: 'line', text: 'yes' } });
    expect(findAnswer(paneAnswers(view), 'n')).toMatchObject({ option: 'no', plan: { kind: 'line', text: 'no' } });
  });

  it('gives every letter git add -p offers to the prompt, and the signals the same keys as on any other pane', () => {
    const view = withPrompt({ kind: 'line', options: ['y', 'n', 'q', 'a', 'd', 'j', 'J', 'g', '/', 'e'] });
    for (const letter of ['d', 'e', 'q', 'j', 'J', '/']) {
      expect(findAnswer(paneAnswers(view), letter)).toMatchObject({ source: 'prompt', option: letter, plan: { kind: 'line', text: letter } });
    }
    expect(keysOf(view, 'signal')).toEqual(SIGNALS);
    expect(offeredKeysText(paneAnswers(view))).toBe('y n q a d j J g / e');
  });

  it('gives a secret no quick answer, and a pane without a prompt only the signals', () => {
    const secret = withPrompt({ kind: 'secret', options: [] });
    expect(paneAnswers(secret).kind).toBe('secret');
    expect(keysOf(secret, 'prompt')).toEqual([]);
    expect(offeredKeysText(paneAnswers(secret))).toBe('—');
    const none = withPrompt(null, false);
    expect(paneAnswers(none).kind).toBeNull();
    expect(keysOf(none)).toEqual(SIGNALS);
    expect(offeredKeysText(paneAnswers(none))).toBe('—');
    expect(paneAnswers(null).choices).toEqual([]);
  });
});

describe('answerBlockedReason', () => {
  const view = paneView({ screenHash: 'drawn', pane: { sessionName: 'ops', windowIndex: 1 } });

  it('lets an answer through only on the screen that was drawn, and not twice on the same screen', () => {
    expect(answerBlockedReason(view, 'drawn', null)).toBeNull();
    expect(answerBlockedReason(view, 'older', null)).toMatch(/ops:1\.0 changed since it was drawn; nothing was sent/);
    expect(answerBlockedReason(view, 'drawn', { key: view.key, hash: 'drawn' })).toMatch(/was just answered/);
    // Answered on an earlier screen, and the screen has changed since: a new answer may go.
    expect(answerBlockedReason(view, 'drawn', { key: view.key, hash: 'before' })).toBeNull();
    expect(answerBlockedReason(undefined, 'drawn', null)).toMatch(/closed/);
  });
});

describe('answerHint', () => {
  it('names only what the prompt takes', () => {
    const line = withPrompt({ kind: 'line', options: ['y', 'n', 'Enter'] });
    expect(answerHint(paneAnswers(line))).toBe('y n Enter (Enter follows) · Esc Ctrl-C Ctrl-D Ctrl-Z send that key (asks) · other keys cancel');
    const secret = withPrompt({ kind: 'secret', options: [] });
    expect(answerHint(paneAnswers(secret))).toMatch(/^a password prompt: no quick answer/);
  });
});
