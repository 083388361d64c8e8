// The ten generic patterns corral started from, kept as the "seed" pack. Each applies to the last
// non-empty line and counts as "stopped". Several of them (`:` at the end, `>` at the end, any `@`)
// also match ordinary log lines; the benchmark measures how often.

import type { RuleSet } from '../rule.js';

const lastLine = (id: string, pattern: RegExp) => ({ id: `seed/${id}`, kind: 'stopped', where: 'last-line', raw: true, pattern }) as const;

export const seedRules: RuleSet = {
  tool: 'seed',
  rules: [
    lastLine('dollar', /\$\s*$/),
    lastLine('gt', />\s*$/),
    lastLine('hash', /#\s*$/),
    lastLine('question', /\?\s*$/),
    lastLine('bracket', /\[.*?\]\s*$/),
    lastLine('colon', /:\s*$/),
    lastLine('python', />>>\s*$/),
    lastLine('ellipsis', /\.\.\.\s*$/),
    lastLine('mysql', />\s*>/),
    lastLine('at', /@/),
  ],
};
