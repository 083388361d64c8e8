// One meaning per key after the answer prefix: over the prompts of every recorded and hand-written
// screen (real programs and real agents, through the engine's matcher) and over generated option
// sets, no key the keymap adds (arrows, Esc, Ctrl keys) is ever an option's key, every option a key
// can pick stays the prompt's, the signals are the same on every pane, and the footer that shows the
// offered keys stays terminal-safe and within its width.

import { describe, expect, it } from 'vitest';
import { readHandWritten, readRecorded } from '../../scripts/agents/accuracy.mjs';
import { classifyScreen } from '../../src/engine/prompt/matcher.js';
import type { PromptAnswer, PromptVerdict } from '../../src/engine/types.js';
import { footerText } from '../../src/ui/Footer.js';
import { KEYMAP, couldBeAnswerKey } from '../../src/ui/keymap.js';
import { findAnswer, offeredKeysText, paneAnswers } from '../../src/ui/quick-answers.js';
import { Rng, testSeed } from '../helpers/hostile-text.js';
import { paneView } from '../helpers/fake-engine.js';

// eslint-disable-next-line no-control-regex
const RAW_CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
const SIGNAL_KEYS = KEYMAP.filter((b) => b.scope === 'answer' && b.on === 'any').flatMap((b) => b.keys);

function viewOf(answer: PromptAnswer): ReturnType<typeof paneView> {
  const verdict: PromptVerdict = { prompt: true, reason: 'permission', busy: false, tool: 'generic', rule: 'generic/test', line: '', answer };
  return paneView({ verdict, state: 'stuck' });
}

/** The key an option is picked with when it needs no guessing: Enter, or the single character itself. */
function plainKey(option: string): string | null {
  if (option === 'Enter') return 'enter';
  return [...option].length === 1 ? option : null;
}

/** Everything that must hold for one prompt; returns its option keys for the callers' counts. */
function checkPrompt(answer: PromptAnswer, where: string): string[] {
  const answers = paneAnswers(viewOf(answer));
  const promptKeys = answers.choices.filter((c) => c.source === 'prompt').map((c) => c.key);
  const extraKeys = answers.choices.filter((c) => c.source !== 'prompt').map((c) => c.key);
  for (const key of extraKeys) {
    expect(promptKeys, `${where}: ${key} is both an option and a keymap key`).not.toContain(key);
    expect(couldBeAnswerKey(key), `${where}: ${key}`).toBe(false);
  }
  // The same signals, on the same keys, whatever the prompt offers.
  expect(answers.choices.filter((c) => c.source === 'signal').map((c) => c.key), where).toEqual(SIGNAL_KEYS);
  if (answer.kind !== 'secret') {
    for (const option of answer.options) {
      const key = plainKey(option);
      if (key === null) continue;
      expect(findAnswer(answers, key), `${where}: option ${JSON.stringify(option)}`).toMatchObject({ source: 'prompt', option });
    }
  }
  for (const width of [20, 60, 120]) {
    const footer = footerText(offeredKeysText(answers), width);
    expect(footer, `${where} at ${width}`).not.toMatch(RAW_CONTROL);
    expect(footer.startsWith('a: '), where).toBe(true);
  }
  return promptKeys;
}

describe('keys after the answer prefix', () => {
  it('never stand for an option on any prompt of the recorded and hand-written screens', () => {
    const screens = [...readRecorded(), ...readHandWritten()];
    const offered = new Map<string, string[]>();
    for (const screen of screens) {
      const verdict = classifyScreen(screen.lines, undefined, screen.context);
      if (!verdict.prompt || verdict.answer === null) continue;
      offered.set(screen.file, checkPrompt(verdict.answer, screen.file));
    }
    // Not a vacuous pass: many prompts with options, git add -p's letters among them.
    expect([...offered.values()].filter((keys) => keys.length > 0).length).toBeGreaterThan(50);
    expect(offered.get('programs/80x24/permission--git-add-patch.txt')).toEqual(['y', 'n', 'q', 'a', 'd', 'e']);
  });

  it('never stand for an option on generated option sets (any character, words, Enter)', () => {
    const seed = testSeed();
    const rng = new Rng(seed);
    const pieces = [
      ...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~',
      'Enter', 'yes', 'no', 'always', 'edit', 'cancel', 'é', '漢', '🚀', '\u001b', '\u0003', '\u0004', '\u001a', '\u009b', '\u202e', '\t', ' ',
    ];
    for (let round = 0; round < 2_000; round++) {
      const count = 1 + rng.int(14);
      const options = [...new Set(Array.from({ length: count }, () => rng.pick(pieces)))];
      const kind = rng.pick(['key', 'line'] as const);
      checkPrompt({ kind, options }, `seed ${seed} round ${round} ${JSON.stringify({ kind, options })}`);
    }
  });

  it('show the offered keys in the footer cut to their share of the width, the other keys still in view', () => {
    const many = viewOf({ kind: 'line', options: [...'yndqaeJjgks/?'] });
    const text = footerText(offeredKeysText(paneAnswers(many)), 60);
    expect(text).toMatch(/^a: y n d q a e J j g k s \/… · ↑↓ move · /);
    expect(footerText(offeredKeysText(paneAnswers(viewOf({ kind: 'line', options: ['\u001b[2J', 'y'] }))), 80)).toMatch(/^a: y · /);
    expect(footerText(offeredKeysText(paneAnswers(viewOf({ kind: 'key', options: ['\u001b'] }))), 80)).toMatch(/^a: \^\[ · /);
  });
});
