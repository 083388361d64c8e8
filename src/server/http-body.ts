// What every server route shares to read a request: the body reader that refuses more than a
// limit without buffering it, and the error that carries an HTTP status and a JSON error body.

import type { IncomingMessage } from 'node:http';

export const MAX_BODY_BYTES = 1024 * 1024;

export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly type: string,
    readonly code: string | null,
    readonly param: string | null = null,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

/** Reads the body, refusing more than `limit` bytes (413) without buffering the excess. */
export async function readBody(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<string> {
  const declared = Number(req.headers['content-length'] ?? '0');
  if (Number.isFinite(declared) && declared > limit) {
    req.resume();
    throw tooLarge(limit);
  }
  const parts: Buffer[] = [];
  let size = 0;
  for await (const part of req) {
    const buffer = part as Buffer;
    size += buffer.length;
    if (size > limit) {
      req.resume();
      throw tooLarge(limit);
    }
    parts.push(buffer);
  }
  return Buffer.concat(parts).toString('utf8');
}

function tooLarge(limit: number): HttpError {
  return new HttpError(413, `request body is larger than ${limit} bytes`, 'invalid_request_error', 'request_too_large');
}
