#!/usr/bin/env node
// corral's executable. The commands in ./commands are the only place where the engine, the
// dashboard and the servers are wired together. `corral hook` (run by agents on every hook event)
// takes a short way that loads none of them, and so does `corral next` when it can.

import { terminalSafeLines } from '../engine/terminal-text.js';

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
      setTimeout(() => process.exit(), 2_000).unref();
    });
}
