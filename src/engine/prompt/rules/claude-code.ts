// Claude Code: numbered permission menus with a `❯` cursor, the idle `>` / `❯` input box between
// two horizontal rules, and the spinner line (`✻ Thinking… (12s · ↑ 1.2k tokens · esc to interrupt)`).

import type { RuleSet } from '../rule.js';
import { TURN_END } from './generic.js';

/** Glyphs Claude Code cycles through in front of its status word. */
const SPINNER = '·✢✳✶✻✽*✱✲✴✵✷✸✹✺✼✾✿❀❁❂❃❇❈❉❊❋✤✥✦✧●';

/**
 * What only Claude Code draws near its input box: its footer's mode line (`⏸ manual mode on`,
 * `⏵⏵ accept edits on`, "? for shortcuts", "shift+tab to cycle"), its reply and tool marks
 * (`⏺`, `⎿`), its banner ("Claude Code v2.1") and a turn summary (`✻ Baked for 0s`). Two rules
 * around a `>` alone are no evidence: aider's history draws them too.
 */
export const CLAUDE_MARK =
  /^(?:⏸|⏵⏵|⏵)\s|\? for shortcuts\b|\bshift\+tab to cycle\b|^[⏺⎿]|Claude Code v\d|^✻ [A-Z][a-z]+ed for\b/;

/** The selected entry of a numbered menu: `❯ 1. Yes`. */
const CURSOR_OPTION = /^❯\s*\d+\.\s+\S/;

export const claudeCodeRules: RuleSet = {
  tool: 'claude-code',
  rules: [
    {
      // "✻ Thinking… (12s · ↑ 1.2k tokens · esc to interrupt)", "✽ Tempering…", a task's
      // "✳ Simplifying recompute_tangents…"; `●` when motion is reduced. A capital word starts it
      // and the ellipsis comes within four words, or a timer follows it: a bullet of prose that ends
      // in "…" does not count. The summary left after a turn ("✻ Worked for 1m 2s") has no ellipsis.
      id: 'claude-code/spinner',
      kind: 'busy',
      pattern: new RegExp(
        `^[${SPINNER}]\\s+(?:[A-Z][^\\s…]*(?:\\s[^\\s…]+){0,3}…|[A-Z][^…]{0,80}…\\s*\\(.*\\d+s\\b.*\\))(?:\\s*\\(.*\\))?$`,
      ),
      notBelow: TURN_END,
    },
    {
      // Newer footers carry the hint under the input box: "⏵⏵ accept edits on · esc to interrupt".
      id: 'claude-code/footer-interrupt',
      kind: 'busy',
      pattern: /^(?:⏵⏵|⏸|⏵).*·\s*esc to interrupt\b/i,
    },
    {
      // "Do you want to proceed?", "Do you want to make this edit to app.ts?", plan mode's
      // "Would you like to proceed?", the folder trust dialog; each above a `❯ 1. …` menu.
      id: 'claude-code/permission-menu',
      kind: 'permission',
      pattern:
        /^(?:Do you want to .+\?|Would you like to proceed\?|Do you trust the files in this folder\?|Exit plan mode\?)$/,
      requires: [CURSOR_OPTION],
      answer: 'key',
    },
    {
      // The first-run theme picker: `❯ ✔ Auto (match terminal)` over a code preview, no numbers.
      id: 'claude-code/theme-picker',
      kind: 'permission',
      pattern: /^❯ ✔ \S/,
      requires: [/^Syntax theme: |^Choose the text style\b/],
      answer: 'key',
    },
    {
      // Other menus that wait for a choice (questions, trust, MCP servers) end with this footer.
      id: 'claude-code/choice-footer',
      kind: 'permission',
      pattern: /^Enter to (?:select|confirm)\b.*\bEsc to (?:cancel|exit)\b/i,
      requires: [CURSOR_OPTION],
      answer: 'key',
    },
    {
      // Its own panels, opened by a slash command: /model ("Enter to save · Esc to cancel"), /help,
      // /resume and /config ("Esc to close", "Esc to go back"). The person opened them.
      id: 'claude-code/own-menu',
      kind: 'stopped',
      menu: true,
      pattern: /(?:^|·\s*)Esc to (?:close|go back)$|\bEnter to save\b.*\bEsc to cancel$/,
      within: 3,
    },
    {
      // The same footer wrapped on a narrow pane: "… · Esc to" over "close".
      id: 'claude-code/own-menu-wrapped',
      kind: 'stopped',
      menu: true,
      pattern: /^(?:close|go back)$/,
      above: /·\s*Esc to$/,
      within: 2,
    },
    {
      id: 'claude-code/model-menu-wrapped',
      kind: 'stopped',
      menu: true,
      pattern: /^cancel$/,
      above: /\bEnter to save\b.*·\s*Esc to$/,
      within: 2,
    },
    {
      // /help's tabs, its footer cut off below a short pane.
      id: 'claude-code/help-panel',
      kind: 'stopped',
      menu: true,
      pattern: /^Help\s{2,}General\s{2,}Commands\b/,
      within: 30,
    },
    {
      // The input box: `>` (or `❯`) right under a rule or the box's top border, another rule below.
      id: 'claude-code/input-box',
      kind: 'stopped',
      pattern: /^[>❯](?:\s.*)?$/,
      above: /^[╭─]─{3,}/,
      below: /^[╰─]─{3,}/,
      requires: [CLAUDE_MARK],
    },
  ],
};
