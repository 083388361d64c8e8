// corral as an MCP server, for agents that supervise other agents: list the panes with their state,
// read a pane, wait until a pane (or any pane) reaches a state, answer a prompt with one of the
// answers it offers, type a line into a pane at its prompt. Everything goes through the pane port,
// the same guarded paths as the dashboard and the page; typing only where --allow-typing allows it.
// Every call is logged with the client that made it.

import { paneLabel } from '../../engine/pane/pane-name.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { offeredAnswers } from '../../engine/typing/answer-plan.js';
import { notReadyForInput } from '../../engine/typing/input-ready.js';
import { AnswerRefusedError, HostDownError, PaneGoneError, ScreenChangedError, type PanePort } from '../../engine/port/pane-port-api.js';
import { quietMs } from '../../engine/pane/pane-status.js';
import { compareViews } from '../../engine/pane/pane-order.js';
import { statusWord, waits, type StatusWord } from '../../engine/records/status-options.js';
import { type Clock, type PaneView, type Timers } from '../../engine/types.js';
import type { TypingPolicy } from './typing-policy.js';

export interface McpToolsOptions {
  readonly port: PanePort;
  readonly policy: TypingPolicy;
  /** One line per call: who asked, what, and what came of it. */
  readonly log: (line: string) => void;
  /** Who the transport says is asking (an HTTP client's address, `stdio`). */
  readonly via: string;
  readonly version: string;
  readonly clock: Clock;
  /** For the tools' waits. */
  readonly timers: Timers;
  /** Settles once the engine has looked at every pane (the tools wait for it). */
  readonly ready?: Promise<unknown>;
}

/** The states `wait_for` knows: a status word, or `waiting` (permission or stopped) and `not_waiting`. */
const WAIT_STATES = ['waiting', 'not_waiting', 'permission', 'stopped', 'snoozed', 'active', 'quiet'] as const;
type WaitState = (typeof WAIT_STATES)[number];

const MAX_WAIT_S = 3_600;
const MAX_HISTORY = 10_000;

function reaches(word: StatusWord, state: WaitState): boolean {
  if (state === 'waiting') return waits(word);
  if (state === 'not_waiting') return !waits(word);
  return word === state;
}

/** A pane as the tools tell it: the same words as the dashboard, the page and `ls --json`. */
function describe(view: PaneView, now: number) {
  return {
    pane: view.key,
    host: view.host,
    target: view.target,
    name: paneLabel(view),
    state: view.online ? statusWord(view, now) : 'offline',
    reason: view.reason,
    message: view.message,
    ask: view.attention.ask,
    /** Since when its wait has been on screen (epoch ms; the same in every corral process), null when none. */
    wait_since: view.waitSince,
    agent: view.hook?.agent ?? view.verdict?.tool ?? null,
    command: view.pane.command,
    title: view.pane.title,
    cwd: view.pane.cwd,
    quiet_s: Math.round(quietMs(view, now) / 1000),
    answers: offeredAnswers(view.verdict),
    /** The screen the state is about: pass it to `answer` so nothing is typed on another one. */
    screen: view.contentHash,
  };
}

const ok = (value: unknown) => ({ content: [{ type: 'text' as const, text: JSON.stringify(value, null, 2) }] });
const refused = (message: string) => ({ isError: true, content: [{ type: 'text' as const, text: message }] });

/** A refusal for the errors a pane action can meet; anything else is a fault and is thrown. */
function refusalOf(error: unknown): string | null {
  if (error instanceof AnswerRefusedError || error instanceof ScreenChangedError || error instanceof HostDownError || error instanceof PaneGoneError) return error.message;
  if (error instanceof Error && /is not a pane key|watches no host/.test(error.message)) return error.message;
  return null;
}

const INSTRUCTIONS =
  "corral watches tmux panes (agents, shells, builds) and tells which ones wait for a person. list_panes, read_pane and wait_for only look; answer and type_line type into a pane, through the same guarded paths as corral's dashboard, where corral allows it.";

type ToolRun = () => Promise<{ result: unknown; note: string }>;

