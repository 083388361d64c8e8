// opencode: the "△ Permission required" panel (Allow once / Allow always / Reject), the prompt's
// footer ("ctrl+p commands"), and the working footer ("⬝■■⬝ esc interrupt").

import type { RuleSet } from '../rule.js';

export const opencodeRules: RuleSet = {
  tool: 'opencode',
  rules: [
    {
      id: 'opencode/working',
      kind: 'busy',
      pattern: /(?:^|\s)esc (?:again to )?interrupt\b/,
    },
    {
      // The earlier Go interface: its help bar while it works, the pulse beside the task's text,
      // and the task text while a tool runs.
      id: 'opencode/working-legacy',
      kind: 'busy',
      pattern: /^press esc to exit cancel\b|^█\s+[A-Z][a-z]+ing\b.*(?:\.\.\.|…)$|^Waiting for tool response\.\.\.$/,
      within: 6,
    },
    {
      id: 'opencode/permission',
      kind: 'permission',
      pattern: /^△\s*Permission required$/,
    },
    {
      // The earlier Go interface: a "Permission Required" dialog with lettered buttons.
      id: 'opencode/permission-dialog',
      kind: 'permission',
      pattern: /^Permission Required$/,
      requires: [/Allow \(a\)|Deny \(d\)/],
    },
    {
      id: 'opencode/prompt-footer',
      kind: 'stopped',
      pattern: /(?:^|\s)ctrl\+[a-z] commands$/,
      within: 3,
    },
  ],
};
