// The small POSIX sh supervisors each tmux control client runs under, here and on ssh hosts. tmux
// keeps a control client attached while output or a reply is still queued for it, even once its
// reader is gone: after a SIGKILL of corral such a client stayed for minutes. A supervisor notices
// that corral is gone (or done), waits a second for a clean detach, then ends its own process
// group, tmux included; when tmux ends first, it reports tmux's status. Pure: it builds argv.
//
// Each runs in a process group of its own (corral starts it, or the ssh that carries it, in a new
// session; sshd starts every remote command in one), so `kill 0` reaches exactly its shells, sleep
// and tmux; tmux detaches on TERM.

/** `$0` of the supervisor shells: how their processes show in `ps`. */
export const SUPERVISOR_NAME = 'corral-control';

/**
 * Here: tmux reads corral's pipe directly (no hop per command). Corral holds a lifeline, fd 3,
 * that it never writes: its end (corral closed it, or died and the kernel closed its pipes) is
 * what the watcher waits for. The watcher keeps no copy of corral's other pipes.
 */
export const LOCAL_SUPERVISOR = [
  '{ read -r _ <&3; sleep 1; kill -TERM 0; } <&- >&- 2>&- &',
  'watcher=$!',
  'exec 3<&-',
  '"$@"',
  'status=$?',
  'kill -TERM "$watcher" 2>/dev/null',
  'exit "$status"',
].join('\n');

/**
 * On an ssh host there is one channel only: the commands pass through `cat`, and their end is
 * the sign. The two shells that report tmux's status catch TERM. A freshly forked subshell still
 * has its parent's handler for an instant and would swallow a TERM then, so the relay says
 * `ready` (a line the other side reads before it starts tmux) only once it is past that instant.
 */
export const REMOTE_SUPERVISOR = [
  'trap : TERM',
  '{ echo ready; cat; sleep 1; kill -TERM 0; } | { trap : TERM; read -r _ || exit 1; "$@"; status=$?; kill -TERM 0; exit "$status"; }',
].join('\n');

/** The shell's arguments that run `program args…` under the supervisor for this machine (needs fd 3). */
export function localSupervisorArgs(program: string, args: readonly string[]): string[] {
  return ['-c', LOCAL_SUPERVISOR, SUPERVISOR_NAME, program, ...args];
}

/** The remote shell's arguments that run `program args…` under the relay supervisor. */
export function remoteSupervisorArgs(program: string, args: readonly string[]): string[] {
  return ['-c', REMOTE_SUPERVISOR, SUPERVISOR_NAME, program, ...args];
}
