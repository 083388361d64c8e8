// The hook receiver: `POST /hooks` takes the reports `corral hook` sends for agent hook events,
// checks the token and every field, finds the pane (tmux socket + pane id; else the agent session,
// else the folder) and hands the event to the engine. `GET /hooks/state` shows what the hooks
// said about each pane, for `corral ls --json` and `corral check --pane`.

import { realpathSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { AGENT_HOOKS, hookEventOf, hookSignal, isAgent, type HookReport } from '../../engine/hooks/agent-hooks.js';
import { describeDisagreement } from '../../engine/pane/pane-machine.js';
import type { EngineStore, HookEvent, PaneView } from '../../engine/types.js';
import { bearerToken, errorBody, sendJson, tokenMatches, type HttpFeature, type RequestContext } from '../http-server.js';
import { HttpError, readBody } from '../http-body.js';

export const HOOKS_FEATURE = 'hooks';
const MAX_REPORT_BYTES = 64 * 1024;
const MAX_FIELD = 8 * 1024;

export interface HookFeatureOptions {
  readonly engine: EngineStore & { observeHook(paneId: string, hook: HookEvent): boolean; pollNow(): Promise<void> };
  readonly token: string;
  /** The socket path of the tmux server corral watches (null while it cannot tell). */
  readonly serverSocket: () => Promise<string | null>;
}

function bad(message: string, code = 'invalid_hook_report', param: string | null = null): HttpError {
  return new HttpError(400, message, 'invalid_request_error', code, param);
}

function stringField(body: Record<string, unknown>, name: string, options: { nullable?: boolean; pattern?: RegExp } = {}): string | null {
  const value = body[name];
  if (value === null || value === undefined) {
    if (options.nullable) return null;
    throw bad(`"${name}" is missing`, 'invalid_hook_report', name);
  }
  if (typeof value !== 'string') throw bad(`"${name}" must be a string`, 'invalid_hook_report', name);
  if (value.length > MAX_FIELD) throw bad(`"${name}" is longer than ${MAX_FIELD} characters`, 'invalid_hook_report', name);
  if (options.pattern && !options.pattern.test(value)) throw bad(`"${name}" is malformed: ${JSON.stringify(value.slice(0, 80))}`, 'invalid_hook_report', name);
  return value;
}

/** Checks a report field by field; throws a 400 that names the first bad field. */
export function parseHookReport(text: string): HookReport {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw bad('the body is not valid JSON', 'invalid_json');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw bad('the body must be a JSON object');
  const b = body as Record<string, unknown>;
  if (!isAgent(b.agent)) throw bad(`"agent" must be one of ${Object.keys(AGENT_HOOKS).join(', ')}`, 'invalid_hook_report', 'agent');
  if (typeof b.tty !== 'boolean') throw bad('"tty" must be true or false', 'invalid_hook_report', 'tty');
  if (typeof b.daemon !== 'boolean') throw bad('"daemon" must be true or false', 'invalid_hook_report', 'daemon');
  return {
    agent: b.agent,
    event: stringField(b, 'event', { pattern: /^[A-Za-z][A-Za-z0-9_]{0,63}$/ }) as string,
    sessionId: stringField(b, 'sessionId') as string,
    transcriptPath: stringField(b, 'transcriptPath') as string,
    cwd: stringField(b, 'cwd') as string,
    notificationType: stringField(b, 'notificationType', { nullable: true }),
    message: stringField(b, 'message', { nullable: true }),
    toolName: stringField(b, 'toolName', { nullable: true }),
    toolSummary: stringField(b, 'toolSummary', { nullable: true }),
    pane: stringField(b, 'pane', { nullable: true, pattern: /^%\d{1,9}$/ }),
    socket: stringField(b, 'socket', { nullable: true, pattern: /^\/./ }),
    tty: b.tty,
    daemon: b.daemon,
  };
}

function realPath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/** Command names an agent's pane shows while it runs (`pane_current_command`). */
const AGENT_COMMANDS: Readonly<Record<HookReport['agent'], RegExp>> = {
  'claude-code': /^(claude|node)$/,
  codex: /^(codex|node)$/,
  'gemini-cli': /^(gemini|node)$/,
};

export type PaneMatch = { readonly paneId: string; readonly by: 'pane' | 'session' | 'folder' } | { readonly error: HttpError };

/**
 * Which watched pane a report is about. The pane id counts when the hook ran under the agent in
 * that pane, on the server corral watches; when a daemon ran it (Codex by default) the agent
 * session already tied to a pane counts, else the one agent pane in the report's folder.
 */
export function matchPane(report: HookReport, panes: readonly PaneView[], serverSocket: string | null): PaneMatch {
  if (report.pane !== null && report.socket !== null && !report.daemon) {
    if (serverSocket !== null && realPath(report.socket) !== realPath(serverSocket)) {
      return { error: new HttpError(404, `pane ${report.pane} belongs to the tmux server at ${report.socket}; this corral watches ${serverSocket}`, 'invalid_request_error', 'unknown_pane', 'pane') };
    }
    if (panes.some((v) => v.pane.paneId === report.pane)) return { paneId: report.pane, by: 'pane' };
    return { error: new HttpError(404, `pane ${report.pane} is not watched (it closed, is out of scope, or is corral's own)`, 'invalid_request_error', 'unknown_pane', 'pane') };
  }
  if (report.sessionId !== '') {
    const bound = panes.find((v) => v.hook?.agent === report.agent && v.hook.sessionId === report.sessionId);
    if (bound) return { paneId: bound.pane.paneId, by: 'session' };
  }
  // Panes tied to another live session of the same agent are not candidates.
  let candidates = panes.filter((v) => v.pane.cwd === report.cwd && !(v.hook?.agent === report.agent && v.hook.claim !== null));
  if (candidates.length > 1) {
    const running = candidates.filter((v) => AGENT_COMMANDS[report.agent].test(v.pane.command));
    if (running.length > 0) candidates = running;
  }
  if (candidates.length === 1) return { paneId: candidates[0]!.pane.paneId, by: 'folder' };
  const name = AGENT_HOOKS[report.agent].displayName;
  if (candidates.length === 0) {
    return { error: new HttpError(404, `no watched pane runs ${name} session ${report.sessionId || '(none)'} in ${report.cwd || '(no folder)'}`, 'invalid_request_error', 'unknown_pane') };
  }
  const hint = report.agent === 'codex' ? '; start codex with --no-daemon so its hooks name their pane' : '';
  return {
    error: new HttpError(409, `${candidates.length} watched panes could be ${name} session ${report.sessionId} in ${report.cwd}${hint}`, 'invalid_request_error', 'ambiguous_pane'),
  };
}

/** The per-pane hook state `GET /hooks/state` returns. */
export function hookStates(panes: readonly PaneView[]) {
  return panes.map((v) => ({
    paneId: v.pane.paneId,
    target: v.target,
    state: v.state,
    reason: v.reason,
    hook: v.hook,
    disagreement: describeDisagreement(v.hook?.disagreement ?? null),
  }));
}

export function createHookFeature(options: HookFeatureOptions): HttpFeature {
  const { engine, token } = options;
  let socket: string | null = null;
  const serverSocket = async () => (socket ??= await options.serverSocket().catch(() => null));

  function checkToken(req: IncomingMessage): void {
    const presented = bearerToken(req);
    if (!tokenMatches(presented, token)) {
      throw new HttpError(401, presented ? 'wrong token' : 'missing token: send Authorization: Bearer <token>', 'invalid_request_error', presented ? 'invalid_api_key' : 'missing_api_key');
    }
  }

  async function receive(req: IncomingMessage): Promise<{ status: number; body: unknown }> {
    if (!/^application\/json\b/i.test(req.headers['content-type'] ?? '')) {
      throw new HttpError(415, 'send the report as JSON (Content-Type: application/json)', 'invalid_request_error', 'unsupported_media_type');
    }
    const report = parseHookReport(await readBody(req, MAX_REPORT_BYTES));
    const signal = hookSignal(report);
    if (signal === null) return { status: 202, body: { ignored: true, why: `corral does not act on ${report.event}` } };
    const socketPath = await serverSocket();
    let match = matchPane(report, engine.getSnapshot().panes, socketPath);
    // A pane that opened since the last poll (an agent started right away): look once more.
    if ('error' in match && match.error.status === 404) {
      await engine.pollNow();
      match = matchPane(report, engine.getSnapshot().panes, socketPath);
    }
    if ('error' in match) throw match.error;
    const event = hookEventOf(report, signal);
    if (!engine.observeHook(match.paneId, event)) {
      throw new HttpError(404, `pane ${match.paneId} closed`, 'invalid_request_error', 'unknown_pane');
    }
    return { status: 200, body: { paneId: match.paneId, matchedBy: match.by, signal } };
  }

  return {
    name: HOOKS_FEATURE,
    matches: (url) => url.pathname === '/hooks' || url.pathname === '/hooks/state',
    async handleRequest({ req, res, url }: RequestContext) {
      try {
        const method = url.pathname === '/hooks' ? 'POST' : 'GET';
        if (req.method !== method) {
          req.resume();
          throw new HttpError(405, `${url.pathname} takes ${method}`, 'invalid_request_error', 'method_not_allowed', null, { allow: method });
        }
        checkToken(req);
        if (method === 'GET') {
          sendJson(res, 200, { server: await serverSocket(), panes: hookStates(engine.getSnapshot().panes) });
          return;
        }
        const { status, body } = await receive(req);
        sendJson(res, status, body);
      } catch (error) {
        if (!(error instanceof HttpError)) throw error;
        req.resume();
        sendJson(res, error.status, errorBody(error.message, error.type, error.code, error.param), error.headers);
      }
    },
  };
}
