#!/usr/bin/env node
// Demo pane: an agent-like program. It works for a moment, then stops at a numbered permission
// menu ("Do you want to proceed?") until someone answers with 1/2/3 or arrows + Enter; then it
// carries on and asks again later.

const out = (text) => process.stdout.write(text);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const FRAMES = ['✻', '✶', '✳', '✢', '·', '✢', '✳', '✶'];

const TASKS = [
  {
    tool: 'Bash(npm test -- parser)',
    detail: 'npm test -- parser',
    note: 'Run the parser tests',
    result: '42 passed, 0 failed',
  },
  {
    tool: 'Edit(src/parser.ts)',
    detail: 'src/parser.ts: guard against an empty token list',
    note: 'Edit file',
    result: 'Updated src/parser.ts with 3 additions',
  },
  {
    tool: 'Bash(git commit -am "Fix flaky parser test")',
    detail: 'git commit -am "Fix flaky parser test"',
    note: 'Commit the fix',
    result: '[main 4f2c1d0] Fix flaky parser test',
  },
];
const OPTIONS = [
  'Yes',
  "Yes, and don't ask again for this command",
  'No, and tell the agent what to do differently (esc)',
];

async function work(label, ms) {
  const start = Date.now();
  let i = 0;
  while (Date.now() - start < ms) {
    const secs = Math.floor((Date.now() - start) / 1000);
    out(`\r\u001b[2K${FRAMES[i++ % FRAMES.length]} ${label}… (${secs}s · esc to interrupt)`);
    await sleep(120);
  }
  out('\r\u001b[2K');
}

function drawMenu(task, selected, redraw) {
  const lines = [
    '╭────────────────────────────────────────────────────────────────╮',
    `│ ${task.note.padEnd(62)} │`,
    `│   ${task.detail.slice(0, 60).padEnd(60)} │`,
    '│                                                                │',
    `│ ${'Do you want to proceed?'.padEnd(62)} │`,
    ...OPTIONS.map((o, i) => `│ ${`${i === selected ? '❯' : ' '} ${i + 1}. ${o}`.slice(0, 62).padEnd(62)} │`),
    '╰────────────────────────────────────────────────────────────────╯',
  ];
  if (redraw) out(`\u001b[${lines.length}A`);
  out(lines.map((l) => `\r\u001b[2K${l}`).join('\n') + '\n');
}

function ask(task) {
  return new Promise((resolve) => {
    let selected = 0;
    drawMenu(task, selected, false);
    const onData = (buf) => {
      const key = buf.toString();
      let choice = null;
      if (key === '\u0003') process.exit(130);
      if (['1', '2', '3'].includes(key)) choice = Number(key) - 1;
      else if (key === '\u001b[A' || key === 'k') selected = (selected + 2) % 3;
      else if (key === '\u001b[B' || key === 'j') selected = (selected + 1) % 3;
      else if (key === '\r' || key === '\n') choice = selected;
      else if (key === '\u001b') choice = 2;
      if (choice === null) {
        drawMenu(task, selected, true);
        return;
      }
      process.stdin.off('data', onData);
      resolve(choice);
    };
    process.stdin.on('data', onData);
  });
}

async function main() {
  if (process.stdin.isTTY) process.stdin.setRawMode(true);
  process.stdin.resume();
  out('\u001b[2J\u001b[H');
  out('✻ agent (demo) · ~/src/parser\n\n> fix the flaky test in parser.test.ts\n\n');
  for (let round = 0; ; round++) {
    const task = TASKS[round % TASKS.length];
    await work(round === 0 ? 'Reading parser.test.ts' : 'Thinking', 2500);
    out(`● ${task.tool}\n`);
    const choice = await ask(task);
    if (choice === 2) {
      out(`  ⎿  Skipped: ${OPTIONS[2].replace(' (esc)', '')}\n\n`);
      await work('Waiting for new instructions', 1500);
      continue;
    }
    out(`  ⎿  ${choice === 1 ? 'Allowed (will not ask again)' : 'Allowed'}\n`);
    await work('Running', 3000);
    out(`  ⎿  ${task.result}\n\n`);
    await sleep(400);
  }
}

main();
