// The attach WebSocket protocol: JSON text frames with a `type` field (snake_case), the close
// codes, and the validation of what clients send. Pure: text in, a message or an error out.

import { LOCAL_HOST } from '../../engine/types.js';
import { paneKey } from '../../engine/pane/pane-key.js';
import { decodeComponent } from '../http-server.js';

/** Close codes the attach server uses (also listed in the README). */
export const CLOSE_CODES = {
  normal: 1000,
  /** The server is stopping or the attach feature was switched off. */
  goingAway: 1001,
  internalError: 1011,
  /** The pane exited (a `status` message came first). */
  paneExited: 4000,
  /** The token stopped being valid after the upgrade. */
  unauthorized: 4401,
  /** The client fell too far behind (its unsent output passed the limit). */
  tooSlow: 4008,
  /** The pane does not exist (any more). */
  noSuchPane: 4404,
} as const;

export type ClientMessage =
  | { readonly type: 'subscribe'; readonly fromOffset: number | undefined }
  | { readonly type: 'input'; readonly data: string }
  | { readonly type: 'keys'; readonly keys: readonly string[] }
  | { readonly type: 'resize'; readonly cols: number; readonly rows: number }
  | { readonly type: 'refresh' }
  | { readonly type: 'ping'; readonly id: string | number | null };

export interface ProtocolError {
  readonly code: string;
  readonly message: string;
}

export type Parsed =
  { readonly ok: true; readonly message: ClientMessage } | { readonly ok: false; readonly error: ProtocolError };

const MAX_KEYS = 256;
const MAX_INPUT = 64 * 1024;

function bad(message: string): Parsed {
  return { ok: false, error: { code: 'bad_message', message } };
}

function isWhole(value: unknown, min: number, max: number): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max;
}

export function parseClientMessage(text: string): Parsed {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return bad('messages are JSON objects with a "type" field');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return bad('messages are JSON objects with a "type" field');
  const m = value as Record<string, unknown>;
  switch (m.type) {
    case 'subscribe': {
      const from = m.from_offset;
      if (from === undefined || from === null)
        return { ok: true, message: { type: 'subscribe', fromOffset: undefined } };
      if (!isWhole(from, 0, Number.MAX_SAFE_INTEGER)) return bad('subscribe.from_offset must be a whole number >= 0');
      return { ok: true, message: { type: 'subscribe', fromOffset: from } };
    }
    case 'input':
      if (typeof m.data !== 'string') return bad('input.data must be a string');
      if (m.data.length > MAX_INPUT) return bad(`input.data is longer than ${MAX_INPUT} characters`);
      return { ok: true, message: { type: 'input', data: m.data } };
    case 'keys':
      if (!Array.isArray(m.keys) || m.keys.length === 0 || m.keys.some((k) => typeof k !== 'string' || k === '')) {
        return bad('keys.keys must be a non-empty list of key names or text, e.g. ["y", "Enter"]');
      }
      if (m.keys.length > MAX_KEYS) return bad(`keys.keys has more than ${MAX_KEYS} items`);
      return { ok: true, message: { type: 'keys', keys: m.keys as string[] } };
    case 'resize':
      if (!isWhole(m.cols, 2, 1000) || !isWhole(m.rows, 2, 1000))
        return bad('resize needs whole numbers cols and rows between 2 and 1000');
      return { ok: true, message: { type: 'resize', cols: m.cols, rows: m.rows } };
    case 'refresh':
      return { ok: true, message: { type: 'refresh' } };
    case 'ping': {
      const id = m.id;
      if (id !== undefined && id !== null && typeof id !== 'string' && typeof id !== 'number')
        return bad('ping.id must be a string or a number');
      return { ok: true, message: { type: 'ping', id: id ?? null } };
    }
    default:
      return bad(
        `unknown message type ${JSON.stringify(m.type)} (known: subscribe, input, keys, resize, refresh, ping)`,
      );
  }
}

/**
 * The pane key an attach path names: `/attach/3` (also `/attach/%3`, `/attach/%253`) is pane %3
 * here, `/attach/build-box/3` is pane %3 on build-box; null when it names no pane.
 */
export function paneKeyFromPath(pathname: string): string | null {
  const m = /^\/attach\/(?:([A-Za-z0-9._-]{1,64})\/)?([^/]+)\/?$/.exec(pathname);
  if (!m) return null;
  // `%3` unencoded is not valid percent-encoding: then it is taken as written.
  const part = decodeComponent(m[2] as string) ?? (m[2] as string);
  const id = /^%?(\d{1,9})$/.exec(part);
  if (!id) return null;
  const host = m[1] ?? LOCAL_HOST;
  // `local` is this machine's name only in keys; its paths have no host part.
  return m[1] === LOCAL_HOST ? null : paneKey(host, `%${id[1]}`);
}
