// The short way of `corral next` (what a key binding runs): when a corral already keeps the status
// options on the server, one tmux call reads them and one more switches the client, with none of
// the engine loaded. It handles the plain cases only, and answers null for anything else (another
// flag, a config file that names the server, no running corral): `corral next` then runs in full.

import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { homedir, hostname } from 'node:os';
import { join } from 'node:path';
import { envValue } from '../engine/settings/env.js';
import { processAlive } from '../engine/tmux/process-alive.js';
import { OPTION_PANES_FORMAT, parseOptionPanes, waitingInOrder } from '../engine/records/status-options.js';
import { liveWriters } from '../engine/records/status-writer.js';
import { escapeArg, escapeFormat } from '../engine/tmux/command-line.js';
import { socketPathFromTmuxEnv } from '../engine/tmux/socket.js';
import { tmuxBinary } from '../engine/tmux/transport.js';
import { terminalSafe } from '../engine/text/terminal-text.js';

interface Plain {
  readonly socket: string[];
  readonly client: string | null;
}

/** The arguments, when they are only -L/-S and --client; null otherwise. */
function plainArgs(argv: readonly string[], env: NodeJS.ProcessEnv): Plain | null {
  let socket: string[] | null = null;
  let client: string | null = null;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    const value = argv[i + 1];
    if ((arg === '-L' || arg === '--socket-name') && value) socket = ['-L', value];
    else if ((arg === '-S' || arg === '--socket-path') && value) socket = ['-S', value];
    else if (arg === '--client' && value) client = value;
    else return null;
    i += 1;
  }
  if (socket === null) {
    // A config file may name the server or other hosts: the full way reads it.
    const dir = join(envValue(env, 'XDG_CONFIG_HOME') ?? join(homedir(), '.config'), 'corral');
    try {
      const file = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')) as Record<string, unknown>;
      if ('socketName' in file || 'socketPath' in file || 'hosts' in file) return null;
    } catch {
      // no config file: nothing names the server
    }
    if (envValue(env, 'CORRAL_HOSTS')) return null;
    const inside = socketPathFromTmuxEnv(env.TMUX);
    socket = inside === null ? [] : ['-S', inside];
  }
  return { socket, client };
}

function tmux(args: readonly string[]): Promise<string | null> {
  return new Promise((resolve) => {
    execFile(tmuxBinary(), args, { encoding: 'utf8', timeout: 5_000 }, (error, stdout) => resolve(error ? null : stdout));
  });
}

const SEP = '\u001f';

/**
 * Runs `corral next` the short way; resolves to its exit code, or null when it must run in full.
 * Output goes to `out` (or, with --client, that client's message line), like the full command's.
 */
export async function quickNext(argv: readonly string[], env: NodeJS.ProcessEnv, out: (line: string, ok: boolean) => void): Promise<number | null> {
  const plain = plainArgs(argv, env);
  if (plain === null) return null;
  const clientFormat = ['#{client_activity}', '#{client_control_mode}', '#{client_name}', '#{pane_id}'].join(SEP);
  const read = await tmux([...plain.socket, 'list-panes', '-a', '-F', `${OPTION_PANES_FORMAT} #{session_name}:#{window_index}.#{pane_index}`, ';', 'show-options', '-g', ';', 'list-clients', '-F', clientFormat]);
  if (read === null) return null;
  const lines = read.split('\n');
  const writers = lines.filter((line) => line.startsWith('@corral_writer_')).join('\n');
  if (liveWriters(writers, hostname(), processAlive, '').length === 0) return null;
  const targets = new Map(lines.filter((l) => /^%\d+ /.test(l)).map((l) => [l.split(' ')[0]!, l.split(' ').slice(3).join(' ')]));
  const panes = parseOptionPanes(lines.filter((l) => /^%\d+ /.test(l)).map((l) => l.split(' ').slice(0, 3).join(' ')).join('\n'));
  const waiting = waitingInOrder(panes);
  const watched = panes.filter((p) => p.word !== null).length;
  const clients = lines
    .filter((l) => l.includes(SEP))
    .map((l) => l.split(SEP))
    .filter((f) => f.length === 4 && f[1] === '0')
    .sort((a, b) => Number(b[0]) - Number(a[0]));
  const say = async (text: string, code: number): Promise<number> => {
    // tmux takes a message for a client it does not have without a word: said here instead.
    if (plain.client !== null && !clients.some((f) => f[2] === plain.client)) {
      out(`corral: ${text} (no tmux client ${plain.client} to tell)`, false);
      return code;
    }
    if (plain.client !== null) {
      const shown = await tmux([...plain.socket, 'display-message', '-c', plain.client, escapeArg(escapeFormat(terminalSafe(`corral: ${text}`)))]);
      if (shown !== null) return code;
    }
    out(`corral: ${text}`, code === 0);
    return code;
  };
  const first = waiting[0];
  if (!first) return say(`no pane waits for you (${watched} watched)`, 1);
  const own = env.TMUX_PANE;
  const client = plain.client ?? (own ? clients.find((f) => f[3] === own)?.[2] : undefined) ?? clients[0]?.[2];
  const target = targets.get(first.paneId) ?? first.paneId;
  if (client === undefined) return say(`no tmux client is attached to this server; the pane is ${target} (${first.paneId})`, 1);
  const jumped = await tmux([...plain.socket, 'switch-client', '-c', client, '-t', first.paneId, ';', 'select-window', '-t', first.paneId, ';', 'select-pane', '-t', first.paneId]);
  if (jumped === null) return null;
  const others = waiting.length - 1;
  return say(`${target}: ${first.word}${others > 0 ? ` (${others} more waiting)` : ''}`, 0);
}
