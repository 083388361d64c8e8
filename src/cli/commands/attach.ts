// `corral attach PANE [--write]`: mirrors a pane into this terminal through the running corral
// server's attach endpoint (raw mode: a repaint, then live bytes). Read-only unless --write;
// C-] detaches and gives the terminal back as it was.

import type WsClient from 'ws';
import type { Settings } from '../../engine/settings/config.js';
import { UsageError } from '../args.js';
import type { Command } from '../command.js';
import { settingsOf } from '../command-settings.js';
import { configDir } from '../config-file.js';
import { findToken } from '../token.js';
import { namedSocketPath } from '../../engine/tmux/socket.js';
import { pickServer, runningServers, type ServerRecord } from '../../engine/records/server-record.js';

const DETACH_BYTE = 0x1d; // C-]
const DEFAULT_PORT = 7878;

/** `3`, `%3` -> `3`; `build-box/%3` -> `build-box/3` (the URL form of the pane key). */
export function paneNumber(arg: string): string | null {
  const m = /^(?:([A-Za-z0-9._-]{1,64})\/)?%?(\d{1,9})$/.exec(arg.trim());
  if (!m || m[1] === 'local') return null;
  return m[1] === undefined ? (m[2] as string) : `${m[1]}/${m[2]}`;
}

export function attachUrl(base: string, pane: string, write: boolean): string {
  const url = new URL(base);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  url.pathname = `${url.pathname.replace(/\/$/, '')}/attach/${pane}`;
  url.search = write ? '?mode=raw&write=1' : '?mode=raw';
  return url.toString();
}

/**
 * The running corral server a client command talks to (server-record.ts): the newest one that
 * listens on the port given (when not the default) and watches the tmux server given (-L / -S).
 */
export function runningServer(settings: Settings, flags: Record<string, unknown>, env: NodeJS.ProcessEnv): ServerRecord | null {
  if (typeof flags.url === 'string') return null;
  const tmux = settings.socketPath ?? (settings.socketName === null ? null : namedSocketPath(settings.socketName, env, process.getuid?.() ?? 0));
  return pickServer(runningServers(configDir(env)), { port: settings.port === DEFAULT_PORT ? null : settings.port, tmux });
}

/** The token a client command presents: --token, CORRAL_TOKEN, the running server's token file, the config folder's. */
export function clientToken(flags: Record<string, unknown>, env: NodeJS.ProcessEnv, server: ServerRecord | null) {
  return findToken({ flag: typeof flags.token === 'string' ? flags.token : undefined, env, configDir: configDir(env), file: server?.tokenPath ?? null });
}

/** The corral server a client command talks to: --url, else the running one, else http://HOST:PORT from the settings. */
export function serverBase(settings: Settings, flags: Record<string, unknown>, env: NodeJS.ProcessEnv = process.env): string {
  if (typeof flags.url === 'string') return flags.url;
  const running = runningServer(settings, flags, env);
  if (running !== null) return running.url;
  const host = settings.listen;
  const port = typeof settings.port === 'number' ? settings.port : DEFAULT_PORT;
  // A server listening on every address is reached on this machine through loopback.
  const name = host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '::1' : host;
  return `http://${name.includes(':') ? `[${name}]` : name}:${port}`;
}

interface Size {
  readonly cols: number;
  readonly rows: number;
}

/** The pane's size as the server lists it (`/api/panes`); null when it cannot say. */
async function paneSize(base: string, pane: string, token: string): Promise<Size | null> {
  try {
    const res = await fetch(new URL('/api/panes', base), { headers: { authorization: `Bearer ${token}` }, signal: AbortSignal.timeout(2_000) });
    if (!res.ok) return null;
    const body = (await res.json()) as { panes?: Array<{ id?: unknown; cols?: unknown; rows?: unknown }> };
    const key = pane.includes('/') ? pane.replace('/', '/%') : `%${pane}`;
    const found = body.panes?.find((p) => p.id === key);
    return typeof found?.cols === 'number' && typeof found.rows === 'number' ? { cols: found.cols, rows: found.rows } : null;
  } catch {
    return null;
  }
}

