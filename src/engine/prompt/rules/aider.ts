// aider: the input prompt (`> `, or the mode's name: `architect> `, `ask> `, `multi> `) with a
// draft or not, and its scanner ("█░   Waiting for openai/gpt-5"; in older releases "Waiting for
// LLM [──≡=───]").

import type { RuleSet } from '../rule.js';

/** Lines aider prints around its prompt; they tell its bare `>` from a Node REPL's. */
const AIDER_CONTEXT = /^(?:Aider v\d|Main model: |Weak model: |Git repo: |Repo-map: |Tokens: [\d.]+k? sent|Added .+ to the chat|Applied edit to |Commit [0-9a-f]{7} |Use \/help )/;

export const aiderRules: RuleSet = {
  tool: 'aider',
  rules: [
    {
      // Its scanner, two cells bouncing in a ten-cell field before what it waits on:
      // "█░         Waiting for openai/gpt-5", "   ░█      Updating repo map" (`#=` without unicode).
      id: 'aider/scanner',
      kind: 'busy',
      pattern: /^(?:█░|░█|#=|=#)\s+[A-Z][a-z]+\b/,
      within: 2,
    },
    {
      id: 'aider/waiting',
      kind: 'busy',
      pattern: /\s\[(?=[-─=]*[#≡])[-─=#≡]{7}\]$/,
      within: 1,
    },
    {
      id: 'aider/mode-prompt',
      kind: 'stopped',
      where: 'last-line',
      pattern: /^(?:(?:architect|ask|code|help|context|diff|whole|udiff|diff-fenced|editor-diff|editor-whole|patch)(?: multi)?|multi)>$/,
    },
    {
      // A draft at a mode's prompt ("diff> fix the parser"), and each line of a multi-line `{`
      // block, which aider prompts for with the same prefix ("diff> {", "diff> second line").
      id: 'aider/mode-draft',
      kind: 'stopped',
      where: 'last-line',
      // A command that runs a program (`/run sleep 60`, `!make`, `/test`) stays on the last line,
      // unchanged, while it runs silently: sent, it reads exactly as a draft would. Nobody leaves
      // one unsent, so it is taken as running (the process tree says so too, see process-work.ts).
      unless: /^[\w -]+> (?:\/(?:run|test|lint|git)\b|!)/,
      pattern: /^(?:(?:architect|ask|code|help|context|diff|whole|udiff|diff-fenced|editor-diff|editor-whole|patch)(?: multi)?|multi)> \S/,
    },
    {
      id: 'aider/prompt',
      kind: 'stopped',
      where: 'last-line',
      pattern: /^>$/,
      requires: [AIDER_CONTEXT],
    },
  ],
};
