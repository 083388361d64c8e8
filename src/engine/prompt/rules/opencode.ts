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
      // Its dialogs (the ctrl+p command palette, /models, /sessions, /themes, /help) put "esc" (or
      // "esc/enter") at the right end of their title line: "Select model      esc".
      id: 'opencode/own-menu',
      kind: 'stopped',
      menu: true,
      pattern: /\S\s{3,}esc(?:\/enter)?$/,
      within: 30,
    },
    {
      // Matched by its stable part: at 160 columns the footer goes on with "• OpenCode 1.18.33"
      // (Kilo Code: "• Kilo 7.7.7"), and a tip of two lines may be drawn under it.
      id: 'opencode/prompt-footer',
      kind: 'stopped',
      pattern: /(?:^|\s)ctrl\+[a-z] commands(?:\s+•\s+\S.*)?$/,
      within: 5,
    },
  ],
};
