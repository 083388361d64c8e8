// POST /api/panes/N/(answer|reply|keys): what the page types into a pane. The request is checked
// (origin, write access, a JSON body), the pane is looked up in the store, the body is planned
// (pane-actions.ts), and the pane port types it, only on the screen the person saw. Every refusal
// is a status code with a JSON body; nothing is typed unless everything passed.

import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  AnswerRefusedError,
  BadPaneKeyError,
  HostDownError,
  ScreenChangedError,
  UnknownHostError,
  type PanePort,
} from '../../engine/port/pane-port-api.js';
import type { PaneView } from '../../engine/types.js';
import { HttpError, readBody } from '../http-body.js';
import { errorBody, sendJson } from '../http-server.js';
import { writeOriginAllowed, type Access } from './auth.js';
import { ActionError, actionErrorOfRefusal, planAction, type PaneActionName, type TypePlan } from './pane-actions.js';

const MAX_ACTION_BODY = 16 * 1024;

export interface ActionRouteOptions {
  readonly port: PanePort;
  /** Whether anyone may type at all on this server. */
  readonly allowWrite: boolean;
  readonly allowedOrigins: readonly string[];
}

/** A refusal: the status, the error code and the message for the JSON body. */
class Refusal extends Error {
  constructor(
    readonly status: number,
    readonly code: string | null,
    message: string,
    readonly type: string = 'invalid_request_error',
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

const hostDown = (error: HostDownError) =>
  new Refusal(503, 'host_unreachable', error.message, 'server_error', { 'retry-after': String(error.retryAfterS) });

export async function handleAction(
  req: IncomingMessage,
  res: ServerResponse,
  target: { readonly paneId: string; readonly action: PaneActionName },
  access: Access,
  options: ActionRouteOptions,
): Promise<void> {
  try {
    const body = await checkedBody(req, access, options);
    const view = viewOf(options.port, target.paneId);
    const plan = planned(target.action, view, body);
    await typePlan(options.port, target.paneId, view, plan);
    void options.port.pollNow().catch(() => undefined);
    sendJson(res, 200, { ok: true, pane: target.paneId, sent: plan.label });
  } catch (error) {
    if (!(error instanceof Refusal)) throw error;
    sendJson(res, error.status, errorBody(error.message, error.type, error.code), error.headers);
  }
}

/** The request may type, and carries a JSON body: the body, parsed. */
async function checkedBody(req: IncomingMessage, access: Access, options: ActionRouteOptions): Promise<unknown> {
  if (!writeOriginAllowed(req, access, options.allowedOrigins))
    throw new Refusal(403, 'bad_origin', 'this Origin may not type into panes');
  if (!options.allowWrite) throw new Refusal(403, 'write_disabled', 'writing is switched off on this server');
  if (!access.write) throw new Refusal(403, 'read_only', 'this browser may only look: open a writing link to answer');
  if (!/^application\/json\b/i.test(req.headers['content-type'] ?? ''))
    throw new Refusal(415, 'bad_content_type', 'send a JSON body (content-type: application/json)');
  try {
    return JSON.parse(await readBody(req, MAX_ACTION_BODY));
  } catch (error) {
    if (error instanceof HttpError) throw new Refusal(error.status, error.code, error.message, error.type);
    throw new Refusal(400, 'bad_json', 'the body is not valid JSON');
  }
}

/** The pane as the store has it; a pane of no watched host, or none at all, is a 404. */
function viewOf(port: PanePort, key: string): PaneView {
  let view: PaneView | null;
  try {
    view = port.find(key);
  } catch (error) {
    if (error instanceof HostDownError) throw hostDown(error);
    if (!(error instanceof UnknownHostError || error instanceof BadPaneKeyError)) throw error;
    view = null;
  }
  if (!view) throw new Refusal(404, 'no_such_pane', `corral does not watch a pane ${key}`);
  return view;
}

function planned(action: PaneActionName, view: PaneView, body: unknown): TypePlan {
  try {
    return planAction(action, view, body);
  } catch (error) {
    if (error instanceof ActionError) throw new Refusal(error.status, error.code, error.message);
    throw error;
  }
}

/** Types the plan through the port, only while the pane shows the screen the person answered. */
async function typePlan(port: PanePort, key: string, view: PaneView, plan: TypePlan): Promise<void> {
  const guard = plan.shownHash === null ? undefined : { shownHash: plan.shownHash, target: view.target, surface: 'page' };
  try {
    if (plan.kind === 'answer') await port.answer(key, plan.option, guard);
    else if (plan.kind === 'line') await port.reply(key, plan.text, guard);
    else await port.send(key, plan.items, guard);
  } catch (error) {
    if (error instanceof ScreenChangedError) throw new Refusal(409, 'screen_changed', error.message);
    if (error instanceof AnswerRefusedError) {
      const refusal = actionErrorOfRefusal(error);
      throw new Refusal(refusal.status, refusal.code, refusal.message);
    }
    if (error instanceof HostDownError) throw hostDown(error);
    throw new Refusal(502, 'tmux_error', `tmux did not take it: ${(error as Error).message}`, 'server_error');
  }
}
