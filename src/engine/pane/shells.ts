// Which foreground commands are a shell waiting for its next command line: a pane whose
// foreground process is its shell has no job of its own running, so a message may be typed.

const SHELLS = new Set(['bash', 'zsh', 'fish', 'sh', 'dash', 'ash', 'ksh', 'mksh', 'pdksh', 'oksh', 'yash', 'tcsh', 'csh', 'nu', 'elvish', 'xonsh', 'pwsh', 'busybox']);

/** Whether tmux's `pane_current_command` names a shell (a login shell's leading `-` aside). */
export function isShell(command: string): boolean {
  return SHELLS.has(command.trim().replace(/^-/, '').toLowerCase());
}
