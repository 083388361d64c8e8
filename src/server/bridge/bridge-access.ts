// Who may call the chat bridge, and how: CORS for the browser origins allowed to, the Origin
// check, the bearer token, and the one method each route takes. Each check throws the HttpError
// the client gets.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { bearerToken, tokenMatches } from '../http-server.js';
import { HttpError } from '../http-body.js';

/** The CORS headers for an allowed browser origin; none for any other request. */
export function corsHeaders(req: IncomingMessage, corsOrigins: readonly string[]): Record<string, string> {
  const origin = req.headers.origin;
  if (origin === undefined || !corsOrigins.includes(origin)) return {};
  return { 'access-control-allow-origin': origin, vary: 'origin' };
}

/** The answer to an allowed origin's preflight (OPTIONS) request. */
export function answerPreflight(res: ServerResponse): void {
  res.writeHead(204, {
    'access-control-allow-methods': 'GET, POST, OPTIONS',
    'access-control-allow-headers': 'authorization, content-type',
    'access-control-max-age': '600',
  });
  res.end();
}

export function checkOrigin(req: IncomingMessage, corsOrigins: readonly string[]): void {
  const origin = req.headers.origin;
  if (origin === undefined || corsOrigins.includes(origin)) return;
  // Same origin (a page served by this server) is fine; any other site is not.
  if (req.headers.host !== undefined && (origin === `http://${req.headers.host}` || origin === `https://${req.headers.host}`)) return;
  throw new HttpError(403, `requests from origin ${origin} are not allowed (allow it with --cors-origin)`, 'invalid_request_error', 'origin_not_allowed');
}

export function checkToken(req: IncomingMessage, token: string): void {
  const presented = bearerToken(req);
  if (presented === null) {
    throw new HttpError(401, 'missing API key: send "Authorization: Bearer <token>" (corral serve prints where the token is)', 'invalid_request_error', 'missing_api_key', null, { 'www-authenticate': 'Bearer' });
  }
  if (!tokenMatches(presented, token)) {
    throw new HttpError(401, 'incorrect API key provided', 'invalid_request_error', 'invalid_api_key', null, { 'www-authenticate': 'Bearer' });
  }
}

export function onlyMethod(req: IncomingMessage, method: string): void {
  if (req.method !== method) {
    throw new HttpError(405, `${req.method ?? '?'} is not allowed here; use ${method}`, 'invalid_request_error', 'method_not_allowed', null, { allow: method });
  }
}

/** Requests must send their body as JSON; anything else is refused before it is read. */
export function checkJsonBody(req: IncomingMessage): void {
  const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/json') {
    req.resume();
    throw new HttpError(415, 'send the request body as JSON (Content-Type: application/json)', 'invalid_request_error', 'unsupported_media_type');
  }
}
