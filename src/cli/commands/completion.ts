// `corral completion bash|zsh|fish`: prints a completion script for the shell, written from the
// command table and the global flags, the same tables `corral --help` shows.

import { UsageError } from '../args.js';
import type { Command } from '../command.js';
import { SHELLS, completionScript, type Shell } from '../completion-scripts.js';
import { GLOBAL_FLAGS } from '../global-flags.js';

export const completionCommand: Command = {
  name: 'completion',
  summary: 'print a shell completion script (bash, zsh or fish)',
  usage: 'completion bash|zsh|fish',
  details: [
    'bash:  source <(corral completion bash)            (in ~/.bashrc)',
    'zsh:   source <(corral completion zsh)             (in ~/.zshrc, after compinit)',
    'fish:  corral completion fish > ~/.config/fish/completions/corral.fish',
  ].join('\n'),
  args: { words: SHELLS },
  settings: [],
  flags: [],
  async run({ positionals, stdout }) {
    const [shell, ...extra] = positionals;
    if (shell === undefined || extra.length > 0 || !(SHELLS as readonly string[]).includes(shell)) {
      throw new UsageError(`usage: corral completion ${SHELLS.join('|')}`);
    }
    // The command table lists this command too: read it when run, not when loaded.
    const { COMMANDS } = await import('./index.js');
    stdout.write(completionScript(shell as Shell, { commands: COMMANDS, globalFlags: GLOBAL_FLAGS }));
    return 0;
  },
};
