// What the web page may type into a pane, checked before anything is typed: a quick answer (only
// one the prompt on screen offers; the engine's answer plan says what it types), a one-line
// reply, or a few named keys (C-c, C-d and C-z only when confirmed). An answer names the screen
// the person saw; if the pane shows another screen now, nothing is typed. Pure: request bodies and
// engine views in, a request for the pane port or an error out.

import { LOCAL_HOST, type PaneView } from '../../engine/types.js';
import { paneKey } from '../../engine/pane/pane-key.js';
import { AnswerRefusedError, planAnswer } from '../../engine/typing/answer-plan.js';
import { UnknownKeyError, parseSendItems, screenRefusal, type SendItem } from '../../engine/port/pane-port-api.js';
import { notReadyForInput } from '../../engine/typing/input-ready.js';

export const MAX_REPLY = 4096;
const MAX_KEYS = 16;

/** Keys that signal or end the program in the pane: the page asks before it sends them. */
export const CONFIRM_KEYS: ReadonlySet<string> = new Set(['C-c', 'C-d', 'C-z', 'C-\\']);

export class ActionError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'ActionError';
  }
}

/**
 * What to ask the pane port: an answer the prompt offers, items at once, or a line (text, a short
 * pause, Enter). `shownHash` is the screen the person answered (null when they named none): the
 * pane is read again before the keys go out.
 */
export type TypePlan =
  | { readonly kind: 'answer'; readonly option: string; readonly label: string; readonly shownHash: string }
  | { readonly kind: 'items'; readonly items: readonly SendItem[]; readonly label: string; readonly shownHash: string | null }
  | { readonly kind: 'line'; readonly text: string; readonly label: string; readonly shownHash: string | null };

/** The answer plan's refusals as the page's HTTP errors. */
export function actionErrorOfRefusal(error: AnswerRefusedError): ActionError {
  return error.code === 'not_an_option'
    ? new ActionError(400, 'not_an_option', error.message)
    : new ActionError(409, error.code, error.message);
}

export type PaneActionName = 'answer' | 'reply' | 'keys';

function object(body: unknown): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new ActionError(400, 'bad_request', 'the body must be a JSON object');
  return body as Record<string, unknown>;
}

function screenOf(fields: Record<string, unknown>): string | null {
  const screen = fields.screen;
  if (screen === undefined || screen === null) return null;
  if (typeof screen !== 'string' || screen.length > 128) throw new ActionError(400, 'bad_request', 'screen must be a string');
  return screen;
}

/** The person answered what they saw: the screen they name must still be the pane's screen. */
function checkScreen(view: PaneView, screen: string | null): void {
  const refusal = screenRefusal(view.target, screen, view.contentHash);
  if (refusal) throw new ActionError(409, 'screen_changed', refusal.message);
}

/** `{"answer": "1", "screen": "..."}`: one of the quick answers the prompt on screen offers. */
function checkedAnswer(view: PaneView, fields: Record<string, unknown>): TypePlan {
  const answer = fields.answer;
  if (typeof answer !== 'string' || answer === '') throw new ActionError(400, 'bad_request', 'answer must be a non-empty string');
  const screen = screenOf(fields);
  if (screen === null) throw new ActionError(400, 'bad_request', 'screen is required with a quick answer');
  checkScreen(view, screen);
  // Refused here already when the prompt on the screen drawn does not take it; the pane port
  // plans it again on the screen it finds.
  try {
    planAnswer(view.verdict, answer, view.target);
  } catch (error) {
    if (error instanceof AnswerRefusedError) throw actionErrorOfRefusal(error);
    throw error;
  }
  return { kind: 'answer', option: answer, label: answer, shownHash: screen };
}

/** `{"text": "...", "screen"?: "..."}`: one line, typed, then Enter. */
function checkedReply(view: PaneView, fields: Record<string, unknown>): TypePlan {
  const text = fields.text;
  if (typeof text !== 'string') throw new ActionError(400, 'bad_request', 'text must be a string');
  if (text.length > MAX_REPLY) throw new ActionError(400, 'bad_request', `text is longer than ${MAX_REPLY} characters`);
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u0008\u000a-\u001f\u007f]/.test(text))
    throw new ActionError(400, 'bad_request', 'a reply is one line of text without control characters');
  const screen = screenOf(fields);
  checkScreen(view, screen);
  // A pane that is not at a prompt (vim, a busy agent) takes the line as commands: asked first, in
  // the words the dashboard and MCP use (a secret prompt is the person's own to type).
  const notReady = notReadyForInput(view);
  if (notReady !== null && view.verdict?.answer?.kind !== 'secret' && view.online && fields.confirmed !== true) {
    throw new ActionError(428, 'confirmation_needed', `${notReady}: reply anyway? Send again with "confirmed": true`);
  }
  return { kind: 'line', text, label: text === '' ? 'Enter' : 'the reply', shownHash: screen };
}

/** `{"keys": ["C-c"], "confirmed": true}`: named keys; the signalling ones only when confirmed. */
function planKeys(view: PaneView, fields: Record<string, unknown>): TypePlan {
  const keys = fields.keys;
  if (!Array.isArray(keys) || keys.length === 0 || keys.length > MAX_KEYS || keys.some((k) => typeof k !== 'string' || k === ''))
    throw new ActionError(400, 'bad_request', `keys must be a list of 1 to ${MAX_KEYS} key names, e.g. ["C-c"]`);
  let items: SendItem[];
  try {
    items = parseSendItems(keys as string[]);
  } catch (error) {
    if (error instanceof UnknownKeyError) throw new ActionError(400, 'unknown_key', `${error.message}; nothing was sent`);
    throw error;
  }
  if (items.some((item) => item.kind === 'text'))
    throw new ActionError(400, 'bad_request', 'keys takes key names only (C-c, Enter, Escape ...); send text as a reply');
  const signalling = items.filter((item) => item.kind === 'key' && CONFIRM_KEYS.has(item.key));
  if (signalling.length > 0 && fields.confirmed !== true) {
    throw new ActionError(
      428,
      'confirmation_needed',
      `${signalling.map((i) => (i.kind === 'key' ? i.key : '')).join(', ')} can stop the program in ${view.target}: send again with "confirmed": true`,
    );
  }
  const screen = screenOf(fields);
  checkScreen(view, screen);
  return { kind: 'items', items, label: (keys as string[]).join(' '), shownHash: screen };
}

export function planAction(name: PaneActionName, view: PaneView, body: unknown): TypePlan {
  const fields = object(body);
  switch (name) {
    case 'answer':
      return checkedAnswer(view, fields);
    case 'reply':
      return checkedReply(view, fields);
    case 'keys':
      return planKeys(view, fields);
  }
}

/** `/api/panes/3/answer` -> pane `%3` and the action (`/api/panes/build-box/3/answer`: `build-box/%3`); null for any other path. */
export function actionPath(pathname: string): { paneId: string; action: PaneActionName } | null {
  const m = /^\/api\/panes\/(?:([A-Za-z0-9._-]{1,64})\/)?(\d{1,9})\/(answer|reply|keys)$/.exec(pathname);
  if (!m || m[1] === LOCAL_HOST) return null;
  return { paneId: paneKey(m[1] ?? LOCAL_HOST, `%${m[2]}`), action: m[3] as PaneActionName };
}
