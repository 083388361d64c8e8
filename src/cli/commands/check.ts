// `corral check [FILE|-]`: classifies one captured screen with the configured prompt rules and prints
// the verdict as one JSON line, to see why a pane would (or would not) be counted as stuck.

import { readFile } from 'node:fs/promises';
import { classifyScreen } from '../../engine/prompt/matcher.js';
import { UsageError } from '../args.js';
import type { Command } from '../command.js';
import { TmuxClient } from '../../engine/tmux/client.js';
import { assertPaneId } from '../../engine/tmux/pane-id.js';
import { fetchHookStates } from '../hook-state.js';
import { rulesFromSettings, socketFromSettings } from '../setup.js';

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks).toString('utf8');
}

async function readScreen(source: string): Promise<string> {
  if (source === '-') {
    if (process.stdin.isTTY) {
      throw new UsageError('corral check reads a screen from FILE or stdin; pipe one in: tmux capture-pane -p -t %3 | corral check');
    }
    return readAll(process.stdin);
  }
  try {
    return await readFile(source, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a folder' : (error as Error).message;
    throw new UsageError(`cannot read ${source}: ${why}`);
  }
}

export const checkCommand: Command = {
  name: 'check',
  summary: 'say whether a captured screen waits for a person, and why (one JSON line)',
  usage: 'check [FILE|-] | check --pane %N',
  details: [
    'See why a pane would (or would not) be counted as stuck. Reads one screen from FILE, or from',
    'stdin when FILE is - or missing, classifies it with the prompt rules (--prompt-pack,',
    '--prompt-pattern) and prints one JSON line:',
    '  {"prompt": bool, "reason": "permission"|"stopped"|null, "busy": bool,',
    '   "tool": string|null, "rule": string|null, "line": string,',
    '   "answer": {"kind": "key"|"line"|"secret", "options": [string]}|null}',
    '"busy" means a working program was seen (it vetoes a prompt); "line" is the line the verdict is about;',
    '"answer" says how the prompt is answered: one key that acts at once (a menu), a line (text, then',
    'Enter) or a secret (no quick answer), and the quick answers valid for it ("Enter" takes the default).',
    '',
    'With --pane %N the screen is captured from that pane (-L/-S choose the server), and the line adds',
    '"pane", "hook" (what its agent hooks last claimed, from the corral serving on --host/--port; null',
    'when none runs or no hook reached it) and "disagreement" (the hook and the screen disagree).',
    '',
    'Examples:',
    '  tmux capture-pane -p -t %3 | corral check',
    '  corral check --pane %3',
    "  corral check --prompt-pattern 'permission:^Deploy to production\\?' screen.txt",
  ].join('\n'),
  flags: [{ name: 'pane', type: 'string', valueName: '%N', description: 'capture this pane instead of reading a screen, and add what its hooks said' }],
  async run({ settings, positionals, flags, env, stdout }) {
    if (positionals.length > 1) throw new UsageError('corral check takes one FILE (or - for stdin)');
    const pane = typeof flags.pane === 'string' ? flags.pane : null;
    if (pane !== null && positionals.length > 0) throw new UsageError('corral check takes a FILE or --pane, not both');
    const rules = rulesFromSettings(settings); // an invalid pattern fails before anything is read
    if (pane !== null) assertPaneId(pane);
    const tmux = pane === null ? null : new TmuxClient({ socket: socketFromSettings(settings) });
    const text = tmux && pane ? await tmux.capture(pane) : await readScreen(positionals[0] ?? '-');
    const verdict = classifyScreen(text.split(/\r?\n/), rules);
    const { prompt, reason, busy, tool, rule, line, answer } = verdict;
    if (tmux && pane) {
      const hooks = await fetchHookStates(settings, env, await tmux.socketPath());
      const state = hooks?.get(pane);
      stdout.write(`${JSON.stringify({ prompt, reason, busy, tool, rule, line, answer, pane, hook: state?.hook ?? null, disagreement: state?.disagreement ?? null })}\n`);
      return 0;
    }
    stdout.write(`${JSON.stringify({ prompt, reason, busy, tool, rule, line, answer })}\n`);
    return 0;
  },
};
