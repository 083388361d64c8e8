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
      id: 'generic/choice-menu',
      kind: 'permission',
      pattern: /\((?:Use arrow keys|use arrow keys)[^)]*\)$|\[Use arrows to move[^\]]*\]$/,
      within: 12,
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
  ],
};
