// Channel formatting and answer links, without I/O: what ntfy, the desktop and --on-stuck receive.

import { describe, expect, it } from 'vitest';
import { AnswerLinks } from '../../src/server/answers/answer-links.js';
import { describeNotification } from '../../src/notify/channels.js';
import { commandEnv } from '../../src/notify/command-channel.js';
import { desktopCommand } from '../../src/notify/desktop-channel.js';
import { authorizationHeader, ntfyRequest, validateTopicUrl } from '../../src/notify/ntfy-channel.js';
import type { PromptVerdict } from '../../src/engine/types.js';
import { paneView } from '../helpers/fake-engine.js';

const menu: PromptVerdict = { prompt: true, reason: 'permission', busy: false, tool: 'claude-code', rule: 'menu', line: 'Do you want to proceed?', answer: { kind: 'key', options: ['1', '2', '3', 'Enter'] } };
const view = paneView({ pane: { paneId: '%3', command: 'claude' }, target: 'work:1.0', state: 'stuck', reason: 'permission', verdict: menu, screenHash: 'abc' });

describe('answer links', () => {
  const key = Buffer.alloc(32, 7);
  it('one button per quick answer (at most three), all sharing one nonce; none for secrets or free text', () => {
    const links = new AnswerLinks(60_000, key);
    const actions = links.actionsFor(view, 'https://corral.example/', 1_000);
    expect(actions.map((a) => [a.label, a.answer])).toEqual([['1', '1'], ['2', '2'], ['3', '3']]);
    const claims = actions.map((a) => {
      const verified = links.verify(a.url.split('/answer/')[1]!, 1_000);
      if (!verified.ok) throw new Error(verified.message);
      return verified.claims;
    });
    expect(new Set(claims.map((c) => c.nonce)).size).toBe(1);
    expect(claims[0]).toMatchObject({ pane: '%3', screen: 'abc', kind: 'key', answer: '1', expires: 61_000 });
    expect(links.actionsFor({ ...view, verdict: { ...menu, answer: { kind: 'secret', options: [] } } }, 'https://x', 0)).toEqual([]);
    expect(links.actionsFor({ ...view, verdict: { ...menu, answer: { kind: 'line', options: [] } } }, 'https://x', 0)).toEqual([]);
  });

  it('expired, replayed, tampered or foreign links are refused', () => {
    const links = new AnswerLinks(60_000, key);
    const token = links.actionsFor(view, 'https://x', 0)[0]!.url.split('/answer/')[1]!;
    expect(links.verify(token, 60_000)).toMatchObject({ ok: false, status: 410, code: 'expired' });
    const ok = links.verify(token, 59_999);
    expect(ok.ok).toBe(true);
    if (!ok.ok) return;
    expect(links.consume(ok.claims, 59_999)).toBe(true);
    expect(links.consume(ok.claims, 59_999)).toBe(false);
    const [prefix, payload, sig] = token.split('.');
    const changed = Buffer.from(JSON.stringify({ ...ok.claims, pane: '%4' })).toString('base64url');
    expect(links.verify(`${prefix}.${changed}.${sig}`, 0)).toMatchObject({ ok: false, status: 403 });
    expect(new AnswerLinks(60_000, Buffer.alloc(32, 8)).verify(token, 0)).toMatchObject({ ok: false, code: 'bad_signature' });
    expect(links.verify(`${prefix}.${payload}`, 0)).toMatchObject({ ok: false, status: 404 });
  });
});

describe('channels', () => {
  const text = describeNotification({ kind: 'single', item: { view: { ...view, label: null }, reason: 'permission', message: 'Do you want to proceed? — rm -rf "$HOME" `x`' } }, 'box');

  it('ntfy gets headers it can read: non-ASCII titles as RFC 2047, labels without separators, auth as Bearer or Basic', () => {
    const request = ntfyRequest('https://ntfy.example/t', { ...text, title: 'work:1.0 wartet — bitte' }, [{ label: 'Yes, go; now', url: 'https://c/answer/a1.x.y' }], 'me:pw');
    expect(request.headers.title).toBe(`=?UTF-8?B?${Buffer.from('work:1.0 wartet — bitte').toString('base64')}?=`);
    expect(request.headers.actions).toBe('http, Yes? go? now, https://c/answer/a1.x.y, method=POST, clear=true');
    expect(request.headers.authorization).toBe(`Basic ${Buffer.from('me:pw').toString('base64')}`);
    expect(authorizationHeader('tk_abc')).toBe('Bearer tk_abc');
    expect(request.body).toBe(text.message);
    expect(() => validateTopicUrl('https://ntfy.sh')).toThrow(/topic URL/);
    expect(() => validateTopicUrl('ftp://ntfy.sh/x')).toThrow(/http/);
  });

  it('screen text reaches the command and the desktop only as data', () => {
    const env = commandEnv(text, { PATH: '/bin' }, 'box');
    expect(env).toMatchObject({ CORRAL_PANE: '%3', CORRAL_TARGET: 'work:1.0', CORRAL_REASON: 'permission', CORRAL_HOST: 'box', CORRAL_COUNT: '1' });
    // The message alone, on one line: "$CORRAL_TARGET: $CORRAL_MESSAGE" names the pane once.
    expect(env.CORRAL_MESSAGE).toBe('Do you want to proceed? — rm -rf "$HOME" `x`');
    const linux = desktopCommand(text, 'linux');
    expect(linux).toEqual({ file: 'notify-send', args: ['--app-name=corral', '--urgency=critical', '--', text.title, text.message] });
    const mac = desktopCommand(text, 'darwin');
    expect('args' in mac && mac.args.slice(-2)).toEqual([text.title, text.message]);
    expect('args' in mac && mac.args.slice(0, -2).join(' ')).not.toContain('rm -rf');
    expect(desktopCommand(text, 'win32')).toEqual({ unsupported: 'desktop notifications are not supported on win32' });
  });

  it('a summary names every pane', () => {
    const items = ['%1', '%2', '%3'].map((id) => ({ view: paneView({ pane: { paneId: id } }), reason: 'stopped' as const, message: '$' }));
    const summary = describeNotification({ kind: 'summary', items }, 'box');
    expect(summary).toMatchObject({ title: '3 panes wait for you', panes: ['%1', '%2', '%3'], reason: 'stopped', priority: 3 });
    expect(commandEnv(summary, {}, 'box').CORRAL_MESSAGE).toBe('stopped: $; stopped: $; stopped: $');
  });
});
