// Who may look and who may type: the token, single-use login codes, browser sessions with idle and
// absolute limits that can be revoked, and the Origin rules for WebSockets and for the page's own
// writes. Unit tests with a manual clock.
import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { originAllowed, requestAccess, sessionFromProtocols, writeOriginAllowed } from '../../../src/server/attach/auth.js';
import {
  BrowserSessions,
  LOGIN_CODE_TTL_MS,
  SESSION_IDLE_MS,
  SESSION_MAX_MS,
  type SessionEnd,
} from '../../../src/server/attach/sessions.js';
import { SessionConnections } from '../../../src/server/attach/session-routes.js';
import { ManualTime } from '../../helpers/manual-time.js';

function req(headers: Record<string, string>): IncomingMessage {
  return { headers } as unknown as IncomingMessage;
}

const token = 'a-token-of-some-length';

function signedIn(sessions: BrowserSessions, write = true): string {
  const signed = sessions.redeem(sessions.issueCode(write).code, 'test browser');
  if (!signed) throw new Error('the fresh code was refused');
  return signed.credential;
}

describe('login codes', () => {
  it('work once, within their lifetime, and grant what they were issued with', () => {
    const time = new ManualTime();
    const sessions = new BrowserSessions({ clock: time });
    const writing = sessions.issueCode(true);
    const looking = sessions.issueCode(false);
    expect(writing.code).toMatch(/^[\w-]{24}$/);
    expect(writing.expiresAt).toBe(time.now() + LOGIN_CODE_TTL_MS);
    expect(sessions.redeem(writing.code, 'b')?.session.write).toBe(true);
    expect(sessions.redeem(writing.code, 'b')).toBeNull();
    expect(sessions.redeem(looking.code, 'b')?.session.write).toBe(false);
    expect(sessions.redeem('made-up', 'b')).toBeNull();
  });

  it('expire unused', async () => {
    const time = new ManualTime();
    const sessions = new BrowserSessions({ clock: time });
    const code = sessions.issueCode(true).code;
    await time.advance(LOGIN_CODE_TTL_MS);
    expect(sessions.redeem(code, 'b')).toBeNull();
  });

  it('keep at most a bounded number outstanding, dropping the oldest', () => {
    const sessions = new BrowserSessions({ clock: new ManualTime(), maxCodes: 3 });
    const codes = [1, 2, 3, 4].map(() => sessions.issueCode(true).code);
    expect(sessions.redeem(codes[0]!, 'b')).toBeNull();
    expect(sessions.redeem(codes[3]!, 'b')).not.toBeNull();
  });
});

describe('browser sessions', () => {
  it('are a random credential whose secret the server keeps only as a hash; a changed one is refused', () => {
    const sessions = new BrowserSessions({ clock: new ManualTime() });
    const credential = signedIn(sessions, false);
    expect(credential).toMatch(/^[\w-]{8}\.[\w-]{43}$/);
    expect(credential).not.toContain(token);
    expect(sessions.authenticate(credential)).toMatchObject({ write: false, client: 'test browser' });
    const [id, secret] = credential.split('.') as [string, string];
    const flipped = `${id}.${secret.slice(0, -1)}${secret.endsWith('A') ? 'B' : 'A'}`;
    expect(sessions.authenticate(flipped)).toBeNull();
    expect(sessions.authenticate(`${id}.`)).toBeNull();
    expect(sessions.authenticate('garbage')).toBeNull();
    expect(sessions.authenticate(null)).toBeNull();
    // The listing never shows the secret.
    expect(JSON.stringify(sessions.list())).not.toContain(secret);
  });

  it('have ids that a command line never reads as a flag (corral link --revoke ID)', () => {
    const sessions = new BrowserSessions({ clock: new ManualTime() });
    // One id in 64 would start with "-" if nothing prevented it: 1,000 of them all but surely meet one.
    const ids = Array.from({ length: 1_000 }, () => signedIn(sessions).split('.')[0]!);
    expect(ids.filter((id) => id.startsWith('-'))).toEqual([]);
    expect(ids.every((id) => /^[\w-]{8}$/.test(id))).toBe(true);
  });

  it('end after the idle limit unused, and use keeps them going', async () => {
    const time = new ManualTime();
    const sessions = new BrowserSessions({ clock: time });
    const credential = signedIn(sessions);
    await time.advance(SESSION_IDLE_MS - 1);
    expect(sessions.authenticate(credential)).not.toBeNull();
    await time.advance(SESSION_IDLE_MS - 1);
    expect(sessions.authenticate(credential)).not.toBeNull();
    await time.advance(SESSION_IDLE_MS);
    expect(sessions.authenticate(credential)).toBeNull();
    expect(sessions.list()).toEqual([]);
  });

  it('end at the absolute limit however much they are used, open connections included', async () => {
    const time = new ManualTime();
    const sessions = new BrowserSessions({ clock: time });
    const ended: [string, SessionEnd][] = [];
    sessions.onEnd((id, why) => ended.push([id, why]));
    const credential = signedIn(sessions);
    const id = credential.split('.')[0]!;
    sessions.connected(id);
    // An open page is in use: never idle, however long it stays open.
    await time.advance(SESSION_IDLE_MS * 3);
    sessions.sweep();
    expect(sessions.list().map((s) => [s.id, s.connections, s.idleEndsAt])).toEqual([[id, 1, null]]);
    await time.advance(SESSION_MAX_MS - SESSION_IDLE_MS * 3);
    sessions.sweep();
    expect(ended).toEqual([[id, 'expired']]);
    expect(sessions.authenticate(credential)).toBeNull();
  });

  it('end at once when signed out or revoked, one or all, and say so to their connections', () => {
    const sessions = new BrowserSessions({ clock: new ManualTime() });
    const live = new SessionConnections(sessions);
    const [a, b, c] = [signedIn(sessions), signedIn(sessions, false), signedIn(sessions)];
    const idOf = (credential: string) => credential.split('.')[0]!;
    const closed: string[] = [];
    for (const credential of [a, a, b, c]) {
      const session = sessions.authenticate(credential)!;
      live.add({ write: session.write, via: 'session', sessionId: session.id }, (why) => closed.push(`${session.id}: ${why}`));
    }
    expect(sessions.end(idOf(a), 'revoked')).toBe(true);
    expect(closed).toEqual([`${idOf(a)}: session revoked`, `${idOf(a)}: session revoked`]);
    expect(sessions.authenticate(a)).toBeNull();
    expect(sessions.end(idOf(a), 'revoked')).toBe(false);
    expect(sessions.end(idOf(b), 'signed-out')).toBe(true);
    expect(closed.at(-1)).toBe(`${idOf(b)}: signed out`);
    expect(sessions.endAll('revoked')).toEqual([idOf(c)]);
    expect(sessions.list()).toEqual([]);
    // The token is no session: it has no connections to close.
    expect(live.add({ write: true, via: 'token', sessionId: null }, () => closed.push('token'))).toBeTypeOf('function');
  });

  it('keep at most a bounded number, ending the least recently used', async () => {
    const time = new ManualTime();
    const sessions = new BrowserSessions({ clock: time, maxSessions: 2 });
    const first = signedIn(sessions);
    await time.advance(1000);
    const second = signedIn(sessions);
    await time.advance(1000);
    expect(sessions.authenticate(first)).not.toBeNull();
    signedIn(sessions);
    expect(sessions.authenticate(second)).toBeNull();
    expect(sessions.authenticate(first)).not.toBeNull();
  });
});