/** What to tell a person whose terminal is smaller than the pane; null when it fits. */
export function sizeNotice(pane: Size | null, terminal: Size, name: string): string | null {
  if (pane === null || (pane.cols <= terminal.cols && pane.rows <= terminal.rows)) return null;
  return (
    `${name} is ${pane.cols}x${pane.rows} and this terminal ${terminal.cols}x${terminal.rows}: what does not fit is cut off ` +
    `(the prompt may be below the last line). Make the terminal at least ${pane.cols}x${pane.rows}, or shrink the pane ` +
    `(tmux resize-pane -t ${name} -x ${terminal.cols} -y ${terminal.rows}), or open it in the browser page (corral link).`
  );
}

const CLOSE_MESSAGES: Record<number, string> = {
  4000: 'the pane exited',
  4008: 'disconnected: this terminal did not keep up with the output',
  4404: 'the pane is gone',
  1011: 'the server lost its tmux connection for this pane; attach again',
  1001: 'the corral server stopped',
};

export const attachCommand: Command = {
  name: 'attach',
  summary: 'mirror a pane in this terminal through the attach server (read-only unless --write)',
  usage: 'attach [--write] PANE',
  details: [
    'PANE is a pane id: %3 or 3 (build-box/%3 on a host named with --host). Needs a running server with the attach server on (corral serve --attach).',
    'Detach with C-] (Ctrl and the right square bracket). Read-only unless --write: keys then go to the pane.',
    'The token comes from --token, $CORRAL_TOKEN, or the token file in the config folder.',
  ].join('\n'),
  settings: [...settingsOf('address'), 'socketName', 'socketPath'],
  flags: [
    { name: 'write', short: 'w', type: 'boolean', description: 'send your keystrokes to the pane' },
    {
      name: 'url',
      type: 'string',
      valueName: 'URL',
      description: `corral server address (default http://HOST:PORT from the settings, port ${DEFAULT_PORT})`,
    },
    {
      name: 'token',
      type: 'string',
      valueName: 'TOKEN',
      description: 'the server token (default $CORRAL_TOKEN, then the token file)',
    },
  ],
  async run({ settings, flags, positionals, stderr, env }) {
    const [arg, ...extra] = positionals;
    if (arg === undefined || extra.length > 0) throw new UsageError('usage: corral attach [--write] PANE');
    const pane = paneNumber(arg);
    if (pane === null)
      throw new UsageError(`not a pane id: ${JSON.stringify(arg)} (expected %3 or 3, or build-box/%3 on another host; corral ls lists them)`);
    const base = serverBase(settings, flags, env);
    const token = clientToken(flags, env, runningServer(settings, flags, env))?.token ?? null;
    if (token === null) {
      stderr.write(
        'corral: no token: pass --token, set CORRAL_TOKEN, or start the server once (corral serve) so it writes its token file\n',
      );
      return 2;
    }
    let url: string;
    try {
      url = attachUrl(base, pane, flags.write === true);
    } catch {
      throw new UsageError(`--url is not a URL: ${JSON.stringify(base)}`);
    }
    // A pane larger than this terminal cannot be drawn whole: said before the first frame.
    const notice = process.stdout.isTTY ? sizeNotice(await paneSize(base, pane, token), { cols: process.stdout.columns, rows: process.stdout.rows }, `%${pane}`) : null;
    if (notice !== null) stderr.write(`corral: ${notice}\n`);
    // ws loads only here, so the other commands start without it.
    const { default: WebSocket } = await import('ws');
    return attach(WebSocket, { url, base, pane: `%${pane}`, token, write: flags.write === true, stderr, notice });
  },
};

