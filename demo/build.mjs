#!/usr/bin/env node
// Demo pane: a build that keeps printing logs (and starts over when it is done).

const out = (text) => process.stdout.write(text);
const FILES = ['lexer', 'parser', 'ast', 'typecheck', 'codegen', 'optimizer', 'runtime', 'stdlib', 'cli', 'server'];
let n = 0;

function line() {
  const total = FILES.length * 2;
  const i = n % (total + 2);
  if (i === 0) out('\n$ make -j4 all\n');
  else if (i <= total) {
    const pct = String(Math.round((i / total) * 100)).padStart(3);
    const file = FILES[(i - 1) % FILES.length];
    const kind = i <= FILES.length ? 'Building C object' : 'Linking C static library';
    out(`[${pct}%] ${kind} src/CMakeFiles/corral_demo.dir/${file}.c.o\n`);
  } else out('[100%] Built target corral_demo (rebuilding on change)\n');
  n += 1;
  setTimeout(line, 250 + Math.floor(Math.random() * 500));
}

line();
