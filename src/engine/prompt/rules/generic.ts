// Programs of any kind, on the last line: yes/no questions (`[y/N]`, `[Y/n]`, `(yes/no)`, `(y/n)`,
// conda, dpkg), secrets and credentials (`[sudo] password for x:`, `Enter passphrase for key …:`,
// `Password:`, `Enter PIN …:`, `Username for '…':`), ssh's host key question, terraform's approval,
// `rm -i`, questions with a default (`Key name [release]:`, npm init), "Press Enter to continue",
// pagers; arrow-key menus near the bottom; and the busy hints many tools share ("esc to interrupt",
// "ctrl+c to cancel", a spinner next to a running timer).

import type { RuleSet } from '../rule.js';

export const genericRules: RuleSet = {
  tool: 'generic',
  rules: [
    {
      id: 'generic/interrupt-hint',
      kind: 'busy',
      pattern: /\b(?:esc|escape) to (?:interrupt|stop)\b|\b(?:ctrl\+c|ctrl-c|\^C) to (?:interrupt|stop|cancel|abort)\b/i,
    },
    {
      // A status with its timer before the hint: "(7s · ↓ 8 tokens · esc to cancel)". "esc to cancel"
      // alone is not busy (dialogs offer it); with a running timer in the same brackets it is.
      id: 'generic/timer-hint',
      kind: 'busy',
      pattern: /\((?:\d+h\s*)?(?:\d+m\s*)?\d+(?:\.\d+)?s\b[^()]*\b(?:esc|ctrl\+c) to (?:cancel|interrupt|stop)\)/i,
    },
    {
      // A spinner glyph, a phrase, and a running counter: "⠋ Building (12s)", "◐ Indexing · 1m 3s".
      id: 'generic/spinner-timer',
      kind: 'busy',
      pattern: /^[⠁-⣿◐◓◑◒◴◷◶◵]\s+\S.*?(?:\(|\[|·|•|-)\s*(?:\d+h\s*)?(?:\d+m\s*)?\d+(?:\.\d+)?s\b/,
    },
    {
      id: 'generic/yes-no',
      kind: 'permission',
      where: 'last-line',
      // Also conda's "([y]/n)?" and dpkg's "(Y/I/N/O/D/Z) [default=N] ?".
      pattern:
        /[[(]\s*(?:\[?y(?:es)?\]?\s*\/\s*\[?n(?:o)?\]?|\[?n(?:o)?\]?\s*\/\s*\[?y(?:es)?\]?)(?:\s*\/\s*[^\])/]+)*\s*[\])]\s*[:?]?$|\(Y(?:\/[A-Z])+\) \[default=[A-Z]\] \?$/i,
    },
    {
      // git add -p and friends: "(1/2) Stage this hunk [y,n,q,a,d,e,?]?".
      id: 'generic/letter-choices',
      kind: 'permission',
      where: 'last-line',
      pattern: /\[[A-Za-z?](?:,[A-Za-z?])+\]\??$/,
      answer: 'line',
    },
    {
      id: 'generic/ssh-host-key',
      kind: 'permission',
      where: 'last-line',
      pattern: /\(yes\/no(?:\/\[fingerprint\])?\)\?$/,
    },
    {
      id: 'generic/ok-to-proceed',
      kind: 'permission',
      where: 'last-line',
      pattern: /\bOk to proceed\? \(y\)$/,
    },
    {
      id: 'generic/secret',
      kind: 'permission',
      where: 'last-line',
      pattern: /(?:\bpassword|\bpassphrase|\bpasscode|\bPIN\b|\bverification code|\bone-time (?:password|code)|\bOTP\b|\b2FA code)\b.{0,100}:$|^(?:Password|Passphrase|PIN)\s*:$/i,
      answer: 'secret',
    },
    {
      // Credentials asked for by name: "Username for 'https://github.com':", docker's "Username:".
      id: 'generic/username',
      kind: 'permission',
      where: 'last-line',
      pattern: /^(?:Username|User name|Login)(?: for '[^']*')?:$/i,
    },
    {
      // terraform apply: "Only 'yes' will be accepted to approve." above "Enter a value:".
      id: 'generic/terraform-approve',
      kind: 'permission',
      where: 'last-line',
      pattern: /^Enter a value:$/,
      requires: [/Only 'yes' will be accepted/],
      options: ['yes'],
    },
    {
      id: 'generic/confirm-file-operation',
      kind: 'permission',
      where: 'last-line',
      pattern: /^(?:rm|cp|mv|ln): .+\?$/,
      options: ['y', 'n'],
    },
    {
      // A numbered menu with a cursor on one entry, drawn near the bottom: "❯ 1. Yes", "› 1. Trust and
      // continue", "● 2. Use Gemini API Key". It needs entries 1 and 2, so a lone "› 1. do X" draft
      // in an agent's input is not a menu. Agents' own rules name the question; this one catches
      // the dialogs they do not know (first-run screens, new dialogs).
      id: 'generic/numbered-menu',
      kind: 'permission',
      pattern: /^[❯›●▶►]\s*\d{1,2}[.)]\s+\S/,
      within: 10,
      requires: [/^(?:[❯›●▶►]\s*)?1[.)]\s+\S/, /^(?:[❯›●▶►]\s*)?2[.)]\s+\S/],
      // An agent's answer can be a numbered list on a `●` bullet; its input box, a rule above and
      // below, is drawn under it, while a dialog is the lowest thing on the screen.
      notBelow: /^─{10,}$/,
      answer: 'key',
    },
    {
      // The key hints under a picker: "Enter to select · ↑/↓ to navigate · Esc to cancel",
      // "↑↓ select  enter submit  esc dismiss", "↑/↓: Navigate | Enter: Select | Esc: Cancel",
      // "(Use Enter to select)".
      id: 'generic/menu-footer',
      kind: 'permission',
      pattern:
        /^Enter to (?:select|confirm|submit|continue)\b.*\besc to (?:cancel|exit|go back|dismiss)\b|^↑↓ select\s+enter submit\s+esc dismiss$|^↑\/↓: Navigate \| Enter: Select \| Esc: Cancel$|^\(Use Enter to select\)$/i,
      within: 6,
      answer: 'key',
    },
    {
      // A key asked for in a dialog: "Please enter your Gemini API key." over "(Press Enter to submit, …)".
      id: 'generic/api-key',
      kind: 'permission',
      pattern: /\b(?:enter|paste) your .{0,40}\bAPI key\b/i,
      requires: [/\bPress Enter to submit\b/i],
      answer: 'secret',
    },
    {
      id: 'generic/choice-menu',
      kind: 'permission',
      pattern: /\((?:Use arrow keys|use arrow keys)[^)]*\)$|\[Use arrows to move[^\]]*\]$/,
      within: 12,
    },
    {
      // git's interactive menus (add -i, clean -i): "*** Commands ***" above "What now>".
      id: 'generic/git-what-now',
      kind: 'stopped',
      where: 'last-line',
      pattern: /^What now>$/,
      requires: [/^\*\*\* Commands \*\*\*$/],
      answer: 'line',
    },
    {
      // A question with its default answer: "Key name [release-2025]:", cookiecutter's
      // "[2/3] project_slug (ledger):" ("Traceback (most recent call last):" has the same shape as
      // the latter but no step number).
      id: 'generic/question-with-default',
      kind: 'stopped',
      where: 'last-line',
      pattern: /^[A-Za-z][\w .'/-]{0,40} \[[^\]]*\]:$|^\[\d+\/\d+\] [\w-]+ \([^()]*\):$/,
    },
    {
      // npm init's "version: (1.0.0)"; log lines such as "Name: (unset)" look the same, so only under
      // npm init's banner.
      id: 'generic/npm-init',
      kind: 'stopped',
      where: 'last-line',
      pattern: /^[a-z][\w .-]{0,30}: \([^()]*\)$/,
      requires: [/^(?:This utility will walk you through creating a package\.json file\.|Press \^C at any time to quit\.)$/],
    },
    {
      id: 'generic/press-to-continue',
      kind: 'stopped',
      where: 'last-line',
      pattern: /^(?:press|hit) (?:any key|enter|return|<enter>)\b.*\bto (?:continue|proceed|resume)\b/i,
      answer: 'key',
      options: ['Enter'],
    },
    {
      id: 'generic/pager',
      kind: 'stopped',
      where: 'last-line',
      // more, less (`:` and `(END)`), man.
      pattern: /^--\s?More\s?--(?:\s?\(\d+%\))?$|^\(END\)$|^:$|^Manual page .+\(press h for help or q to quit\)$/,
      answer: 'key',
      options: ['q'],
    },
    {
      // less on its first page shows the file's name where it later shows `:`. A log can end in a
      // file name too, so only on an alternate screen, where a pager draws and plain output does not.
      id: 'generic/pager-file-name',
      kind: 'stopped',
      where: 'last-line',
      pattern: /^(?=[^ ]*[./])(?:~|\.{1,2})?\/?(?:[\w.@+-]+\/)*[\w@+-][\w.@+-]*(?: \(file \d+ of \d+\))?$/,
      alternateScreen: true,
      answer: 'key',
      options: ['q'],
    },
  ],
};
