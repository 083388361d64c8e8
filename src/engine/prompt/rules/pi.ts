// pi (@mariozechner/pi-coding-agent): its editor between two full-width rules above a two-line
// footer (the folder, then "↑36 ↓72 0.1%/128k (auto) … model"). Its selectors (/model, /resume,
// /settings) are drawn in the editor's place. It asks no approvals, so it has no permission rules.

import type { RuleSet } from '../rule.js';

/** The footer's context gauge: "0.1%/128k (auto)". */
const FOOTER = /\b\d+(?:\.\d+)?%\/\d+k\b/;
const RULE = /^─{10,}$/;

export const piRules: RuleSet = {
  tool: 'pi',
  rules: [
    {
      // Its selectors: /settings ("Type to search · Enter/Space to change · Esc to cancel"),
      // /resume ("Resume Session (…", cut short when narrow, then its keys "tab scope · re:<pattern>
      // regex …"), /model ("Only showing models from configured providers").
      id: 'pi/own-menu',
      kind: 'stopped',
      menu: true,
      pattern: /^Type to search · Enter\/Space to change · Esc to cancel$|^Resume Session \(|^tab scope · re:<pattern> regex\b|^Only showing models from configured providers\b/,
      requires: [FOOTER],
      within: 30,
    },
    {
      // A draft in the editor: text between the two rules, the footer right under them.
      id: 'pi/editor',
      kind: 'stopped',
      pattern: /\S/,
      above: RULE,
      below: RULE,
      requires: [FOOTER],
      within: 8,
    },
  ],
};
