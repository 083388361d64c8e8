#!/usr/bin/env node
// corral's executable. The commands in ./commands are the only place where the engine, the
// dashboard and the servers are wired together.

import { main } from './run.js';

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`corral: ${String(error)}\n`);
    process.exitCode = 1;
  },
);