interface AttachOptions {
  readonly url: string;
  readonly base: string;
  readonly pane: string;
  readonly token: string;
  readonly write: boolean;
  readonly stderr: NodeJS.WritableStream;
  /** Said on the terminal's last line over the first frame (the pane does not fit). */
  readonly notice?: string | null;
}

/** A line over the mirrored screen's last row, the cursor left where the pane put it. */
export function noticeLine(text: string, cols: number, rows: number): string {
  const shown = [...text].slice(0, Math.max(1, cols - 1)).join('');
  return `\u001b7\u001b[${rows};1H\u001b[2K\u001b[7m${shown}\u001b[0m\u001b8`;
}

function attach(WebSocket: typeof WsClient, { url, base, pane, token, write, stderr, notice = null }: AttachOptions): Promise<number> {
  const stdin = process.stdin;
  const stdout = process.stdout;
  return new Promise((resolve) => {
    const ws = new WebSocket(url, { headers: { authorization: `Bearer ${token}` } });
    let rawMode = false;
    let finished = false;

    const onKeys = (chunk: Buffer) => {
      const detachAt = chunk.indexOf(DETACH_BYTE);
      const keys = detachAt === -1 ? chunk : chunk.subarray(0, detachAt);
      if (write && keys.length > 0 && ws.readyState === ws.OPEN) ws.send(keys, { binary: true });
      if (detachAt !== -1) finish(0, `detached from ${pane}`);
    };

    const restore = () => {
      stdin.off('data', onKeys);
      if (rawMode && stdin.isTTY) stdin.setRawMode(false);
      rawMode = false;
      stdin.pause();
    };

    function finish(code: number, message: string | null): void {
      if (finished) return;
      finished = true;
      restore();
      if (ws.readyState === ws.OPEN || ws.readyState === ws.CONNECTING) ws.close(1000);
      // Leave the mirrored screen's colours and a hidden cursor behind, not in the user's shell.
      if (stdout.isTTY) stdout.write('\x1b[0m\x1b[?25h\r\n');
      if (message) stderr.write(`corral: ${message}\n`);
      resolve(code);
    }

    ws.on('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () => {
        const detail = /"message":"([^"]*)"/.exec(body)?.[1];
        if (res.statusCode === 401)
          finish(
            1,
            `the server at ${base} refused the token (401): use the token corral serve printed (--token or CORRAL_TOKEN)`,
          );
        else if (res.statusCode === 404)
          finish(
            1,
            `no pane ${pane} there (${detail ?? 'not found'}); corral ls lists the panes, and the attach server must be on (corral serve --attach)`,
          );
        else finish(1, `the server refused to attach (HTTP ${res.statusCode})${detail ? `: ${detail}` : ''}`);
      });
    });
    ws.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ECONNREFUSED') finish(1, `no corral server at ${base}: start it with corral serve --attach`);
      else finish(1, `attach connection failed: ${error.message}`);
    });
    ws.on('open', () => {
      if (stdin.isTTY) {
        stdin.setRawMode(true);
        rawMode = true;
      }
      stdin.on('data', onKeys);
      stdin.resume();
    });
    let noticeShown = false;
    ws.on('message', (data, isBinary) => {
      if (!isBinary) return;
      stdout.write(data as Buffer);
      // The first frame repaints the screen: the notice goes over it, where it can be read.
      if (notice !== null && !noticeShown) {
        noticeShown = true;
        stdout.write(noticeLine(`${notice} (C-] detaches)`, stdout.columns ?? 80, stdout.rows ?? 24));
      }
    });
    ws.on('close', (code, reason) => {
      if (finished) return;
      const known = CLOSE_MESSAGES[code];
      if (code === 4000 || code === 1000) finish(0, known ?? `connection closed`);
      else finish(1, known ?? `connection closed (${code}${reason.length ? ` ${reason.toString()}` : ''})`);
    });
  });
}
