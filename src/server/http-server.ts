// The one HTTP server corral runs. Features (the chat bridge, the attach server) plug into it and
// can be switched on and off while it runs; the server itself only checks Host, routes by path and
// answers what no feature claims.

import { STATUS_CODES, createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { timingSafeEqual } from 'node:crypto';

export interface RequestContext {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  readonly url: URL;
}

export interface UpgradeContext {
  readonly req: IncomingMessage;
  readonly socket: Duplex;
  readonly head: Buffer;
  readonly url: URL;
}

export interface HttpFeature {
  readonly name: string;
  /** Whether a request path belongs to this feature. */
  matches(url: URL): boolean;
  handleRequest?(ctx: RequestContext): void | Promise<void>;
  handleUpgrade?(ctx: UpgradeContext): void;
  /** Called when the feature is switched off or the server stops. */
  close?(): void | Promise<void>;
}

export interface CorralServerOptions {
  readonly host: string;
  readonly port: number;
  /** Host headers allowed besides the address it listens on (`host[:port]`, as a reverse proxy passes it). */
  readonly extraHosts?: readonly string[];
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    'cache-control': 'no-store',
    ...headers,
  });
  res.end(text);
}

/** Error body in the OpenAI shape, which is also what the non-OpenAI routes use. */
export function errorBody(message: string, type: string, code: string | null = null, param: string | null = null) {
  return { error: { message, type, param, code } };
}

