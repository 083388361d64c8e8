// One queue per tmux server for control-client attaches and detaches. tmux 3.3a segfaults when
// control clients attach and detach concurrently (2 to 4 at a time crash it within a few rounds;
// one at a time survives thousands), taking every session of the user with it. So within this
// process, a control client attaches or detaches only when no other one on that server does.

import type { TmuxSocket } from '../types.js';
import { describeSocket, namedSocketPath, socketPathFromTmuxEnv } from './socket.js';

export class ControlGate {
  private tail: Promise<unknown> = Promise.resolve();
  private inside = 0;
  private waiting = 0;
  private passed = 0;
  private mostInside = 0;

  /** Runs `step` once every step queued before it has settled; steps never overlap. */
  run<T>(step: () => Promise<T>): Promise<T> {
    this.waiting += 1;
    const result = this.tail.then(async () => {
      this.waiting -= 1;
      this.inside += 1;
      this.mostInside = Math.max(this.mostInside, this.inside);
      try {
        return await step();
      } finally {
        this.inside -= 1;
        this.passed += 1;
      }
    });
    this.tail = result.catch(() => undefined);
    return result;
  }

  /** Counters for tests and diagnostics: `mostInside` above 1 would mean two steps overlapped. */
  stats(): { readonly passed: number; readonly waiting: number; readonly mostInside: number } {
    return { passed: this.passed, waiting: this.waiting, mostInside: this.mostInside };
  }
}

const gates = new Map<string, ControlGate>();

/** Where the server of a socket choice listens, so `-L default` and the default server share a gate. */
function serverKey(socket: TmuxSocket): string {
  const uid = process.getuid?.() ?? 0;
  switch (socket.kind) {
    case 'path':
      return socket.path;
    case 'name':
      return namedSocketPath(socket.name, process.env, uid);
    case 'default':
      // Without -L/-S a tmux client inside tmux talks to the server in $TMUX.
      return socketPathFromTmuxEnv(process.env.TMUX) ?? namedSocketPath('default', process.env, uid);
  }
}

/** The gate of one tmux server: on this machine (`host` null) or on the named ssh host. */
export function controlGate(socket: TmuxSocket, host: string | null = null): ControlGate {
  // Another host's socket paths cannot be resolved here; the socket choice names its server.
  const key = host === null ? serverKey(socket) : `${host}\0${describeSocket(socket)}`;
  let gate = gates.get(key);
  if (!gate) {
    gate = new ControlGate();
    gates.set(key, gate);
  }
  return gate;
}
