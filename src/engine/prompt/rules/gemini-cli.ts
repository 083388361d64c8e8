// gemini-cli: tool confirmations ("Allow execution of: 'npm'?", "Apply this change?" above an
// "Allow once" radio menu), the input box placeholder "Type your message or @path/to/file", and the
// loading line `⠋ Thinking... (esc to cancel, 3s)` (the timer is absent while it waits for a confirmation).

import type { RuleSet } from '../rule.js';

const FOOTER = /\(\d+% context left\)|\bno sandbox\b/;

export const geminiCliRules: RuleSet = {
  tool: 'gemini-cli',
  rules: [
    {
      id: 'gemini-cli/responding',
      kind: 'busy',
      pattern: /\(esc to cancel, (?:\d+h\s*)?(?:\d+m\s*)?\d+s\)/,
    },
    {
      id: 'gemini-cli/confirmation',
      kind: 'permission',
      pattern: /^(?:Allow execution\b.*\?|Apply this change\?|Do you want to proceed\?|Allow (?:execution of )?MCP tool\b.*\?)$/,
      requires: [/\b(?:Yes, allow once|Allow once|suggest changes \(esc\)|No \(esc\))/],
    },
    {
      id: 'gemini-cli/waiting-for-confirmation',
      kind: 'permission',
      pattern: /^(?:[⠁-⣿]\s*)?Waiting for user confirmation\b/,
    },
    {
      id: 'gemini-cli/input-placeholder',
      kind: 'stopped',
      pattern: /Type your message or @path\/to\/file$/,
    },
    {
      // Its own dialogs: /model ("(Press Esc to close)"), /settings ("…, Esc to close)"), and the
      // /resume browser ("Navigate: ↑/↓   Resume: Enter …"), which may list many sessions.
      id: 'gemini-cli/own-menu',
      kind: 'stopped',
      menu: true,
      pattern: /\bEsc to close\)$|^Navigate: ↑\/↓\s+Resume: Enter\b/,
      within: 30,
    },
    {
      // A draft in the input box: `>` (`!` shell mode, `*` yolo) under the box's top edge, or
      // under the approval mode's hint line ("Shift+Tab to accept edits", "plan Shift+Tab to manual").
      id: 'gemini-cli/input-box',
      kind: 'stopped',
      pattern: /^[>!*](?:\s.*)?$/,
      above: /^[▀╭─][▀─]{3,}|\bShift\+Tab to \w/,
      requires: [FOOTER],
      within: 6,
    },
  ],
};