/** Refuses an upgrade with a real HTTP status and a JSON body, before any WebSocket byte. */
export function rejectUpgrade(
  socket: Duplex,
  status: number,
  message: string,
  code: string,
  options: { readonly type?: string; readonly headers?: Record<string, string> } = {},
): void {
  const body = JSON.stringify(errorBody(message, options.type ?? 'invalid_request_error', code));
  const reason = STATUS_CODES[status] ?? 'Error';
  const extra = Object.entries(options.headers ?? {})
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n${extra}connection: close\r\n\r\n${body}`,
  );
}

/**
 * One path segment or query value decoded from percent-encoding; null when it is not valid
 * percent-encoded UTF-8 (`%E0%A4%A`, an overlong form, a lone `%`), which callers answer with a 4xx.
 */
export function decodeComponent(text: string): string | null {
  try {
    return decodeURIComponent(text);
  } catch {
    return null;
  }
}

/** Constant-time comparison of a presented token with the expected one. */
export function tokenMatches(presented: string | null | undefined, expected: string): boolean {
  if (!presented || expected === '') return false;
  const a = Buffer.from(presented);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

export function bearerToken(req: IncomingMessage): string | null {
  const header = req.headers.authorization;
  if (!header) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match ? (match[1] ?? null) : null;
}

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/**
 * DNS-rebinding defence: the Host header must name the address we listen on (or, on loopback,
 * any loopback name), with our port.
 */
export function hostAllowed(hostHeader: string | undefined, boundHost: string, port: number): boolean {
  if (!hostHeader) return false;
  const m = /^(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(hostHeader.trim().toLowerCase());
  if (!m) return false;
  const name = m[1] ?? '';
  const hostPort = m[2] === undefined ? 80 : Number(m[2]);
  if (hostPort !== port) return false;
  const bound = boundHost.toLowerCase();
  if (LOOPBACK_NAMES.has(bound)) return LOOPBACK_NAMES.has(name);
  if (bound === '0.0.0.0' || bound === '::') return true;
  return name === bound || name === `[${bound}]`;
}

export class CorralServer {
  private readonly server: Server;
  private readonly features = new Map<string, HttpFeature>();
  private boundPort = 0;

  constructor(private readonly options: CorralServerOptions) {
    this.server = createServer((req, res) => void this.onRequest(req, res));
    this.server.on('upgrade', (req, socket, head) => this.onUpgrade(req, socket, head));
    // Requests Node's parser refuses (a NUL or a space in the path, a head over 16 KiB) get a JSON
    // refusal like every other error, then the connection closes.
    this.server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
      if (!socket.writable) return;
      const tooLarge = error.code === 'HPE_HEADER_OVERFLOW';
      rejectUpgrade(
        socket,
        tooLarge ? 431 : 400,
        tooLarge ? 'the request head is too large (at most 16 KiB)' : 'malformed HTTP request',
        tooLarge ? 'request_too_large' : 'bad_request',
      );
    });
  }

  get host(): string {
    return this.options.host;
  }

  get port(): number {
    return this.boundPort;
  }

  get url(): string {
    const host = this.options.host.includes(':') ? `[${this.options.host}]` : this.options.host;
    return `http://${host}:${this.boundPort}`;
  }

  get listening(): boolean {
    return this.server.listening;
  }

  async listen(): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      const onError = (error: Error) => reject(error);
      this.server.once('error', onError);
      this.server.listen(this.options.port, this.options.host, () => {
        this.server.off('error', onError);
        resolve();
      });
    });
    const address = this.server.address();
    this.boundPort = typeof address === 'object' && address ? address.port : this.options.port;
  }

  enable(feature: HttpFeature): void {
    this.features.set(feature.name, feature);
  }

  async disable(name: string): Promise<void> {
    const feature = this.features.get(name);
    this.features.delete(name);
    await feature?.close?.();
  }

  isEnabled(name: string): boolean {
    return this.features.has(name);
  }

  async close(): Promise<void> {
    for (const name of [...this.features.keys()]) await this.disable(name);
    await new Promise<void>((resolve) => {
      if (!this.server.listening) return resolve();
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }

  private route(url: URL): HttpFeature | undefined {
    for (const feature of this.features.values()) if (feature.matches(url)) return feature;
    return undefined;
  }

  private parseUrl(req: IncomingMessage): URL | null {
    try {
      return new URL(req.url ?? '/', 'http://corral.invalid');
    } catch {
      return null;
    }
  }

  private hostOk(hostHeader: string | undefined): boolean {
    if (hostAllowed(hostHeader, this.options.host, this.boundPort)) return true;
    return hostHeader !== undefined && (this.options.extraHosts ?? []).includes(hostHeader.trim().toLowerCase());
  }

  private async onRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (!this.hostOk(req.headers.host)) {
      sendJson(res, 403, errorBody('Host header does not match this server', 'invalid_request_error', 'bad_host'));
      return;
    }
    const url = this.parseUrl(req);
    if (!url) {
      sendJson(res, 400, errorBody('malformed request URL', 'invalid_request_error', 'bad_url'));
      return;
    }
    const feature = this.route(url);
    if (!feature?.handleRequest) {
      sendJson(res, 404, errorBody(`nothing at ${url.pathname}`, 'invalid_request_error', 'not_found'));
      return;
    }
    try {
      await feature.handleRequest({ req, res, url });
    } catch (error) {
      // Only a decoder meets a URIError: input that is not valid percent-encoded UTF-8.
      if (error instanceof URIError)
        return sendJson(res, 400, errorBody('the request URL is not valid percent-encoded UTF-8', 'invalid_request_error', 'bad_url'));
      sendJson(res, 500, errorBody(`internal error: ${(error as Error).message}`, 'server_error', 'internal'));
    }
  }

  private onUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    socket.on('error', () => socket.destroy());
    if (!hostAllowed(req.headers.host, this.options.host, this.boundPort)) {
      rejectUpgrade(socket, 403, 'Host header does not match this server', 'bad_host');
      return;
    }
    const url = this.parseUrl(req);
    const feature = url ? this.route(url) : undefined;
    if (!url || !feature?.handleUpgrade) {
      rejectUpgrade(socket, 404, 'no WebSocket endpoint here', 'not_found');
      return;
    }
    feature.handleUpgrade({ req, socket, head, url });
  }
}
