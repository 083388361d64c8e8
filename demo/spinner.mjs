#!/usr/bin/env node
// Demo pane: an agent that is busy. A spinner with elapsed time and "esc to interrupt", and now
// and then a line about what it did. It never waits for anyone.

const out = (text) => process.stdout.write(text);
const FRAMES = ['✻', '✶', '✳', '✢', '·', '✢', '✳', '✶'];
const STEPS = [
  'Read(src/lexer.ts)',
  'Edit(src/lexer.ts)',
  'Bash(npm run typecheck)',
  'Read(src/ast.ts)',
  'Edit(src/ast.ts)',
  'Bash(npm test -- lexer)',
];
const start = Date.now();
let frame = 0;
let tokens = 1200;
let step = 0;

out('\u001b[2J\u001b[H✻ agent (demo) · ~/src/compiler\n\n> refactor the parser into smaller functions\n\n');
setInterval(() => {
  const secs = Math.floor((Date.now() - start) / 1000);
  const time = secs < 60 ? `${secs}s` : `${Math.floor(secs / 60)}m ${secs % 60}s`;
  tokens += Math.floor(Math.random() * 40);
  out(
    `\r\u001b[2K${FRAMES[frame++ % FRAMES.length]} Refactoring… (${time} · ↑ ${(tokens / 1000).toFixed(1)}k tokens · esc to interrupt)`,
  );
}, 150);
setInterval(() => {
  out(`\r\u001b[2K● ${STEPS[step++ % STEPS.length]}\n  ⎿  done\n`);
}, 4000);