/** What every tool needs: the port, time, the typing policy, and the logged call. */
interface ToolKit {
  readonly port: PanePort;
  readonly policy: TypingPolicy;
  readonly clock: Clock;
  readonly timers: Timers;
  /** Runs a tool, logs the call and its outcome, and turns expected failures into tool errors. */
  readonly call: (name: string, args: unknown, run: ToolRun) => Promise<ReturnType<typeof ok> | ReturnType<typeof refused>>;
  /** The pane a tool names (PaneGoneError when there is none). */
  readonly viewOf: (pane: string) => PaneView;
}

export function createMcpServer(options: McpToolsOptions): McpServer {
  const server = new McpServer({ name: 'corral', version: options.version }, { instructions: INSTRUCTIONS });
  const kit = toolKit(server, options);
  registerLookingTools(server, kit);
  registerWaitTool(server, kit);
  registerTypingTools(server, kit);
  return server;
}

function toolKit(server: McpServer, options: McpToolsOptions): ToolKit {
  const { port, log } = options;
  const who = () => {
    const client = server.server.getClientVersion();
    return `${client ? `${client.name} ${client.version}` : 'an MCP client'} (${options.via})`;
  };
  const call = async (name: string, args: unknown, run: ToolRun) => {
    await options.ready?.catch(() => undefined);
    try {
      const { result, note } = await run();
      log(`mcp: ${who()} ${name} ${JSON.stringify(args)}: ${note}`);
      return ok(result);
    } catch (error) {
      const message = refusalOf(error) ?? (error instanceof PolicyError ? error.message : null);
      if (message === null) throw error;
      log(`mcp: ${who()} ${name} ${JSON.stringify(args)}: refused: ${message}`);
      return refused(message);
    }
  };
  const viewOf = (pane: string): PaneView => {
    const view = port.find(pane);
    if (view === null) throw new PaneGoneError(pane);
    return view;
  };
  return { port, policy: options.policy, clock: options.clock, timers: options.timers, call, viewOf };
}

/** list_panes and read_pane: they only look. */
function registerLookingTools(server: McpServer, { port, clock, call, viewOf }: ToolKit): void {
  server.registerTool(
    'list_panes',
    {
      description: 'The tmux panes corral watches, most urgent first (the dashboard\'s order): state (permission and stopped wait for a person; snoozed, active, quiet), reason, agent, quiet time, the answers its prompt offers, and the screen id an answer must name.',
      inputSchema: { waiting_only: z.boolean().optional().describe('only the panes that wait for a person'), host: z.string().max(64).optional().describe('only this host\'s panes (`local` for this machine)') },
      annotations: { readOnlyHint: true },
    },
    (args) =>
      call('list_panes', args, async () => {
        const now = clock.now();
        const panes = [...port.getSnapshot().panes]
          .filter((v) => (args.host === undefined || v.host === args.host) && (!args.waiting_only || (v.online && waits(statusWord(v, now)))))
          .sort(compareViews)
          .map((v) => describe(v, now));
        return { result: { panes }, note: `${panes.length} panes` };
      }),
  );

  server.registerTool(
    'read_pane',
    {
      description: 'A pane\'s screen as tmux holds it now, with up to `history` lines above it.',
      inputSchema: { pane: z.string().max(128).describe('the pane key from list_panes (%3, or build-box/%3)'), history: z.number().int().min(0).max(MAX_HISTORY).optional() },
      annotations: { readOnlyHint: true },
    },
    (args) =>
      call('read_pane', args, async () => {
        const view = viewOf(args.pane);
        const text = await port.read(args.pane, args.history ?? 0);
        return { result: { ...describe(view, clock.now()), text }, note: `${text.length} characters` };
      }),
  );
}

function registerWaitTool(server: McpServer, { port, clock, timers, call, viewOf }: ToolKit): void {
  server.registerTool(
    'wait_for',
    {
      description: 'Waits until a pane (or, without `pane`, any pane) reaches a state, then tells that pane; or says it timed out. `waiting` means it waits for a person (permission or stopped).',
      inputSchema: {
        state: z.enum(WAIT_STATES),
        pane: z.string().max(128).optional(),
        timeout_s: z.number().min(0).max(MAX_WAIT_S).optional().describe(`how long to wait (default 60, at most ${MAX_WAIT_S})`),
      },
      annotations: { readOnlyHint: true },
    },
    (args, extra) =>
      call('wait_for', args, async () => {
        if (args.pane !== undefined) viewOf(args.pane);
        const found = await waitFor(port, args.state, args.pane ?? null, (args.timeout_s ?? 60) * 1000, clock, timers, extra.signal);
        if (found === null) return { result: { timed_out: true }, note: 'timed out' };
        return { result: describe(found, clock.now()), note: `${found.key} is ${statusWord(found, clock.now())}` };
      }),
  );
}

