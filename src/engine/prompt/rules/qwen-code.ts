// Qwen Code, a fork of gemini-cli: the same input box ("Type your message or @path/to/file"), but
// its own footer ("⏸ Ask permissions (shift + tab to cycle)", "➜ dir · git:(main) · model"), its own
// working line (".. Looking for a misplaced semicolon... (2s · ↑ 16 tokens · esc to cancel)") and
// its own dialogs. Tried before gemini-cli, so the parent's input-box rule never speaks for it: a
// Qwen screen with its spinner running is busy, not idle.

import type { RuleSet } from '../rule.js';

/**
 * Qwen's footer: the approval mode ("⏸ Ask permissions (shift + tab to cycle)") or, after an Esc,
 * "Press Esc again to clear."; above it the status line "➜ work · git:(main) · qwen3-coder".
 */
const FOOTER = /\(shift \+ tab to cycle\)$|^➜ \S.* · \S/;

/** The first entry of its approval menus: `› 1. Yes, allow once`, `› 1. Yes, restore previous mode (default)`. */
const APPROVAL_MENU = /^› 1\. Yes\b/;

export const qwenCodeRules: RuleSet = {
  tool: 'qwen-code',
  rules: [
    {
      // The phrase, then a timer and a token count in front of the hint. On a narrow pane the line
      // wraps inside the brackets ("(4s · ↓ 8 tokens · esc to" / "cancel)"), so the hint is not needed.
      id: 'qwen-code/responding',
      kind: 'busy',
      pattern: /\((?:\d+h\s*)?(?:\d+m\s*)?\d+s · [↑↓] [\d.,]+k? tokens\b/,
      requires: [FOOTER],
    },
    {
      // Tool approvals, as gemini-cli asks them but over its own `› 1. Yes, allow once` menu, and
      // the plan approval ("Would you like to proceed?").
      id: 'qwen-code/confirmation',
      kind: 'permission',
      pattern: /^(?:Allow execution of\b.*\?|Apply this change\?|(?:Do you want|Would you like) to proceed\?|Allow (?:execution of )?MCP tool\b.*\?)$/,
      requires: [APPROVAL_MENU],
      answer: 'key',
    },
    {
      // Its pickers (questions, approvals) end in this key hint.
      id: 'qwen-code/picker',
      kind: 'permission',
      pattern: /^↑\/↓: Navigate \| Enter: Select \| Esc: Cancel$/,
      answer: 'key',
    },
    {
      // Its own dialogs, by their footers: /model ("Enter to select, ↑↓ to navigate, Esc to
      // close"), /help ("Tab/Shift+Tab to switch tabs · Esc to cancel"), /resume ("… ↑↓ to navigate
      // · Type to search · Esc to cancel", its "Press / to search" hint when the footer wraps) and
      // /settings ("(Use Enter to select, Tab to configure scope)").
      id: 'qwen-code/own-menu',
      kind: 'stopped',
      menu: true,
      pattern: /↑↓ to navigate, Esc to close$|^Tab\/Shift\+Tab to switch tabs\b|↑↓ to navigate · Type to search\b|^Press \/ to search$|^\(Use Enter to select, Tab to configure scope\)$/,
      within: 30,
    },
    {
      // The input box with its placeholder or a draft, above Qwen's own footer.
      id: 'qwen-code/input-box',
      kind: 'stopped',
      pattern: /^[>!*]\s+\S|^[>!*]$/,
      above: /^─{10,}$/,
      below: FOOTER,
      answer: 'line',
    },
  ],
};
