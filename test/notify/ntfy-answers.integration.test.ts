// Push notifications end to end: a pane in real tmux gets stuck at a prompt; corral POSTs to a local
// ntfy-compatible receiver (headers and body checked); a "tap" (the HTTP request the ntfy app sends
// for an action button) answers the pane; a second tap, a stale screen and a forged link are refused.

import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNotifications } from '../../src/cli/notifications.js';
import { resolveSettings } from '../../src/engine/settings/config.js';
import type { Notifier } from '../../src/notify/notifier.js';
import { raw } from '../helpers/bridge-server.js';
import { startHookHarness, type HookHarness } from '../helpers/hook-harness.js';
import { waitUntil } from '../helpers/wait-until.js';

interface Received {
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

let h: HookHarness;
let receiver: Server;
let notifier: Notifier | null;
const received: Received[] = [];
const logs: string[] = [];

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (p: Buffer) => parts.push(p));
    req.on('end', () => {
      received.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(parts).toString('utf8') });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"id":"x"}');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const topic = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/corral-test-topic`;
  const flags = { quietThresholdMs: '800', ntfyUrl: topic, ntfyAuth: 'tk_secret_token' };
  h = await startHookHarness(flags);
  const settings = resolveSettings({ flags: { socketName: h.tmux.socketName, port: '0', pollIntervalMs: '200', ...flags }, env: {}, file: null });
  notifier = await startNotifications({ engine: h.engine, settings, services: h.services, log: (line) => logs.push(line) });
});
afterAll(async () => {
  notifier?.close();
  await h?.close();
  await new Promise((resolve) => receiver?.close(resolve));
});

async function waitForPush(text: string): Promise<Received> {
  const push = () => received.find((r) => r.body.includes(text));
  await waitUntil(() => push() !== undefined, 30_000, `a push about ${text}`, 25).catch((error: Error) => {
    throw new Error(`${error.message}; log: ${logs.join('\n')}`);
  });
  return push()!;
}

/** The action buttons in ntfy's simple header format: "http, LABEL, URL, method=POST, clear=true; ...". */
function actions(push: Received): Array<{ label: string; url: string }> {
  return String(push.headers.actions ?? '')
    .split(';')
    .filter((a) => a.trim() !== '')
    .map((a) => {
      const [kind, label, url, method, clear] = a.split(',').map((f) => f.trim());
      expect([kind, method, clear]).toEqual(['http', 'method=POST', 'clear=true']);
      return { label: label!, url: url! };
    });
}

/** What the ntfy app does for an action button: POST the URL, from outside (the Host of the URL). */
function tap(url: string) {
  const u = new URL(url);
  return raw(Number(u.port), { method: 'POST', path: u.pathname, headers: { host: u.host } });
}

async function promptPane(question: string): Promise<string> {
  const pane = await h.shell();
  // The screen changes after corral first saw the pane: a prompt it watched appear is news.
  await h.tmux.tmux('send-keys', '-t', pane, '-l', `sleep 0.5; read -p '${question} [y/N] ' a; echo "ANSWER=$a"`);
  await h.tmux.tmux('send-keys', '-t', pane, 'Enter');
  return pane;
}

describe('ntfy notifications with answer buttons', () => {
  it('pushes title, message, priority, tags and one button per quick answer; a tap answers the pane once', async () => {
    const pane = await promptPane('Deploy to production?');
    const push = await waitForPush('Deploy to production?');
    const target = h.engine.getSnapshot().panes.find((v) => v.pane.paneId === pane)!.target;
    expect(push.path).toBe('/corral-test-topic');
    expect(push.headers).toMatchObject({
      'content-type': 'text/plain; charset=utf-8',
      title: `${target} asks for permission`,
      priority: '4',
      tags: 'warning,corral',
      authorization: 'Bearer tk_secret_token',
    });
    expect(push.body).toContain('Deploy to production? [y/N]');
    expect(push.body).toContain(`${target} (bash) on `);
    const buttons = actions(push);
    expect(buttons.map((b) => b.label)).toEqual(['y', 'n', 'Enter (default)']);
    for (const b of buttons) expect(b.url).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${h.port}/answer/a1\\.`));
    // The long-lived token is nowhere in what the phone gets.
    expect(JSON.stringify(push)).not.toContain('hook-test-token');

    const first = await tap(buttons[0]!.url);
    expect(first.status, first.body).toBe(200);
    expect(JSON.parse(first.body)).toMatchObject({ answered: pane, sent: 'y', kind: 'line' });
    await h.tmux.waitForScreen(pane, (s) => s.includes('ANSWER=y'));

    // The same button again, and another button of the same notification: refused, nothing typed.
    for (const again of [buttons[0]!, buttons[1]!]) {
      const refused = await tap(again.url);
      expect(refused.status).toBe(409);
      expect(JSON.parse(refused.body).error.code).toBe('already_answered');
    }
    expect(await h.tmux.capture(pane)).not.toContain('ANSWER=n');
  });

  it('refuses a link whose screen changed since the notification, and forged or damaged links', async () => {
    const pane = await promptPane('Drop the table?');
    const push = await waitForPush('Drop the table?');
    const [yes] = actions(push);
    // Someone answers at the keyboard first: the screen moves on.
    await h.tmux.tmux('send-keys', '-t', pane, '-l', 'n');
    await h.tmux.tmux('send-keys', '-t', pane, 'Enter');
    await h.tmux.waitForScreen(pane, (s) => s.includes('ANSWER=n'));
    const stale = await tap(yes!.url);
    expect(stale.status).toBe(409);
    expect(JSON.parse(stale.body).error.code).toBe('stale_screen');
    expect(await h.tmux.capture(pane)).not.toContain('ANSWER=y');

    const url = new URL(yes!.url);
    const [prefix, payload] = url.pathname.slice('/answer/'.length).split('.');
    const forged = `${prefix}.${payload}.${'A'.repeat(43)}`;
    const bad = await raw(Number(url.port), { method: 'POST', path: `/answer/${forged}`, headers: { host: url.host } });
    expect(bad.status).toBe(403);
    expect((await raw(Number(url.port), { method: 'POST', path: '/answer/nonsense', headers: { host: url.host } })).status).toBe(404);
    expect((await raw(Number(url.port), { method: 'GET', path: url.pathname, headers: { host: url.host } })).status).toBe(405);
  });
});
