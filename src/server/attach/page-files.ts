// The triage page's files: the page itself (under a strict content security policy), its script
// and style, the favicon, and xterm.js from the installed package. None of them holds pane data,
// so none needs a sign-in.

import { createRequire } from 'node:module';
import { readFile } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { errorBody, sendJson } from '../http-server.js';
import { FAVICON_SVG, PAGE_SCRIPT, PAGE_STYLE, pageHtml } from './page.js';

const ASSETS: Record<string, { readonly module: string; readonly type: string }> = {
  '/assets/xterm.js': { module: '@xterm/xterm/lib/xterm.js', type: 'text/javascript; charset=utf-8' },
  '/assets/xterm.css': { module: '@xterm/xterm/css/xterm.css', type: 'text/css; charset=utf-8' },
  '/assets/addon-fit.js': { module: '@xterm/addon-fit/lib/addon-fit.js', type: 'text/javascript; charset=utf-8' },
};

/** Sent with everything the attach server answers that a browser may render. */
export const SECURITY_HEADERS = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
};

/** The page runs only its own scripts and talks only to this server (xterm.js sets inline styles). */
const PAGE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; connect-src 'self'; img-src 'self' data:; font-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

export function sendText(
  res: ServerResponse,
  status: number,
  type: string,
  body: string,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, {
    'content-type': type,
    'content-length': Buffer.byteLength(body),
    'cache-control': 'no-store',
    ...SECURITY_HEADERS,
    ...headers,
  });
  res.end(body);
}

/** Serves the page's files; xterm.js is read from the installed package once, then kept. */
export class PageFiles {
  private readonly require = createRequire(import.meta.url);
  private readonly cache = new Map<string, Buffer>();

  /** Whether `path` (for `method`) is one of the page's files, served without a sign-in. */
  static matches(path: string, method: string): boolean {
    return (
      path === '/favicon.ico' ||
      path === '/favicon.svg' ||
      (path.startsWith('/assets/') && (method === 'GET' || method === 'HEAD'))
    );
  }

  async serve(res: ServerResponse, path: string): Promise<void> {
    if (path === '/favicon.ico' || path === '/favicon.svg') {
      return sendText(res, 200, 'image/svg+xml', FAVICON_SVG, { 'cache-control': 'max-age=86400' });
    }
    if (path === '/assets/attach-page.js') return sendText(res, 200, 'text/javascript; charset=utf-8', PAGE_SCRIPT);
    if (path === '/assets/attach-page.css') return sendText(res, 200, 'text/css; charset=utf-8', PAGE_STYLE);
    const asset = ASSETS[path];
    if (!asset) return sendJson(res, 404, errorBody(`nothing at ${path}`, 'invalid_request_error', 'not_found'));
    let body = this.cache.get(path);
    if (!body) {
      body = await readFile(this.require.resolve(asset.module));
      this.cache.set(path, body);
    }
    res.writeHead(200, {
      'content-type': asset.type,
      'content-length': body.length,
      'cache-control': 'max-age=3600',
      ...SECURITY_HEADERS,
    });
    res.end(body);
  }

  /**
   * The page holds no pane data: it signs in with the code from its address (or the session its
   * origin's storage keeps) and asks the API. A code in the address is never redeemed here, so a
   * prefetch or a preview of the link cannot use it up.
   */
  page(res: ServerResponse): void {
    sendText(res, 200, 'text/html; charset=utf-8', pageHtml(), { 'content-security-policy': PAGE_CSP });
  }
}
