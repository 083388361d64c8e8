// Interpreters idle at their prompt, as the last non-empty line: Python `>>> ` and `... `, IPython
// `In [3]: `, pdb/gdb, Node `> `, psql `dbname=# ` / `dbname=> `, mysql `mysql> ` and `    -> `,
// sqlite `sqlite> `, irb `irb(main):001:0> `, pry, redis-cli `127.0.0.1:6379> `, ghci, iex, scala, julia.

import type { RuleSet } from '../rule.js';
import { QUESTION_OVER_CURSOR } from './generic.js';

export const replRules: RuleSet = {
  tool: 'repl',
  rules: [
    { id: 'repl/python', kind: 'stopped', where: 'last-line', pattern: /^>>>$/ },
    {
      // `... ` alone is also how logs elide; it counts only under a `>>> ` line.
      id: 'repl/python-continuation',
      kind: 'stopped',
      where: 'last-line',
      pattern: /^\.\.\.$/,
      requires: [/^>>>(?:\s|$)/],
    },
    {
      id: 'repl/ipython',
      kind: 'stopped',
      where: 'last-line',
      pattern: /^In \[\d+\]:$|^\.\.\.:$/,
      requires: [/^In \[\d+\]:/],
    },
    { id: 'repl/debugger', kind: 'stopped', where: 'last-line', pattern: /^\((?:Pdb|ipdb|gdb|lldb)\)$/ },
    // A bare `>` under a question is the cursor of a dialog (generic/question-over-cursor), and under
    // a horizontal rule it is an agent's input box, not Node's prompt.
    {
      id: 'repl/node',
      kind: 'stopped',
      where: 'last-line',
      pattern: /^>$/,
      notAbove: new RegExp(`${QUESTION_OVER_CURSOR.source}|^─{3,}`, 'i'),
      yieldsToWork: true,
    },
    {
      id: 'repl/node-continuation',
      kind: 'stopped',
      where: 'last-line',
      pattern: /^\.\.\.$/,
      requires: [/^>\s\S/],
    },
    { id: 'repl/psql', kind: 'stopped', where: 'last-line', pattern: /^[A-Za-z_][\w$]*(?:-[\w$]+)*[=\-(*'"][#>]$/ },
    { id: 'repl/mysql', kind: 'stopped', where: 'last-line', pattern: /^(?:mysql|MariaDB \[[^\]]*\])>$/ },
    {
      id: 'repl/mysql-continuation',
      kind: 'stopped',
      where: 'last-line',
      pattern: /^(?:->|'>|">|`>|\/\*>)$/,
      requires: [/^(?:mysql|MariaDB \[[^\]]*\])>/],
    },
    { id: 'repl/sqlite', kind: 'stopped', where: 'last-line', pattern: /^sqlite>$|^\.\.\.>$/ },
    { id: 'repl/irb', kind: 'stopped', where: 'last-line', pattern: /^irb\([^)]*\):\d+(?::\d+)?[>*"'?]$/ },
    { id: 'repl/pry', kind: 'stopped', where: 'last-line', pattern: /^\[\d+\] pry\([^)]*\)[>*"']$/ },
    {
      id: 'repl/redis',
      kind: 'stopped',
      where: 'last-line',
      pattern: /^(?:[\w.-]+|\[[\da-fA-F:]+\]):\d{2,5}(?:\[\d+\])?>$/,
    },
    {
      id: 'repl/other',
      kind: 'stopped',
      where: 'last-line',
      pattern: /^(?:ghci|Prelude(?:\s[\w.]+)*|scala|julia|jshell|iex\(\d+\)|user=)>$/,
    },
  ],
};