describe('requestAccess', () => {
  const sessions = new BrowserSessions({ clock: new ManualTime() });
  const url = new URL('http://x/attach/1');
  it('takes the token from the header, from ?token= only where allowed, or a session header or subprotocol', () => {
    expect(requestAccess(req({ authorization: `Bearer ${token}` }), url, token, sessions, { queryToken: false })).toEqual({
      write: true,
      via: 'token',
      sessionId: null,
    });
    const withQuery = new URL(`http://x/attach/1?token=${token}`);
    expect(requestAccess(req({}), withQuery, token, sessions, { queryToken: true })?.via).toBe('token');
    expect(requestAccess(req({}), withQuery, token, sessions, { queryToken: false })).toBeNull();
    const looking = signedIn(sessions, false);
    const id = looking.split('.')[0];
    expect(requestAccess(req({ authorization: `Bearer ${looking}` }), url, token, sessions, { queryToken: false })).toEqual({
      write: false,
      via: 'session',
      sessionId: id,
    });
    const protocols = `corral, corral-session.${looking}`;
    expect(sessionFromProtocols(protocols)).toBe(looking);
    expect(requestAccess(req({ 'sec-websocket-protocol': protocols }), url, token, sessions, { queryToken: true })?.sessionId).toBe(id);
    expect(requestAccess(req({ authorization: 'Bearer other' }), url, token, sessions, { queryToken: true })).toBeNull();
    // Nothing in a cookie counts: not the token, not a session.
    expect(requestAccess(req({ cookie: `corral_token=${token}; corral_session=${looking}` }), url, token, sessions, { queryToken: true })).toBeNull();
  });
});

describe('origins', () => {
  const host = '127.0.0.1:7878';
  const session = { write: true, via: 'session', sessionId: 'abcdefgh' } as const;
  const program = { write: true, via: 'token', sessionId: null } as const;
  it('WebSockets: no Origin (not a browser), its own origin and allowlisted ones only', () => {
    expect(originAllowed(req({ host }), [])).toBe(true);
    expect(originAllowed(req({ host, origin: 'http://127.0.0.1:7878' }), [])).toBe(true);
    expect(originAllowed(req({ host, origin: 'http://127.0.0.1:7879' }), [])).toBe(false);
    expect(originAllowed(req({ host, origin: 'https://evil.example' }), [])).toBe(false);
    expect(originAllowed(req({ host, origin: 'null' }), [])).toBe(false);
    expect(originAllowed(req({ host, origin: 'https://ok.example' }), ['https://ok.example'])).toBe(true);
  });

  it('writes: a browser session must send this server\'s Origin; a token holder may send none', () => {
    expect(writeOriginAllowed(req({ host }), session, [])).toBe(false);
    expect(writeOriginAllowed(req({ host }), program, [])).toBe(true);
    expect(writeOriginAllowed(req({ host, origin: 'http://127.0.0.1:7878', 'sec-fetch-site': 'same-origin' }), session, [])).toBe(true);
    expect(writeOriginAllowed(req({ host, origin: 'http://evil.example' }), session, [])).toBe(false);
    expect(writeOriginAllowed(req({ host, origin: 'http://evil.example' }), program, [])).toBe(false);
    // Same Origin text, but the browser says the request comes from another site.
    expect(writeOriginAllowed(req({ host, origin: 'http://127.0.0.1:7878', 'sec-fetch-site': 'cross-site' }), session, [])).toBe(false);
  });
});
