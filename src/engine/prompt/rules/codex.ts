// Codex CLI: approval overlays ("Would you like to run the following command?" above a `› 1. Yes,
// proceed (y)` menu), the `›` composer, and the status line `Working (5s • esc to interrupt)`.

import { BUSY_REGION_LINES, type RuleSet } from '../rule.js';
import { TURN_END } from './generic.js';

const MENU_OR_FOOTER = /^[›>]\s*\d+\.\s|^Press enter to confirm or esc to (?:cancel|go back)$|\bYes \(y\)|\(Y\)/i;

export const codexRules: RuleSet = {
  tool: 'codex',
  rules: [
    {
      id: 'codex/working',
      kind: 'busy',
      // On a narrow pane the hint is cut short: "(2s • esc to i…".
      pattern: /\((?:\d+h\s*)?(?:\d+m\s*)?\d+s\s*•\s*esc\b(?:[^)]*\)|[^)]*…$)/i,
      // It stays above the output of the command it runs ("• Running command: cargo test (18s • …)").
      within: BUSY_REGION_LINES,
      notBelow: TURN_END,
    },
    {
      // A reply that stalls mid-stream shows no status line: Codex hides it while text streams. The
      // turn is still open while its reply (`• …`) has no "Worked for 3s • 10:42" summary (or
      // "■ Conversation interrupted") under it.
      id: 'codex/turn-open',
      kind: 'busy',
      pattern: /^• \S/,
      below: /^›(?:\s.*)?$/,
      notBelow: /^(?:Worked for\b|─+ Worked for\b|■ )/,
      // Releases with the agents footer (0.17x) end every turn with that summary; older ones did not.
      requires: [/← for agents\b/],
    },
    {
      id: 'codex/approval',
      kind: 'permission',
      // "Would you like to run the following command?" (make the following edits, grant these
      // permissions, approve this plan), "<server> needs your approval.", older "Allow command?".
      pattern: /^(?:Would you like to .+\?|.+ needs your approval\.|Allow command\?|Apply changes\?)$/,
      requires: [MENU_OR_FOOTER],
    },
    {
      // A long command can push the question out of the bottom region; the footer stays.
      id: 'codex/approval-footer',
      kind: 'permission',
      pattern: /^Press enter to confirm or esc to (?:cancel|go back)$/i,
      requires: [/^[›>]\s*\d+\.\s/],
    },
    {
      // Its own pickers and overlays: /model and /permissions ("enter select · esc back"), /resume
      // ("enter resume … esc exit"), the shortcuts overlay ("? / esc close").
      id: 'codex/own-menu',
      kind: 'stopped',
      menu: true,
      pattern: /^enter select · esc back$|^enter resume\b.*\besc exit\b|^\? \/ esc close$/,
      within: 3,
    },
    {
      // The composer: `›` with the draft or a placeholder ("› Ask Codex to do anything"), near the bottom.
      id: 'codex/composer',
      kind: 'stopped',
      pattern: /^›(?:\s.*)?$/,
      within: 4,
    },
    {
      // Early builds drew a `▌` composer with this key hint under it.
      id: 'codex/composer-hint',
      kind: 'stopped',
      pattern: /^⏎ send\s+(?:Ctrl|⇧)/,
      within: 2,
    },
  ],
};