/** answer and type_line: they type, where the policy allows it and only on the screen the caller saw. */
function registerTypingTools(server: McpServer, kit: ToolKit): void {
  const { port, policy, call } = kit;
  server.registerTool(
    'answer',
    {
      description: 'Answers the prompt a pane shows with one of the answers it offers (list_panes `answers`): a menu gets the key alone, a [y/N] line the text then Enter. `screen` (from list_panes, read_pane or wait_for) names the screen the answer is for: nothing is typed if the pane shows another one, or was already answered on it.',
      inputSchema: { pane: z.string().max(128), option: z.string().min(1).max(64), screen: z.string().min(1).max(128) },
      annotations: { destructiveHint: true },
    },
    (args) =>
      call('answer', args, () =>
        typeUnlessRefused(kit, args.pane, (view) => policy.refusal(view), async (view) => {
          const plan = await port.answer(args.pane, args.option, { shownHash: args.screen, target: view.target, surface: 'mcp' });
          return { sent: plan.label, note: `sent ${plan.label}` };
        }),
      ),
  );

  server.registerTool(
    'type_line',
    {
      description: 'Types a line of text, then Enter, into a pane that is at a prompt corral recognises or an idle shell; refused when the pane is busy or runs something else.',
      // eslint-disable-next-line no-control-regex
      inputSchema: { pane: z.string().max(128), text: z.string().max(4096).regex(/^[^\u0000-\u001f\u007f]*$/, 'one line, without control characters') },
      annotations: { destructiveHint: true },
    },
    (args) =>
      call('type_line', args, () =>
        typeUnlessRefused(kit, args.pane, (view) => policy.refusal(view) ?? notReadyForInput(view), async (view) => {
          await port.reply(args.pane, args.text, { shownHash: view.contentHash, target: view.target });
          return { sent: 'the line, then Enter', note: `typed ${args.text.length} characters` };
        }),
      ),
  );
}

/** Types into a pane unless it is refused, then has the pane looked at again; tells what was sent where. */
async function typeUnlessRefused(
  { port, viewOf }: ToolKit,
  pane: string,
  refusal: (view: PaneView) => string | null,
  send: (view: PaneView) => Promise<{ sent: string; note: string }>,
): Promise<{ result: unknown; note: string }> {
  const view = viewOf(pane);
  const why = refusal(view);
  if (why !== null) throw new PolicyError(why);
  const { sent, note } = await send(view);
  void port.pollNow().catch(() => undefined);
  return { result: { sent, pane: view.key, target: view.target }, note };
}

/** Not allowed by corral's settings, or not ready for it. */
class PolicyError extends Error {}

/**
 * Resolves with the first pane (or the named one) in `state`, checked at every snapshot and each
 * second (a pane turns quiet by time alone); null at the timeout or when the client gives up.
 */
function waitFor(port: PanePort, state: WaitState, pane: string | null, timeoutMs: number, clock: Clock, timers: Timers, signal: AbortSignal): Promise<PaneView | null> {
  return new Promise((resolve) => {
    let done = false;
    let tick: unknown = null;
    const deadline = clock.now() + timeoutMs;
    const finish = (view: PaneView | null) => {
      if (done) return;
      done = true;
      unsubscribe();
      if (tick !== null) timers.clearTimeout(tick);
      signal.removeEventListener('abort', abort);
      resolve(view);
    };
    const check = () => {
      const now = clock.now();
      const found = port
        .getSnapshot()
        .panes.filter((v) => v.online && (pane === null || v.key === pane))
        .sort(compareViews)
        .find((v) => reaches(statusWord(v, now), state));
      if (found) return finish(found);
      if (now >= deadline) return finish(null);
      tick = timers.setTimeout(check, Math.min(1_000, Math.max(0, deadline - now)));
    };
    const abort = () => finish(null);
    const unsubscribe = port.subscribe(() => {
      if (tick !== null) timers.clearTimeout(tick);
      check();
    });
    signal.addEventListener('abort', abort);
    check();
  });
}
