// Answer links: short-lived, single-use, signed URLs that answer one prompt on one pane, for the
// action buttons of a push notification. A link names the pane, the hash of the screen it was made
// for, and the answer; it is signed with a key that lives only in this corral process (a restart
// voids every link), so a phone can answer without ever holding the API token. Pure apart from
// the random key and nonces; time comes in as `now`.

import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { AnswerKind, PaneView } from '../../engine/types.js';

export interface AnswerClaims {
  /** Pane key (`%3`, or `build-box/%3` on another host). */
  readonly pane: string;
  /** Hash of the screen the link was made for. */
  readonly screen: string;
  readonly kind: Exclude<AnswerKind, 'secret'>;
  /** What to send: text typed as is, or the key name Enter. */
  readonly answer: string;
  /** Expiry, epoch ms. */
  readonly expires: number;
  /** Shared by the buttons of one notification: the first tap voids the others. */
  readonly nonce: string;
}

export interface AnswerAction {
  readonly label: string;
  readonly answer: string;
  readonly url: string;
}

export type Verified = { readonly ok: true; readonly claims: AnswerClaims } | { readonly ok: false; readonly status: number; readonly code: string; readonly message: string };

/** ntfy shows at most three action buttons. */
const MAX_ACTIONS = 3;
const PREFIX = 'a1';

export class AnswerLinks {
  private readonly key: Buffer;
  /** Used nonces until their links expire (then a replay fails on the expiry anyway). */
  private readonly used = new Map<string, number>();

  constructor(
    private readonly ttlMs: number,
    key: Buffer = randomBytes(32),
  ) {
    this.key = key;
  }

  private sign(payload: string): string {
    return createHmac('sha256', this.key).update(`${PREFIX}.${payload}`).digest('base64url');
  }

  token(claims: AnswerClaims): string {
    const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
    return `${PREFIX}.${payload}.${this.sign(payload)}`;
  }

  /** Buttons for the quick answers valid on this pane's screen; none for secrets or free text. */
  actionsFor(view: PaneView, baseUrl: string, now: number): AnswerAction[] {
    const answer = view.verdict?.answer;
    if (!answer || answer.kind === 'secret' || view.contentHash === '') return [];
    const nonce = randomBytes(12).toString('base64url');
    const kind = answer.kind;
    return answer.options.slice(0, MAX_ACTIONS).map((option) => ({
      label: option === 'Enter' ? 'Enter (default)' : option,
      answer: option,
      url: `${baseUrl.replace(/\/+$/, '')}/answer/${this.token({ pane: view.key, screen: view.contentHash, kind, answer: option, expires: now + this.ttlMs, nonce })}`,
    }));
  }

  /** Checks the signature and the expiry (not the screen: the caller compares it with a fresh capture). */
  verify(token: string, now: number): Verified {
    const parts = token.split('.');
    const refused = (status: number, code: string, message: string): Verified => ({ ok: false, status, code, message });
    if (parts.length !== 3 || parts[0] !== PREFIX || !parts[1] || !parts[2]) return refused(404, 'bad_link', 'this is not an answer link');
    const expected = Buffer.from(this.sign(parts[1]));
    const presented = Buffer.from(parts[2]);
    if (expected.length !== presented.length || !timingSafeEqual(expected, presented)) {
      return refused(403, 'bad_signature', 'this answer link was not made by this corral (or corral restarted since)');
    }
    let claims: AnswerClaims;
    try {
      claims = JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8')) as AnswerClaims;
    } catch {
      return refused(404, 'bad_link', 'this is not an answer link');
    }
    if (now >= claims.expires) return refused(410, 'expired', 'this answer link has expired');
    return { ok: true, claims };
  }

  /** Marks the link's notification as answered; false when it already was (a replay or a second button). */
  consume(claims: AnswerClaims, now: number): boolean {
    for (const [nonce, expires] of this.used) if (expires <= now) this.used.delete(nonce);
    if (this.used.has(claims.nonce)) return false;
    this.used.set(claims.nonce, claims.expires);
    return true;
  }
}
