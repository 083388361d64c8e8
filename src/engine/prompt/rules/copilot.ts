// GitHub Copilot CLI: numbered dialogs in a box ending with "↑/↓ to navigate · enter to select · esc
// to cancel" (its folder trust dialog asks the question Claude Code asks, so this set goes before
// Claude Code's), and the `❯` input between two rules above its "/ commands" footer.

import type { RuleSet } from '../rule.js';

const FOOTER = /^↑\/↓ to navigate · enter to select · esc to cancel$/;
/** Its footer: "← open sidebar · Interactive · Manual Approval · / commands · ? help" (shorter when narrow). */
const INPUT_FOOTER = /· \/ commands · (?:\? help\b|tab next tab\b)/;

export const copilotRules: RuleSet = {
  tool: 'copilot',
  rules: [
    {
      id: 'copilot/dialog',
      kind: 'permission',
      // Any question: the footer and the numbered menu it requires say it is Copilot's dialog.
      pattern: /\?$/,
      within: 14,
      requires: [FOOTER, /^❯\s*1\.\s+\S/],
      answer: 'key',
    },
    {
      id: 'copilot/input-box',
      kind: 'stopped',
      pattern: /^❯(?:\s.*)?$/,
      above: /^─{10,}$/,
      below: INPUT_FOOTER,
      answer: 'line',
    },
    {
      // While its footer says something else ("● Loading: 2 skills"), its folder line above the
      // box ("~/work [⎇ main]") still says it is Copilot's.
      id: 'copilot/input-box-folder',
      kind: 'stopped',
      pattern: /^❯(?:\s.*)?$/,
      above: /^─{10,}$/,
      below: /^─{10,}$/,
      requires: [/\[⎇ [^\]]+\]$/],
      answer: 'line',
    },
  ],
};
