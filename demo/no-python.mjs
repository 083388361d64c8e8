#!/usr/bin/env node
// Demo pane: stands in for the Python REPL when python3 is not installed.

import { createInterface } from 'node:readline';

process.stdout.write('python3 is not installed here; this pane plays a REPL waiting for input.\n');
const rl = createInterface({ input: process.stdin, output: process.stdout, prompt: '>>> ' });
rl.prompt();
rl.on('line', () => {
  process.stdout.write('(no Python on this machine)\n');
  rl.prompt();
});
