// Turns the socket choice into the leading tmux arguments, and names it for people.

import { join } from 'node:path';
import type { TmuxSocket } from '../types.js';

export function socketArgs(socket: TmuxSocket): string[] {
  switch (socket.kind) {
    case 'default':
      return [];
    case 'name':
      return ['-L', socket.name];
    case 'path':
      return ['-S', socket.path];
  }
}

export function describeSocket(socket: TmuxSocket): string {
  switch (socket.kind) {
    case 'default':
      return 'default server';
    case 'name':
      return `-L ${socket.name}`;
    case 'path':
      return `-S ${socket.path}`;
  }
}

/** The socket path of the server the current process runs inside ($TMUX is "path,pid,session"). */
export function socketPathFromTmuxEnv(tmuxEnv: string | undefined): string | null {
  if (!tmuxEnv) return null;
  const comma = tmuxEnv.indexOf(',');
  const path = comma === -1 ? tmuxEnv : tmuxEnv.slice(0, comma);
  return path === '' ? null : path;
}

/**
 * The socket file of a named server (`-L NAME`), where tmux creates it: `$TMUX_TMPDIR` (or /tmp),
 * then `tmux-UID`. tmux leaves the file behind when its server exits.
 */
export function namedSocketPath(name: string, env: NodeJS.ProcessEnv, uid: number): string {
  // Empty counts as unset, as for every variable corral reads (src/engine/settings/env.ts).
  const base = env['TMUX_TMPDIR'] || '/tmp';
  return join(base, `tmux-${uid}`, name);
}
