// `corral hook --agent NAME`: the command an agent runs for each hook event. It reads the event's
// JSON on stdin, keeps the few fields corral reads, adds the tmux pane and socket, and POSTs that
// to corral's server. It must never slow or break the agent: it loads nothing but Node's http,
// gives up after a short timeout, prints nothing on stdout or stderr (Gemini CLI reads either as
// a hook reply) and exits 0 whatever happens.

import { execFile } from 'node:child_process';
import { appendFileSync, closeSync, existsSync, openSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { envValue } from '../engine/settings/env.js';
import { hookEventOf, hookSignal, isAgent, type HookReport } from '../engine/hooks/agent-hooks.js';
import { HOOK_OPTION, hookRecordValue } from '../engine/hooks/hook-record.js';
import { pickServer, runningServers } from '../engine/records/server-record.js';
// A separate entry point that runs for milliseconds: it reads the system clock itself.
import { systemClock } from '../engine/time/time.js';

const DEFAULT_TIMEOUT_MS = 1_000;
const MAX_INPUT_BYTES = 16 * 1024 * 1024;
const MAX_TEXT = 300;

export const HOOK_HELP = [
  'corral hook: report one agent hook event to corral (run by the agent, not by you)',
  '',
  'Usage: corral hook --agent claude-code|codex|gemini-cli [--url URL] [--timeout MS]',
  '',
  'Reads the hook JSON on stdin and POSTs the fields corral needs, with $TMUX_PANE and the tmux',
  'socket from $TMUX, to the running corral (the one watching that tmux server, else the newest; else',
  'http://HOST:PORT/hooks from CORRAL_LISTEN/CORRAL_PORT or the config file; or',
  '--url / CORRAL_HOOK_URL) with the token (CORRAL_TOKEN or the token file). When no corral answers',
  "there, it records the event on its own pane (the tmux option @corral_hook), where every corral",
  'watching that server reads it. Prints nothing and exits 0 whatever happens, so the agent is',
  'never blocked; CORRAL_HOOK_LOG=FILE logs each call.',
  'corral hooks install --agent NAME registers it.',
].join('\n');

interface HookArgs {
  agent: string | null;
  url: string | null;
  timeoutMs: number;
  help: boolean;
}

function parseArgs(argv: readonly string[]): HookArgs {
  const args: HookArgs = { agent: null, url: null, timeoutMs: DEFAULT_TIMEOUT_MS, help: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    const [name, inline] = arg.startsWith('--') && arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    const value = () => inline ?? argv[++i] ?? '';
    if (name === '--agent') args.agent = value();
    else if (name === '--url') args.url = value();
    else if (name === '--timeout') args.timeoutMs = Number(value()) || DEFAULT_TIMEOUT_MS;
    else if (name === '--help' || name === '-h') args.help = true;
  }
  return args;
}

function configDir(env: NodeJS.ProcessEnv): string {
  const base = envValue(env, 'XDG_CONFIG_HOME') ?? join(homedir(), '.config');
  return join(base, 'corral');
}

/** Where corral listens, by the same sources as the server (leniently: a bad config is not our business here). */
export function hookUrl(env: NodeJS.ProcessEnv, flag: string | null): string {
  const explicit = flag ?? envValue(env, 'CORRAL_HOOK_URL');
  if (explicit) return explicit.replace(/\/+$/, '').endsWith('/hooks') ? explicit : `${explicit.replace(/\/+$/, '')}/hooks`;
  // A running corral says where it listens: the one watching this pane's tmux server, else the newest.
  const servers = runningServers(configDir(env));
  const running = pickServer(servers, { port: null, tmux: tmuxSocket(env) || null }) ?? servers[0];
  if (running) return `${running.url}/hooks`;
  let file: { listen?: unknown; port?: unknown } = {};
  try {
    file = JSON.parse(readFileSync(join(configDir(env), 'config.json'), 'utf8')) as typeof file;
  } catch {
    // no config file, or one the server will complain about
  }
  let host = envValue(env, 'CORRAL_LISTEN') ?? (typeof file.listen === 'string' ? file.listen : '127.0.0.1');
  if (host === '0.0.0.0' || host === '::') host = '127.0.0.1';
  const port = envValue(env, 'CORRAL_PORT') ?? (typeof file.port === 'number' ? String(file.port) : '7878');
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}/hooks`;
}

function hookToken(env: NodeJS.ProcessEnv): string | null {
  const fromEnv = envValue(env, 'CORRAL_TOKEN');
  if (fromEnv !== undefined) return fromEnv.trim();
  try {
    return readFileSync(join(configDir(env), 'token'), 'utf8').trim();
  } catch {
    return null;
  }
}

/** Whether this process has a controlling terminal (Codex's hook runners have none). */
function hasControllingTerminal(): boolean {
  try {
    // Linux: field 7 of /proc/self/stat is the controlling terminal's device number (0: none).
    const stat = readFileSync('/proc/self/stat', 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[4]) !== 0;
  } catch {
    try {
      closeSync(openSync('/dev/tty', 'r'));
      return true;
    } catch {
      return false;
    }
  }
}

/**
 * Whether a detached daemon runs this hook (Codex's `app-server --managed-daemon`), whose
 * $TMUX_PANE is the pane that happened to start it. Linux: looks at the parent processes; elsewhere
 * (no /proc) a missing controlling terminal is the best sign there is.
 */
function runByDaemon(tty: boolean): boolean {
  let pid = process.ppid;
  try {
    for (let depth = 0; depth < 8 && pid > 1; depth++) {
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      if (cmdline.includes('app-server') && cmdline.includes('--managed-daemon')) return true;
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      pid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    }
    return false;
  } catch {
    return !existsSync('/proc/self/stat') && !tty;
  }
}

function text(value: unknown): string | null {
  if (typeof value !== 'string' || value === '') return null;
  return value.length > MAX_TEXT ? `${value.slice(0, MAX_TEXT - 1)}…` : value;
}

/** What the tool call is about: its command, its file, or its description. */
function toolSummary(payload: Record<string, unknown>): string | null {
  const input = (payload.tool_input ?? {}) as Record<string, unknown>;
  const details = (payload.details ?? {}) as Record<string, unknown>;
  const command = Array.isArray(input.command) ? input.command.join(' ') : input.command;
  return text(command) ?? text(input.cmd) ?? text(input.file_path) ?? text(details.command) ?? text(details.title) ?? text(input.description);
}

/** The socket of the tmux server the agent runs in ($TMUX is "path,pid,session"); empty outside tmux. */
function tmuxSocket(env: NodeJS.ProcessEnv): string {
  const tmux = env.TMUX ?? '';
  return tmux.includes(',') ? tmux.slice(0, tmux.indexOf(',')) : tmux;
}

/** The compact report for one hook payload (pure, for tests). */
export function buildReport(agent: HookReport['agent'], payload: Record<string, unknown>, env: NodeJS.ProcessEnv, tty: boolean, daemon: boolean): HookReport {
  const socket = tmuxSocket(env);
  return {
    agent,
    event: text(payload.hook_event_name) ?? '',
    sessionId: text(payload.session_id) ?? '',
    transcriptPath: typeof payload.transcript_path === 'string' ? payload.transcript_path : '',
    cwd: typeof payload.cwd === 'string' ? payload.cwd : '',
    notificationType: text(payload.notification_type),
    message: text(payload.message),
    toolName: text(payload.tool_name),
    toolSummary: toolSummary(payload),
    pane: env.TMUX_PANE || null,
    socket: socket || null,
    tty,
    daemon,
  };
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of process.stdin) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > MAX_INPUT_BYTES) break;
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function post(url: string, token: string, body: string, timeoutMs: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        agent: false,
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          connection: 'close',
        },
        timeout: timeoutMs,
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * Records the event on the hook's own pane, for the corral processes that read it from their
 * listings; false when there is nothing to record (an event corral ignores) or no pane to record on
 * (no tmux, or a daemon whose $TMUX_PANE is another pane's).
 */
function recordOnPane(report: HookReport, timeoutMs: number): Promise<boolean> {
  const signal = hookSignal(report);
  if (signal === null || report.pane === null || report.socket === null || report.daemon) return Promise.resolve(false);
  const hook = hookEventOf(report, signal);
  const value = hookRecordValue({ hook, at: systemClock.now() });
  return new Promise((resolve, reject) => {
    execFile('tmux', ['-S', report.socket as string, 'set-option', '-p', '-F', '-t', report.pane as string, HOOK_OPTION, value], { timeout: timeoutMs }, (error) =>
      error ? reject(new Error(`could not record it on ${report.pane}: ${error.message.split('\n')[0]}`)) : resolve(true),
    );
  });
}

/** Whether a POST failed because nothing listens (or answers) there: no corral to receive hooks. */
function nobodyListens(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'ECONNREFUSED' || code === 'ECONNRESET' || code === 'EHOSTUNREACH' || code === 'ENOTFOUND' || /no answer within/.test((error as Error).message);
}

/** Runs one hook call; resolves when done, never rejects. */
export async function hookMain(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const started = performance.now();
  const args = parseArgs(argv);
  if (args.help) {
    process.stdout.write(`${HOOK_HELP}\n`);
    return;
  }
  const log = (outcome: string) => {
    if (!env.CORRAL_HOOK_LOG) return;
    try {
      appendFileSync(env.CORRAL_HOOK_LOG, `${new Date().toISOString()} ${args.agent ?? '?'} ${outcome} ${(performance.now() - started).toFixed(1)}ms\n`);
    } catch {
      // nowhere to say it
    }
  };
  // Run by hand in a terminal there is nothing to read.
  if (process.stdin.isTTY) return log('no input (stdin is a terminal)');
  const deadline = setTimeout(() => {
    log('gave up (timeout)');
    process.exit(0);
  }, args.timeoutMs + 500);
  deadline.unref();
  let sent = '';
  try {
    if (!isAgent(args.agent)) return log(`unknown --agent ${JSON.stringify(args.agent)}`);
    const input = await readStdin();
    const payload = JSON.parse(input) as unknown;
    if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) return log('stdin is not a JSON object');
    const tty = hasControllingTerminal();
    const report = buildReport(args.agent, payload as Record<string, unknown>, env, tty, runByDaemon(tty));
    sent = `${report.event} pane=${report.pane ?? '-'} tty=${report.tty} daemon=${report.daemon} `;
    const token = hookToken(env);
    if (token) {
      try {
        const status = await post(hookUrl(env, args.url), token, JSON.stringify(report), args.timeoutMs);
        return log(`${sent}-> HTTP ${status}`);
      } catch (error) {
        if (!nobodyListens(error)) throw error;
        sent += `(${(error as Error).message}) `;
      }
    }
    const recorded = await recordOnPane(report, args.timeoutMs);
    log(`${sent}${token ? '' : 'no token; '}${recorded ? `recorded on ${report.pane}` : 'not recorded (no pane of its own, or an event corral ignores)'}`);
  } catch (error) {
    log(`${sent}failed: ${(error as Error).message}`);
  } finally {
    clearTimeout(deadline);
  }
}
