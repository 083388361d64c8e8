// Decides whether a screen waits for a person. (First cut: to be replaced by per-tool rule sets.)

import type { PromptVerdict } from '../types.js';

export interface PromptRules {
  readonly name: string;
}

export const DEFAULT_RULES: PromptRules = { name: 'default' };

const NO_PROMPT: PromptVerdict = { prompt: false, reason: null, busy: false, tool: null, rule: null, line: '' };

/** Classifies a screen given as lines (top to bottom). */
export function classifyScreen(lines: readonly string[], _rules: PromptRules = DEFAULT_RULES): PromptVerdict {
  const last = [...lines].reverse().find((l) => l.trim() !== '') ?? '';
  if (/\[y\/N\]\s*$|\(yes\/no\)\s*$/i.test(last)) {
    return { prompt: true, reason: 'permission', busy: false, tool: null, rule: 'yes-no', line: last.trim() };
  }
  if (/[$#%]\s*$/.test(last))
    return { prompt: true, reason: 'stopped', busy: false, tool: 'shell', rule: 'shell', line: last.trim() };
  return { ...NO_PROMPT, line: last.trim() };
}
