// Push to an ntfy-compatible server: POST to the topic URL, the message as the body, the rest in
// headers (Title, Priority, Tags, Actions, Authorization). Action buttons are `http` actions that
// POST an answer link back to corral.

import type { NotificationText } from './channels.js';

export interface NtfyAction {
  readonly label: string;
  readonly url: string;
}

export interface NtfyRequest {
  readonly url: string;
  readonly headers: Record<string, string>;
  readonly body: string;
}

/** Header values must be Latin-1; ntfy decodes RFC 2047 encoded words. */
function headerText(value: string): string {
  return /^[\x20-\x7e]*$/.test(value) ? value : `=?UTF-8?B?${Buffer.from(value, 'utf8').toString('base64')}?=`;
}

/** A label safe inside ntfy's simple action format (no commas, semicolons or quotes). */
function actionLabel(label: string): string {
  return label.replace(/[^A-Za-z0-9 ()._:+-]/g, '?').slice(0, 40) || '?';
}

export function authorizationHeader(auth: string | null): string | null {
  if (!auth) return null;
  return auth.includes(':') ? `Basic ${Buffer.from(auth, 'utf8').toString('base64')}` : `Bearer ${auth}`;
}

export function ntfyRequest(topicUrl: string, text: NotificationText, actions: readonly NtfyAction[], auth: string | null): NtfyRequest {
  const headers: Record<string, string> = {
    'content-type': 'text/plain; charset=utf-8',
    title: headerText(text.title),
    priority: String(text.priority),
    tags: text.tags.join(','),
  };
  if (actions.length > 0) {
    headers.actions = actions.map((a) => `http, ${actionLabel(a.label)}, ${a.url}, method=POST, clear=true`).join('; ');
  }
  const authorization = authorizationHeader(auth);
  if (authorization) headers.authorization = authorization;
  return { url: topicUrl, headers, body: text.message };
}

export function validateTopicUrl(url: string): void {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(`--ntfy: not a URL: ${JSON.stringify(url)}`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error(`--ntfy: must be http(s), got ${parsed.protocol}`);
  if (parsed.pathname.replace(/\/+$/, '') === '') throw new Error('--ntfy: give the topic URL, e.g. https://ntfy.sh/my-secret-topic');
}

export async function sendNtfy(request: NtfyRequest, timeoutMs = 10_000): Promise<void> {
  const response = await fetch(request.url, { method: 'POST', headers: request.headers, body: request.body, signal: AbortSignal.timeout(timeoutMs) });
  const text = await response.text().catch(() => '');
  if (!response.ok) throw new Error(`ntfy answered HTTP ${response.status}${text ? `: ${text.slice(0, 200)}` : ''}`);
}
