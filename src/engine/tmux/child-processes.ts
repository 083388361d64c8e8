// Every process corral starts to reach tmux (tmux itself, ssh, a control client and its group),
// while it runs. Normally each ends by itself or is closed in order; when corral must stop now (a
// host that hangs, floods or ignores SIGTERM while the person quits) killChildren() ends them all.

interface Killable {
  readonly pid?: number | undefined;
  once(event: 'exit', listener: () => void): unknown;
}

const running = new Map<Killable, { readonly group: boolean }>();
/** Set by killChildren: corral is ending, and a process started after that is ended at once. */
let ending = false;

function kill(child: Killable, group: boolean): boolean {
  try {
    process.kill(group ? -(child.pid as number) : (child.pid as number), 'SIGKILL');
    return true;
  } catch {
    return false; // gone meanwhile
  }
}

/** Keeps the process in the registry until it exits; `group`: it leads a process group of its own. */
export function trackChild<T extends Killable>(child: T, group = false): T {
  if (child.pid === undefined) return child;
  if (ending) {
    kill(child, group);
    return child;
  }
  running.set(child, { group });
  child.once('exit', () => running.delete(child));
  return child;
}

/** How many processes are still running (for tests and diagnostics). */
export function runningChildren(): number {
  return running.size;
}

/**
 * Ends every process still running, at once (SIGKILL: one that ignores SIGTERM ends too), and
 * every one started from now on: the orderly close that overran may still try to start some.
 */
export function killChildren(): number {
  ending = true;
  let killed = 0;
  for (const [child, { group }] of running) {
    if (kill(child, group)) killed += 1;
    running.delete(child);
  }
  return killed;
}
