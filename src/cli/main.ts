#!/usr/bin/env node
// corral's executable. The commands in ./commands are the only place where the engine, the
// dashboard and the servers are wired together. `corral hook` (run by agents on every hook event)
// takes a short way that loads none of them, and so does `corral next` when it can.

import { terminalSafeLines } from '../engine/text/terminal-text.js';
import { isTerminalGone } from './lifecycle.js';

// A reader that stops reading (`corral status | head -1`, a closed pipe) makes a write fail with
// EPIPE, reported as an 'error' event on the stream: without a listener Node throws it with a
// stack. The output simply has no reader any more; the command ends as it would have (a command
// that runs until stopped hears of it through its lifecycle and stops).
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: unknown) => {
    if (!isTerminalGone(error)) throw error;
  });
}

const argv = process.argv.slice(2);

if (argv[0] === 'hook') {
  const { hookMain } = await import('../hook/hook-client.js');
  await hookMain(argv.slice(1));
  process.exit(0);
}
// `corral next` from a key binding: the short way when a running corral already knows the answer.
const quick = argv[0] === 'next' ? await (await import('./next-fast.js')).quickNext(argv.slice(1), process.env, (line, ok) => (ok ? process.stdout : process.stderr).write(`${line}\n`)) : null;
if (quick !== null) {
  process.exitCode = quick;
} else {
  const { main } = await import('./run.js');
  main(argv)
    .then(
      (code) => {
        process.exitCode = code;
      },
      (error: unknown) => {
        process.stderr.write(terminalSafeLines(`corral: ${String(error)}\n`));
        process.exitCode = 1;
      },
    )
    .finally(() => {
      // Everything corral started is stopped by now; a handle something else left open (a
      // terminal that went away, say) must not keep the process alive.
      setTimeout(() => process.exit(), 150).unref();
    });
}
