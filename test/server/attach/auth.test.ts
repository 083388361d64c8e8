// Who may look and who may type: the token, single-use login codes, signed session cookies, and
// the Origin rules for WebSockets and for the page's own writes. Unit tests with a manual clock.
import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import {
  BrowserLogins,
  LOGIN_CODE_TTL_MS,
  SESSION_TTL_MS,
  originAllowed,
  requestAccess,
  writeOriginAllowed,
} from '../../../src/server/attach/auth.js';
import { ManualTime } from '../../helpers/manual-time.js';

function req(headers: Record<string, string>): IncomingMessage {
  return { headers } as unknown as IncomingMessage;
}

const token = 'a-token-of-some-length';

/** The cookie a browser sends back for a Set-Cookie value. */
function cookieOf(setCookie: string): string {
  return setCookie.split(';')[0]!;
}

describe('login codes', () => {
  it('work once, within their lifetime, and grant what they were issued with', () => {
    const time = new ManualTime();
    const logins = new BrowserLogins(token, { clock: time });
    const writing = logins.issue(true);
    const looking = logins.issue(false);
    expect(writing.code).toMatch(/^[\w-]{24}$/);
    expect(writing.expiresAt).toBe(time.now() + LOGIN_CODE_TTL_MS);
    expect(logins.redeem(writing.code)).toEqual({ write: true, via: 'session' });
    expect(logins.redeem(writing.code)).toBeNull();
    expect(logins.redeem(looking.code)).toEqual({ write: false, via: 'session' });
    expect(logins.redeem('made-up')).toBeNull();
  });

  it('expire unused', async () => {
    const time = new ManualTime();
    const logins = new BrowserLogins(token, { clock: time });
    const code = logins.issue(true).code;
    await time.advance(LOGIN_CODE_TTL_MS);
    expect(logins.redeem(code)).toBeNull();
  });

  it('keep at most a bounded number outstanding, dropping the oldest', () => {
    const logins = new BrowserLogins(token, { clock: new ManualTime(), maxCodes: 3 });
    const codes = [1, 2, 3, 4].map(() => logins.issue(true).code);
    expect(logins.redeem(codes[0]!)).toBeNull();
    expect(logins.redeem(codes[3]!)).not.toBeNull();
  });
});

describe('session cookies', () => {
  it('are HttpOnly and SameSite=Strict, carry no token, and grant read or write', () => {
    const logins = new BrowserLogins(token, { clock: new ManualTime() });
    const set = logins.sessionCookie({ write: true });
    expect(set).toMatch(/; HttpOnly; SameSite=Strict; Path=\/; Max-Age=2592000$/);
    expect(set).not.toContain(token);
    expect(logins.sessionOf(req({ cookie: `a=b; ${cookieOf(set)}` }))).toEqual({ write: true, via: 'session' });
    const readOnly = cookieOf(logins.sessionCookie({ write: false }));
    expect(logins.sessionOf(req({ cookie: readOnly }))).toEqual({ write: false, via: 'session' });
  });

  it('refuse a changed, foreign or expired cookie', async () => {
    const time = new ManualTime();
    const logins = new BrowserLogins(token, { clock: time });
    const cookie = cookieOf(logins.sessionCookie({ write: false }));
    // Turning a read-only session into a writing one breaks the signature.
    expect(logins.sessionOf(req({ cookie: cookie.replace('.r.', '.w.') }))).toBeNull();
    expect(new BrowserLogins('another-token-entirely', { clock: time }).sessionOf(req({ cookie }))).toBeNull();
    expect(logins.sessionOf(req({ cookie: 'corral_session=garbage' }))).toBeNull();
    await time.advance(SESSION_TTL_MS);
    expect(logins.sessionOf(req({ cookie }))).toBeNull();
  });
});

describe('requestAccess', () => {
  const logins = new BrowserLogins(token, { clock: new ManualTime() });
  const url = new URL('http://x/attach/1');
  it('takes the token from the header, from ?token= only where allowed, or a session', () => {
    expect(requestAccess(req({ authorization: `Bearer ${token}` }), url, token, logins, { queryToken: false })).toEqual({
      write: true,
      via: 'token',
    });
    const withQuery = new URL(`http://x/attach/1?token=${token}`);
    expect(requestAccess(req({}), withQuery, token, logins, { queryToken: true })?.via).toBe('token');
    expect(requestAccess(req({}), withQuery, token, logins, { queryToken: false })).toBeNull();
    const cookie = cookieOf(logins.sessionCookie({ write: false }));
    expect(requestAccess(req({ cookie }), url, token, logins, { queryToken: false })).toEqual({ write: false, via: 'session' });
    expect(requestAccess(req({ authorization: 'Bearer other' }), url, token, logins, { queryToken: true })).toBeNull();
    // The token itself in a cookie is not a session.
    expect(requestAccess(req({ cookie: `corral_token=${token}` }), url, token, logins, { queryToken: true })).toBeNull();
  });
});

describe('origins', () => {
  const host = '127.0.0.1:7878';
  it('WebSockets: no Origin (not a browser), its own origin and allowlisted ones only', () => {
    expect(originAllowed(req({ host }), [])).toBe(true);
    expect(originAllowed(req({ host, origin: 'http://127.0.0.1:7878' }), [])).toBe(true);
    expect(originAllowed(req({ host, origin: 'http://127.0.0.1:7879' }), [])).toBe(false);
    expect(originAllowed(req({ host, origin: 'https://evil.example' }), [])).toBe(false);
    expect(originAllowed(req({ host, origin: 'null' }), [])).toBe(false);
    expect(originAllowed(req({ host, origin: 'https://ok.example' }), ['https://ok.example'])).toBe(true);
  });

  it('writes: a browser session must send this server\'s Origin; a token holder may send none', () => {
    const session = { write: true, via: 'session' } as const;
    const program = { write: true, via: 'token' } as const;
    expect(writeOriginAllowed(req({ host }), session, [])).toBe(false);
    expect(writeOriginAllowed(req({ host }), program, [])).toBe(true);
    expect(writeOriginAllowed(req({ host, origin: 'http://127.0.0.1:7878', 'sec-fetch-site': 'same-origin' }), session, [])).toBe(true);
    expect(writeOriginAllowed(req({ host, origin: 'http://evil.example' }), session, [])).toBe(false);
    expect(writeOriginAllowed(req({ host, origin: 'http://evil.example' }), program, [])).toBe(false);
    // Same Origin text, but the browser says the request comes from another site.
    expect(writeOriginAllowed(req({ host, origin: 'http://127.0.0.1:7878', 'sec-fetch-site': 'cross-site' }), session, [])).toBe(false);
  });
});
