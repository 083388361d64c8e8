// `corral link`: talks to the running corral server with the token. Without options it asks for a
// new browser link to the attach page (a login code that works once, for 10 minutes, so the
// long-lived token stays out of URLs, logs and shell history); --list shows the browser sessions
// and --revoke ends one (or --all), at once, on every open connection of that browser.

import { formatDuration } from '../../engine/text/durations.js';
import { UsageError } from '../args.js';
import type { Command, CommandContext } from '../command.js';
import { settingsOf } from '../command-settings.js';
import { clientToken, runningServer, serverBase } from './attach.js';
import { clock as wallClock } from '../time.js';

interface SessionJson {
  readonly id: string;
  readonly write: boolean;
  readonly created_at: number;
  readonly last_used_at: number;
  readonly expires_at: number;
  readonly idle_ends_at: number | null;
  readonly connections: number;
  readonly client: string;
}

type Reply = { readonly status: number; readonly body: Record<string, unknown> | null };

/** One request to the server with the token; null (after saying why) when there is no answer to use. */
async function callServer(
  ctx: CommandContext,
  base: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<Reply | null> {
  const { flags, env, stderr } = ctx;
  let endpoint: URL;
  try {
    endpoint = new URL(path, base);
  } catch {
    throw new UsageError(`--url is not a URL: ${JSON.stringify(base)}`);
  }
  const token = clientToken(flags, env, runningServer(ctx.settings, flags, env));
  if (!token) {
    stderr.write('corral: no token: pass --token, set CORRAL_TOKEN, or start the server once (corral serve) so it writes its token file\n');
    return null;
  }
  let res: Response;
  try {
    res = await fetch(endpoint, {
      method,
      headers: { authorization: `Bearer ${token.token}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  } catch {
    stderr.write(`corral: no corral server at ${base}: start it with corral serve --attach\n`);
    return null;
  }
  const parsed = (await res.json().catch(() => null)) as Record<string, unknown> | null;
  if (res.status === 401) {
    stderr.write(`corral: the server at ${base} refused the token (401): use the token corral serve printed (--token or CORRAL_TOKEN)\n`);
    return null;
  }
  const error = (parsed?.error as { code?: unknown } | undefined)?.code;
  if (res.status === 404 && error !== 'no_such_session') {
    stderr.write(`corral: the attach server is off at ${base}: start it with corral serve --attach (or w in the dashboard)\n`);
    return null;
  }
  return { status: res.status, body: parsed };
}

const two = (n: number): string => String(n).padStart(2, '0');

/** A local time on the 24-hour clock (`14:05:09`), with the date (`2026-12-06 14:05:09`) when not today. */
export function clock(ms: number, now: number): string {
  const date = new Date(ms);
  const time = `${two(date.getHours())}:${two(date.getMinutes())}:${two(date.getSeconds())}`;
  const sameDay = new Date(now).toDateString() === date.toDateString();
  return sameDay ? time : `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())} ${time}`;
}

/** The sessions as a table, one row each, oldest first. */
export function sessionTable(sessions: readonly SessionJson[], now: number): string {
  if (sessions.length === 0) return 'no browser is signed in\n';
  const rows = [
    ['ID', 'ACCESS', 'SIGNED IN', 'LAST USED', 'ENDS', 'OPEN', 'CLIENT'],
    ...sessions.map((s) => [
      s.id,
      s.write ? 'writing' : 'read-only',
      clock(s.created_at, now),
      s.connections > 0 ? 'now' : `${formatDuration(now - s.last_used_at)} ago`,
      s.idle_ends_at === null ? `${clock(s.expires_at, now)} (in use)` : clock(Math.min(s.idle_ends_at, s.expires_at), now),
      String(s.connections),
      s.client,
    ]),
  ];
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => (row[column] ?? '').length)));
  return rows.map((row) => row.map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column]!))).join('  ')).join('\n') + '\n';
}

async function listSessions(ctx: CommandContext, base: string): Promise<number> {
  const reply = await callServer(ctx, base, 'GET', '/api/sessions');
  if (!reply) return 1;
  const sessions = reply.body?.sessions;
  if (reply.status !== 200 || !Array.isArray(sessions)) {
    ctx.stderr.write(`corral: the server at ${base} could not list sessions (HTTP ${reply.status})\n`);
    return 1;
  }
  ctx.stdout.write(ctx.flags.json === true ? `${JSON.stringify(reply.body)}\n` : sessionTable(sessions as SessionJson[], wallClock.now()));
  return 0;
}

async function revokeSessions(ctx: CommandContext, base: string, ids: readonly string[], all: boolean): Promise<number> {
  const { stdout, stderr } = ctx;
  if (all) {
    const reply = await callServer(ctx, base, 'DELETE', '/api/sessions');
    if (!reply) return 1;
    const revoked = reply.body?.revoked;
    if (reply.status !== 200 || !Array.isArray(revoked)) {
      stderr.write(`corral: the server at ${base} could not revoke sessions (HTTP ${reply.status})\n`);
      return 1;
    }
    stdout.write(revoked.length === 0 ? 'corral: no browser was signed in\n' : `corral: revoked ${revoked.length} session${revoked.length === 1 ? '' : 's'}: ${revoked.join(' ')}\n`);
    return 0;
  }
  let code = 0;
  for (const id of ids) {
    const reply = await callServer(ctx, base, 'DELETE', `/api/sessions/${encodeURIComponent(id)}`);
    if (!reply) return 1;
    if (reply.status === 200) stdout.write(`corral: revoked session ${id}\n`);
    else {
      stderr.write(`corral: no session ${id} (corral link --list shows them)\n`);
      code = 1;
    }
  }
  return code;
}

async function newLink(ctx: CommandContext, base: string): Promise<number> {
  const reply = await callServer(ctx, base, 'POST', '/api/login-codes', { write: ctx.flags['read-only'] !== true });
  if (!reply) return 1;
  const body = reply.body as { url?: unknown; expires_at?: unknown; write?: unknown } | null;
  if (reply.status !== 200 || typeof body?.url !== 'string') {
    ctx.stderr.write(`corral: the server at ${base} could not make a link (HTTP ${reply.status})\n`);
    return 1;
  }
  const now = wallClock.now();
  const until = clock(typeof body.expires_at === 'number' ? body.expires_at : now, now);
  ctx.stdout.write(`${body.url}\n`);
  ctx.stderr.write(`corral: ${body.write === true ? 'a writing' : 'a read-only'} link; it works once, until ${until}\n`);
  return 0;
}

export const linkCommand: Command = {
  name: 'link',
  summary: 'print a new browser link to the attach page; list or revoke browser sessions',
  usage: 'link [--read-only] [--url URL] | link --list [--json] | link --revoke ID... | link --revoke --all',
  details: [
    'Needs a running server with the attach server on (corral serve --attach, or w in the dashboard).',
    'A link works once, for 10 minutes, and signs one browser in; --read-only makes a link that can look',
    'but not answer. A session ends when the browser signs out, when it is revoked, after',
    '--attach-session-idle unused (12 hours) or --attach-session-max after sign-in (7 days), and when',
    'corral stops. --list shows the sessions; --revoke ID ends one (--all: every one) at once, closing',
    "that browser's open pages and terminals.",
    'The token comes from --token, $CORRAL_TOKEN, or the token file in the config folder.',
  ].join('\n'),
  settings: [...settingsOf('address'), 'socketName', 'socketPath'],
  flags: [
    { name: 'read-only', type: 'boolean', description: 'the browser may look but not answer or type' },
    { name: 'list', type: 'boolean', description: 'list the signed-in browser sessions' },
    { name: 'json', type: 'boolean', description: 'with --list: print the server\'s JSON' },
    { name: 'revoke', type: 'boolean', description: 'end the sessions named by ID (see --list), or --all' },
    { name: 'all', type: 'boolean', description: 'with --revoke: end every browser session' },
    { name: 'url', type: 'string', valueName: 'URL', description: 'corral server address (default http://HOST:PORT from the settings)' },
    { name: 'token', type: 'string', valueName: 'TOKEN', description: 'the server token (default $CORRAL_TOKEN, then the token file)' },
  ],
  async run(ctx) {
    const { settings, flags, positionals, env } = ctx;
    const base = serverBase(settings, flags, env);
    const revoke = flags.revoke === true;
    const all = flags.all === true;
    if (flags.list === true && (revoke || positionals.length > 0)) throw new UsageError('--list takes no session ids and no --revoke');
    if (flags.json === true && flags.list !== true) throw new UsageError('--json goes with --list');
    if (all && !revoke) throw new UsageError('--all goes with --revoke: corral link --revoke --all');
    if (flags.list === true) return listSessions(ctx, base);
    if (revoke) {
      if (all && positionals.length > 0) throw new UsageError('--revoke takes session ids or --all, not both');
      if (!all && positionals.length === 0) throw new UsageError('--revoke needs session ids (corral link --list shows them) or --all');
      return revokeSessions(ctx, base, positionals, all);
    }
    if (positionals.length > 0) throw new UsageError('usage: corral link [--read-only] [--url URL] (session ids go with --revoke)');
    return newLink(ctx, base);
  },
};
