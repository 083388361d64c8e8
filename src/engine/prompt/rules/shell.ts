// Shells idle at their prompt. A shell prompt counts only as the last non-empty line: a `$` in old
// output higher up is not a prompt. Prompts seen: bash/zsh `user@host:~/dir$`, `[user@host dir]$`,
// root `#`, zsh `host%` and `user@host ~ %`, fish `user@host ~/dir>`, starship/pure `❯`,
// oh-my-zsh `➜  dir git:(main) ✗` and `λ ~/dir/ git:(main)`, one-line `~/src/app main* ❯`,
// `bash-5.2$`, a bare `myhost$`, PowerShell `PS /home/me>`, the second line of two-line prompts
// (`└──╼ $`, powerlevel10k's `╰─❯`) and `src λ`. The git part of bash's `__git_ps1` and fish's
// prompt nests parentheses on a detached HEAD: `me@box:~/src ((c2fe9bb...))$`, `root@vm /w/app ((c2fe9bb0))#`.

import type { RuleSet } from '../rule.js';

export const shellRules: RuleSet = {
  tool: 'shell',
  rules: [
    {
      id: 'shell/user-host',
      kind: 'stopped',
      where: 'last-line',
      pattern: /^(?:\([^()\s]+\)\s+)*\[?[\w.-]+@[\w.-]+(?:[:\s][^\s$#%]*)?\]?(?:\s+\((?:[^()]|\([^()]*\))*\))?\s?[$#%]$/,
    },
    {
      id: 'shell/path',
      kind: 'stopped',
      where: 'last-line',
      pattern: /^(?:\([^()\s]+\)\s+)*[~/][^\s$#%]*(?:\s+\((?:[^()]|\([^()]*\))*\))?\s?[$#%]$/,
    },
    {
      id: 'shell/fish',
      kind: 'stopped',
      where: 'last-line',
      pattern: /^(?:[\w.-]+@[\w.-]+\s)?[~/][^\s>]*(?:\s\((?:[^()]|\([^()]*\))*\))?>$/,
    },
    {
      id: 'shell/sigil',
      kind: 'stopped',
      where: 'last-line',
      pattern: /^[$#%]$/,
    },
    {
      id: 'shell/versioned',
      kind: 'stopped',
      where: 'last-line',
      pattern: /^(?:bash|sh|zsh|dash|ksh|mksh|ash)(?:-\d+(?:\.\d+)*)?[$#]$/,
    },
    {
      // A bare name before the sigil: `myhost$`, `demo$`, `box#` (PS1='\h\$ ' and the like).
      id: 'shell/name',
      kind: 'stopped',
      where: 'last-line',
      pattern: /^(?=[\w.-]*[A-Za-z])[\w.-]*[A-Za-z0-9][$#]$/,
    },
    {
      // zsh's default `host% `; a figure such as "100%" is not a host name.
      id: 'shell/zsh-host',
      kind: 'stopped',
      where: 'last-line',
      pattern: /^(?=[\w.-]*[A-Za-z])[\w.-]+%$/,
    },
    {
      id: 'shell/arrow',
      kind: 'stopped',
      where: 'last-line',
      // Under a horizontal rule a bare `❯` is an agent's input box (its spinner may be above it).
      notAbove: /^─{3,}/,
      // A bare `❯` right under a spinner or interrupt hint is a working agent's cursor.
      yieldsToWork: true,
      pattern: /^(?:[❯➜λ»]|➜\s+[\w.~/-]+(?:\s+git:\([^()]*\))?(?:\s+✗)?)$/,
    },
    {
      // The second line of a two-line prompt: `╰─$`, `╰─❯`, Parrot OS's `└──╼ $` / `└──╼ #`.
      id: 'shell/two-line',
      kind: 'stopped',
      where: 'last-line',
      pattern: /^[╰└]─+(?:╼|>)?\s?[❯$%#>λ]$/,
      answer: 'line',
    },
    {
      // A folder, a few words (a git branch, marks) and an arrow: one-line prompts in the style of
      // starship and pure, `~/src/app main* ❯`, `me@box ~/src/app ❯`.
      id: 'shell/path-arrow',
      kind: 'stopped',
      where: 'last-line',
      pattern: /^(?:[\w.-]+@[\w.-]+\s+)?[~/][^\s❯]*(?:\s+[^\s❯]+){0,4}\s[❯»]$/,
      answer: 'line',
    },
    {
      // A lambda, then the folder: oh-my-zsh's lambda theme, `λ ~/src/app/ git:(main)`.
      id: 'shell/lambda-first',
      kind: 'stopped',
      where: 'last-line',
      pattern: /^λ\s+[~/][^\s]*(?:\s+git:\([^()]*\)(?:\s+[✗✔])?)?$/,
      answer: 'line',
    },
    {
      // A folder before a lambda: `src λ`, `~/work λ`.
      id: 'shell/lambda',
      kind: 'stopped',
      where: 'last-line',
      pattern: /^[\w.~/@:-]+ λ$/,
      answer: 'line',
    },
    {
      id: 'shell/powershell',
      kind: 'stopped',
      where: 'last-line',
      pattern: /^PS (?:[A-Za-z]:\\|\/)[^>]*>$/,
    },
  ],
};
