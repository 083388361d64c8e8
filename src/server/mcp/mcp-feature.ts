// corral's MCP server over HTTP (`corral serve --mcp`): POST/GET/DELETE /mcp, the MCP Streamable
// HTTP transport, behind the token like every API of corral's server. Each client session gets its
// own MCP server over the one pane port; sessions are few, and the oldest goes when there are more.

import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { PanePort } from '../../engine/port/pane-port-api.js';
import type { Clock, Timers } from '../../engine/types.js';
import { HttpError, readBody } from '../http-body.js';
import { bearerToken, errorBody, sendJson, tokenMatches, type HttpFeature, type RequestContext } from '../http-server.js';
import { createMcpServer } from './mcp-tools.js';
import type { TypingPolicy } from './typing-policy.js';

export const MCP_FEATURE = 'mcp';
const MAX_SESSIONS = 16;
const MAX_MESSAGE_BYTES = 1024 * 1024;

export interface McpFeatureOptions {
  readonly port: PanePort;
  readonly token: string;
  readonly policy: TypingPolicy;
  readonly log: (line: string) => void;
  readonly version: string;
  readonly clock: Clock;
  readonly timers: Timers;
}

interface Session {
  readonly transport: StreamableHTTPServerTransport;
  readonly close: () => Promise<void>;
}

export function createMcpFeature(options: McpFeatureOptions): HttpFeature {
  const sessions = new Map<string, Session>();

  const open = async (req: IncomingMessage): Promise<StreamableHTTPServerTransport> => {
    // The oldest session goes when a new one would pass the limit (a Map keeps insertion order).
    while (sessions.size >= MAX_SESSIONS) {
      const [id, oldest] = sessions.entries().next().value as [string, Session];
      sessions.delete(id);
      await oldest.close();
    }
    const server = createMcpServer({ port: options.port, policy: options.policy, log: options.log, via: `http from ${req.socket.remoteAddress ?? '?'}`, version: options.version, clock: options.clock, timers: options.timers });
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        sessions.set(id, { transport, close: () => server.close() });
      },
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
    };
    await server.connect(transport);
    return transport;
  };

  async function handle({ req, res }: RequestContext): Promise<void> {
    if (!tokenMatches(bearerToken(req), options.token)) {
      req.resume();
      throw new HttpError(401, 'the MCP server needs the token: Authorization: Bearer <token>', 'invalid_request_error', 'invalid_api_key');
    }
    // No browser page of another origin may drive it (MCP clients send no Origin).
    if (req.headers.origin !== undefined) {
      req.resume();
      throw new HttpError(403, `requests from the browser origin ${req.headers.origin} are refused`, 'invalid_request_error', 'origin_not_allowed');
    }
    const sessionId = req.headers['mcp-session-id'];
    const session = typeof sessionId === 'string' ? sessions.get(sessionId) : undefined;
    if (typeof sessionId === 'string' && session === undefined) {
      req.resume();
      throw new HttpError(404, 'no such MCP session (it ended, or corral restarted): initialize a new one', 'invalid_request_error', 'unknown_session');
    }
    if (req.method === 'POST') {
      let body: unknown;
      try {
        body = JSON.parse(await readBody(req, MAX_MESSAGE_BYTES));
      } catch (error) {
        if (error instanceof HttpError) throw error;
        throw new HttpError(400, 'the body is not valid JSON', 'invalid_request_error', 'invalid_json');
      }
      if (session) return session.transport.handleRequest(req, res, body);
      if (!isInitializeRequest(body)) throw new HttpError(400, 'start with an initialize request (no mcp-session-id yet)', 'invalid_request_error', 'no_session');
      return (await open(req)).handleRequest(req, res, body);
    }
    if (req.method === 'GET' || req.method === 'DELETE') {
      if (!session) throw new HttpError(400, `${req.method} /mcp needs an mcp-session-id`, 'invalid_request_error', 'no_session');
      return session.transport.handleRequest(req, res);
    }
    req.resume();
    throw new HttpError(405, '/mcp takes POST, GET and DELETE', 'invalid_request_error', 'method_not_allowed', null, { allow: 'POST, GET, DELETE' });
  }

  return {
    name: MCP_FEATURE,
    matches: (url) => url.pathname === '/mcp',
    async handleRequest(ctx) {
      try {
        await handle(ctx);
      } catch (error) {
        if (!(error instanceof HttpError)) throw error;
        sendJson(ctx.res, error.status, errorBody(error.message, error.type, error.code, error.param), error.headers);
      }
    },
    async close() {
      const open = [...sessions.values()];
      sessions.clear();
      await Promise.all(open.map((s) => s.close()));
    },
  };
}
