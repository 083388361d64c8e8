// `corral check [FILE|-]`: classifies one captured screen with the configured prompt rules and prints
// the verdict as one JSON line, to see why a pane would (or would not) be counted as stuck.

import { open } from 'node:fs/promises';
import { classifyScreen } from '../../engine/prompt/matcher.js';
import { UsageError } from '../args.js';
import type { Command } from '../command.js';
import { settingsOf } from '../command-settings.js';
import { TmuxClient } from '../../engine/tmux/client.js';
import { assertPaneId } from '../../engine/tmux/pane-id.js';
import { describeDisagreement } from '../../engine/pane/pane-machine.js';
import { rulesFromSettings, setupEngine, socketFromSettings } from '../setup.js';
import { terminalSafeJson } from '../../engine/text/terminal-text.js';
import { LISTED_RECORDS } from '../../engine/records/tmux-formats.js';
import { clock } from '../time.js';

/** A captured screen is a few KB; more than this is not one, and is not read further. */
export const MAX_SCREEN_BYTES = 1024 * 1024;

const TOO_BIG = `the input is larger than ${MAX_SCREEN_BYTES / 1024 / 1024} MiB, which no captured screen is; give one screen: tmux capture-pane -p -t %3 | corral check`;

/** Reads at most MAX_SCREEN_BYTES + 1 bytes of a stream, then lets it go. */
async function readBounded(stream: NodeJS.ReadableStream & { destroy?: () => void }): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    chunks.push(buffer);
    size += buffer.length;
    if (size > MAX_SCREEN_BYTES) break; // leaving the loop stops reading
  }
  return Buffer.concat(chunks);
}

async function readFileBounded(path: string): Promise<Buffer> {
  const file = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(MAX_SCREEN_BYTES + 1);
    let size = 0;
    while (size < buffer.length) {
      const { bytesRead } = await file.read(buffer, size, buffer.length - size, null);
      if (bytesRead === 0) break;
      size += bytesRead;
    }
    return buffer.subarray(0, size);
  } finally {
    await file.close();
  }
}

/** The screen as text, or a UsageError for input that is no screen: too big, or binary. */
function screenText(bytes: Buffer, source: string): string {
  const name = source === '-' ? 'stdin' : source;
  if (bytes.length > MAX_SCREEN_BYTES) throw new UsageError(`cannot check ${name}: ${TOO_BIG}`);
  if (bytes.includes(0)) throw new UsageError(`cannot check ${name}: it holds NUL bytes, so it is binary data, not a captured screen`);
  return bytes.toString('utf8');
}

async function readScreen(source: string): Promise<string> {
  if (source === '-') {
    if (process.stdin.isTTY) {
      throw new UsageError('corral check reads a screen from FILE or stdin; pipe one in: tmux capture-pane -p -t %3 | corral check');
    }
    return screenText(await readBounded(process.stdin), source);
  }
  let bytes: Buffer;
  try {
    bytes = await readFileBounded(source);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a folder' : (error as Error).message;
    throw new UsageError(`cannot read ${source}: ${why}`);
  }
  return screenText(bytes, source);
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
    `At most ${MAX_SCREEN_BYTES / 1024 / 1024} MiB is read; larger or binary input (NUL bytes) is refused with exit code 2.`,
    '',
    'A pager shows a file name where a log line could stand; say the pane was on its alternate screen',
    '(tmux display -p -t %3 "#{alternate_on}" prints 1) with --alternate-screen, as the dashboard knows it.',
    '',
    'With --pane %N the screen is captured from that pane (-L/-S choose the server), and the line adds',
    '"pane", "hook" (what its agent hooks last claimed, as recorded on the pane by the corral that',
    'received them; null when no hook reached it) and "disagreement" (the hook and the screen disagree).',
    '',
    'Examples:',
    '  tmux capture-pane -p -t %3 | corral check',
    '  corral check --pane %3',
    "  corral check --prompt-pattern 'permission:^Deploy to production\\?' screen.txt",
  ].join('\n'),
  args: { files: true },
  settings: [...settingsOf('prompt'), 'socketName', 'socketPath', 'optIn', 'prefix', 'hookGraceMs', 'hookPermissionTtlMs'],
  flags: [
    { name: 'alternate-screen', type: 'boolean', description: 'the screen was captured on the alternate screen (a full-screen program)' },
    { name: 'pane', type: 'string', valueName: '%N', description: 'capture this pane instead of reading a screen, and add what its hooks said' },
  ],
  async run({ settings, positionals, flags, env, stdout, stderr }) {
    if (positionals.length > 1) throw new UsageError('corral check takes one FILE (or - for stdin)');
    const pane = typeof flags.pane === 'string' ? flags.pane : null;
    if (pane !== null && positionals.length > 0) throw new UsageError('corral check takes a FILE or --pane, not both');
    const rules = rulesFromSettings(settings); // an invalid pattern fails before anything is read
    if (pane !== null) assertPaneId(pane);
    const tmux = pane === null ? null : new TmuxClient({ records: LISTED_RECORDS, socket: socketFromSettings(settings), clock });
    const text = tmux && pane ? await tmux.io.capture(pane) : await readScreen(positionals[0] ?? '-');
    // A live pane says itself whether it is on its alternate screen.
    const alternateScreen = flags['alternate-screen'] === true || (tmux !== null && (await tmux.panes.listPanes()).some((p) => p.paneId === pane && p.alternateOn));
    const verdict = classifyScreen(text.split(/\r?\n/), rules, { alternateScreen });
    const { prompt, reason, busy, tool, rule, line, answer } = verdict;
    if (tmux && pane) {
      // What the hooks said, weighed against the screen as every corral weighs it: one look by the engine.
      const { engine } = await setupEngine({ ...settings, hosts: [] }, env, stderr);
      await engine.pollNow(); // lists the pane
      await engine.pollNow(); // captures it
      const view = engine.getSnapshot().panes.find((v) => v.key === pane) ?? null;
      await engine.stop();
      const hook = view?.hook ?? null;
      stdout.write(`${terminalSafeJson({ prompt, reason, busy, tool, rule, line, answer, pane, hook, disagreement: describeDisagreement(hook?.disagreement ?? null) })}\n`);
      return 0;
    }
    stdout.write(`${terminalSafeJson({ prompt, reason, busy, tool, rule, line, answer })}\n`);
    return 0;
  },
};
