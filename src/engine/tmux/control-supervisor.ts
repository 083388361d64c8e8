// The small POSIX sh supervisor each tmux control client runs under, here and on ssh hosts. tmux
// keeps a control client attached when its reader dies while output or a reply is still queued
// for it (tmux 3.3a waits for that to drain, and it never does): after a SIGKILL of corral such a
// client stayed for minutes. Under the supervisor the client's commands pass through `cat`; when
// they end (corral closed them or died) the supervisor waits a second for a clean detach, then ends
// its own process group, tmux included. When tmux ends first, the group goes too, and the
// supervisor exits with tmux's status. Pure: it only builds the argv.

/** `$0` of the supervisor shell: how its processes show in `ps`. */
export const SUPERVISOR_NAME = 'corral-control';

/**
 * The script. The supervisor runs in a process group of its own (corral starts it, or the ssh that
 * carries it, in a new session; sshd starts every remote command in one), so `kill 0` reaches
 * exactly it, cat, sleep and tmux. The two shells that must report tmux's status catch TERM;
 * everything else ends by it (tmux detaches on TERM). A freshly forked subshell still has the
 * parent's handler for an instant and would swallow a TERM then, so the relay says `ready` (a line
 * the other side reads before it starts tmux) only once it is past that instant.
 */
export const SUPERVISOR_SCRIPT = [
  'trap : TERM',
  '{ echo ready; cat; sleep 1; kill -TERM 0; } | { trap : TERM; read -r _ || exit 1; "$@"; status=$?; kill -TERM 0; exit "$status"; }',
].join('\n');

/** The shell's arguments that run `program args…` under the supervisor. */
export function supervisedArgs(program: string, args: readonly string[]): string[] {
  return ['-c', SUPERVISOR_SCRIPT, SUPERVISOR_NAME, program, ...args];
}
