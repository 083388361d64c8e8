// Process accounting from /proc: who descends from whom, and the CPU a process tree has used.

import { readdirSync, readFileSync } from 'node:fs';

function statFields(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // "pid (comm) state ppid ...": comm may hold spaces, so read after the last ')'.
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

/** `root` and every live process below it. */
export function processTree(root) {
  const children = new Map();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    let parent;
    try {
      parent = Number(statFields(name)[1]);
    } catch {
      continue;
    }
    children.set(parent, [...(children.get(parent) ?? []), Number(name)]);
  }
  const tree = [];
  const todo = [root];
  while (todo.length > 0) {
    const pid = todo.pop();
    try {
      statFields(pid);
    } catch {
      continue;
    }
    tree.push(pid);
    todo.push(...(children.get(pid) ?? []));
  }
  return tree;
}

const TICK_MS = 1000 / 100; // USER_HZ is 100 on Linux

/** CPU (ms) of every live process in the tree, with what each has reaped from its own children. */
export function treeCpuMs(root) {
  let total = 0;
  for (const pid of processTree(root)) {
    try {
      const f = statFields(pid);
      total += (Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) * TICK_MS;
    } catch {
      // exited meanwhile: its parent has it now, or it is lost with a reading or two
    }
  }
  return total;
}
