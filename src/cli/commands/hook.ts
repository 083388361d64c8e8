// `corral hook`: listed here for --help and for `corral -L x hook ...`; main.ts runs it directly,
// without loading the other commands, when it comes first.

import { AGENTS } from '../../engine/types.js';
import type { Command } from '../command.js';

export const hookCommand: Command = {
  name: 'hook',
  summary: 'report one agent hook event to corral (agents run it; see corral hooks install)',
  usage: 'hook --agent claude-code|codex|gemini-cli [--url URL] [--timeout MS]',
  details: [
    'Reads the hook JSON on stdin and POSTs what corral needs, with $TMUX_PANE and the tmux socket,',
    'to corral\'s server. Prints nothing and exits 0 whatever happens. CORRAL_HOOK_LOG=FILE logs each call.',
  ].join('\n'),
  settings: [],
  flags: [
    { name: 'agent', type: 'string', valueName: 'NAME', choices: AGENTS, description: 'the agent that runs the hook: claude-code, codex or gemini-cli' },
    { name: 'url', type: 'string', valueName: 'URL', description: 'corral\'s server (default from CORRAL_LISTEN/CORRAL_PORT or the config file)' },
    { name: 'timeout', type: 'string', valueName: 'MS', description: 'give up after this long (default 1000)' },
  ],
  async run({ flags, env }) {
    const { hookMain } = await import('../../hook/hook-client.js');
    const argv = ['agent', 'url', 'timeout'].flatMap((name) => (typeof flags[name] === 'string' ? [`--${name}`, flags[name] as string] : []));
    await hookMain(argv, env);
    return 0;
  },
};
