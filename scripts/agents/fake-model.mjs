// A scripted model server on 127.0.0.1 that speaks the four wire formats agent CLIs use: Anthropic
// Messages, OpenAI Responses, OpenAI chat completions and the Gemini API, each streamed the way
// the real service streams it. What the "model" does is decided by keywords in the user's last
// message (see KEYWORDS below), so a driver can walk an agent through a tool approval, a question
// back, a plan, a long think or a stalled stream by typing. Run it alone with
// `node scripts/agents/fake-model.mjs [--port N]`: it prints its URL and logs each request to stderr
// (FAKE_MODEL_VERBOSE=1 lists the tools offered; FAKE_MODEL_DUMP=DIR writes every request body there).

import { createServer } from 'node:http';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { writeFileSync } from 'node:fs';

/**
 * The keywords a user message may carry, and what the model does. The last one in the message
 * wins (an agent may put an interrupted message back in its input); the text after it, up to the
 * end of the line, is its argument.
 */
export const KEYWORDS = {
  RUNCMD: 'ask to run the shell command given after the keyword (default: touch marker.txt)',
  EDITFILE: 'ask to write the file named after the keyword (default: notes.txt)',
  ASKBACK: 'ask the user a multiple-choice question (with the agent\'s question tool when it has one)',
  PLANNOW: 'propose a plan for approval (with the agent\'s plan tool when it has one)',
  THINKLONG: 'stream reasoning for `thinkMs` (default 600 s), then answer',
  STALL: 'stream the start of an answer, then send nothing more until the client goes away',
  SLOWREPLY: 'stream a long answer over `slowMs` (default 600 s)',
  RUNTWICE: 'ask to run two shell commands one after the other, given after the keyword and split by ";;"',
  LONGRUN: 'write a long Markdown answer, then ask to run the shell command given after the keyword',
  LONGANSWER: 'write a long Markdown answer (headings, lists, a table, code, quoted prompts)',
  FAILRATE: 'answer with HTTP 429 (rate limited), every time, so the agent retries and gives up',
  FAILSERVER: 'answer with HTTP 500 (server error), every time, so the agent retries and gives up',
  SUPERVISE: "supervise other panes through corral's MCP tools: list_panes, wait_for a permission prompt, answer it with its first offered answer",
};

/**
 * Tools by what they do, as the agents name them. The model calls the first name the request
 * offers; `args` builds the call's arguments. A new agent needs only its names added here.
 */
export const TOOLS = {
  shell: [
    { name: 'Bash', args: (cmd) => ({ command: cmd, description: 'Run the command the user asked for' }) },
    { name: 'bash', args: (cmd) => ({ command: cmd, description: 'Run the command the user asked for' }) },
    { name: 'run_shell_command', args: (cmd) => ({ command: cmd, description: 'Run the command the user asked for' }) },
    // Codex runs commands in its sandbox; asking for escalation is what makes it ask the user.
    {
      name: 'exec_command',
      // Waits for the command (up to 2 min) rather than the 10 s Codex yields after by default.
      args: (cmd) => ({ cmd, yield_time_ms: 120_000, sandbox_permissions: 'require_escalated', justification: 'The user asked to run this command outside the sandbox.' }),
    },
    {
      name: 'shell_command',
      args: (cmd) => ({ command: cmd, sandbox_permissions: 'require_escalated', justification: 'The user asked to run this command outside the sandbox.' }),
    },
    {
      name: 'shell',
      args: (cmd) => ({ command: ['bash', '-lc', cmd], sandbox_permissions: 'require_escalated', justification: 'The user asked to run this command outside the sandbox.' }),
    },
  ],
  edit: [
    { name: 'Write', args: (path) => ({ file_path: absolute(path), content: 'Notes written by the scripted model.\n' }) },
    { name: 'write_file', args: (path) => ({ file_path: absolute(path), content: 'Notes written by the scripted model.\n' }) },
    { name: 'write', args: (path) => ({ filePath: absolute(path), content: 'Notes written by the scripted model.\n' }) },
    { name: 'apply_patch', args: (path) => ({ input: patchAdding(path) }) },
    // Codex without an apply_patch tool edits through its shell tool, and still shows its edit approval.
    { name: 'exec_command', args: (path) => ({ cmd: `apply_patch <<'PATCH'\n${patchAdding(path)}PATCH` }) },
  ],
  question: [
    {
      name: 'AskUserQuestion',
      args: () => ({
        questions: [
          {
            question: 'Which colour should the button be?',
            header: 'Colour',
            multiSelect: false,
            options: [
              { label: 'Blue', description: 'The brand colour' },
              { label: 'Green', description: 'Stands out more' },
            ],
          },
        ],
      }),
    },
    { name: 'ask_user_question', args: (v) => TOOLS.question[0].args(v) },
    {
      name: 'ask_user',
      args: () => ({
        questions: [
          {
            question: 'Which colour should the button be?',
            header: 'Colour',
            type: 'choice',
            options: [
              { label: 'Blue', description: 'The brand colour' },
              { label: 'Green', description: 'Stands out more' },
            ],
          },
        ],
      }),
    },
    {
      name: 'question',
      args: () => ({
        questions: [
          {
            question: 'Which colour should the button be?',
            header: 'Colour',
            options: [
              { label: 'Blue', description: 'The brand colour' },
              { label: 'Green', description: 'Stands out more' },
            ],
          },
        ],
      }),
    },
    {
      name: 'request_user_input',
      args: () => ({
        questions: [
          {
            id: 'colour',
            header: 'Colour',
            question: 'Which colour should the button be?',
            options: [
              { label: 'Blue (Recommended)', description: 'The brand colour' },
              { label: 'Green', description: 'Stands out more' },
            ],
          },
        ],
      }),
    },
  ],
  // Tools that switch an agent into its plan mode, where it then offers one of the `plan` tools.
  planMode: [
    { name: 'enter_plan_mode', args: () => ({ reason: 'The user asked for a plan first.' }) },
    { name: 'EnterPlanMode', args: () => ({}) },
  ],
  plan: [
    { name: 'ExitPlanMode', args: () => ({ plan: PLAN_TEXT }) },
    { name: 'exit_plan_mode', args: () => ({ plan: PLAN_TEXT, plan_path: 'plan.md' }) },
    { name: 'plan_exit', args: () => ({}) },
  ],
};

function patchAdding(path) {
  return `*** Begin Patch\n*** Add File: ${path}\n+Notes written by the scripted model.\n*** End Patch\n`;
}

/**
 * A long answer that looks like prompts in places (a question, a numbered list, a shell line, an
 * interrupt hint in backticks), as real answers do: the screen under it is idle all the same.
 */
export const LONG_TEXT = [
  '# Release checklist',
  '',
  'Here is what I found in the project, section by section.',
  '',
  '## Build',
  '',
  ...Array.from({ length: 12 }, (_, i) => `${i + 1}. Step ${i + 1}: check that \`npm run build\` still passes after change ${i + 1}.`),
  '',
  '## Questions people ask',
  '',
  '- Do you want to proceed? Only after the tests pass.',
  '- Would you like to run the following command? `npm test` is enough.',
  '- Press `esc to interrupt` if a run takes too long.',
  '',
  '| step | owner | state |',
  '|---|---|---|',
  ...Array.from({ length: 8 }, (_, i) => `| task ${i + 1} | team ${String.fromCharCode(65 + i)} | done |`),
  '',
  '```sh',
  '$ npm ci',
  '$ npm test',
  '> all green',
  '```',
  '',
  ...Array.from({ length: 10 }, (_, i) => `Paragraph ${i + 1}: the release notes mention item ${i + 1}, and nothing in it needs an answer from you.`),
  '',
  'End of the checklist.',
].join('\n');

const PLAN_TEXT = '## Plan\n\n1. Add a `colour` prop to the button.\n2. Use it in the stylesheet.\n3. Add a test.\n';
const QUESTION_TEXT = 'Which colour should the button be: blue or green?';
const DONE_TEXT = 'Done: the tool finished. Anything else?';
const HELLO_TEXT = 'Hello! I am a scripted model. Ask me anything.';

/** Agents want absolute paths; a relative one is taken from where the server runs. */
function absolute(path) {
  return path.startsWith('/') ? path : `${process.cwd()}/${path}`;
}

// ---------------------------------------------------------------------------------------------
// What the model does, decided from a request in a neutral form.

/**
 * @typedef {{ api: string, model: string, tools: string[], system: string, lastUser: string, afterTool: boolean, schema: object | null,
 *             lastCall?: string | null, lastResult?: string | null, deferred?: string[] }} Turn
 * @typedef {{ text?: string, call?: { name: string, args: object }, thinkMs?: number, slowMs?: number, stall?: boolean }} Reply
 */

/** The reply to one request. Pure, apart from the options' durations. */
export function decide(turn, options = {}) {
  const supervising = supervise(turn);
  if (supervising) return supervising;
  // After a tool search has loaded a deferred tool, or the agent went into plan mode, carry on
  // with what the user asked for.
  const loaded = turn.afterTool && (turn.lastCall === TOOL_SEARCH || TOOLS.planMode.some((t) => t.name === turn.lastCall));
  const found = turn.tools.length === 0 ? null : findKeyword(turn.lastUser);
  if (found?.keyword === 'FAILRATE') return { error: 429 };
  if (found?.keyword === 'FAILSERVER') return { error: 500 };
  // Codex's command still runs after its yield time: wait for it, as a model does.
  const running = turn.afterTool ? /Process running with session ID (\d+)/.exec(turn.lastResult ?? '') : null;
  if (running && turn.tools.includes('write_stdin')) {
    return { call: { name: 'write_stdin', args: { session_id: Number(running[1]), chars: '', yield_time_ms: 30_000 } } };
  }
  if (turn.afterTool && !loaded) {
    // The first of two commands ran: ask for the second.
    const second = found?.keyword === 'RUNTWICE' && (turn.callsSinceUser ?? 1) < 2 ? found.arg.split(';;')[1]?.trim() : undefined;
    const tool = second ? TOOLS.shell.find((t) => turn.tools.includes(t.name)) : undefined;
    return tool ? { text: 'Now the second command.', call: { name: tool.name, args: tool.args(second) } } : { text: DONE_TEXT };
  }
  if (turn.tools.length === 0) return { text: sideAnswer(turn) };
  if (!found) return { text: HELLO_TEXT };
  const { keyword, arg } = found;
  const call = (kind, value) => {
    const tool = TOOLS[kind].find((t) => turn.tools.includes(t.name));
    if (tool) return { name: tool.name, args: tool.args(value) };
    // Claude Code offers some tools only by name, to be loaded with its tool search first.
    const deferred = turn.tools.includes(TOOL_SEARCH) ? TOOLS[kind].find((t) => turn.deferred?.includes(t.name)) : undefined;
    if (!deferred) return null;
    return loaded ? { name: deferred.name, args: deferred.args(value) } : { name: TOOL_SEARCH, args: { query: `select:${deferred.name}`, max_results: 1 } };
  };
  switch (keyword) {
    case 'RUNCMD': {
      const c = call('shell', arg || 'touch marker.txt');
      return c ? { text: 'I will run that command.', call: c } : { text: 'I have no shell tool here.' };
    }
    case 'RUNTWICE': {
      const c = call('shell', arg.split(';;')[0]?.trim() || 'touch marker.txt');
      return c ? { text: 'I will run two commands, one after the other.', call: c } : { text: 'I have no shell tool here.' };
    }
    case 'LONGRUN': {
      const c = call('shell', arg || 'touch marker.txt');
      return c ? { text: `${LONG_TEXT}\n\nNow I will run that command.`, call: c } : { text: LONG_TEXT };
    }
    case 'LONGANSWER':
      return { text: LONG_TEXT };
    case 'EDITFILE': {
      const c = call('edit', arg || 'notes.txt');
      return c ? { text: 'I will write that file.', call: c } : { text: 'I have no file tool here.' };
    }
    case 'ASKBACK': {
      const c = call('question');
      return c ? { call: c } : { text: QUESTION_TEXT };
    }
    case 'PLANNOW': {
      const c = call('plan') ?? (loaded ? null : call('planMode'));
      return c ? { text: 'Here is my plan.', call: c } : { text: `${PLAN_TEXT}\nShall I go ahead with this plan?` };
    }
    case 'THINKLONG':
      return { thinkMs: options.thinkMs ?? 600_000, text: 'I thought about it.' };
    case 'STALL':
      return { text: 'Let me look into that.\n\nFirst, ', stall: true };
    case 'SLOWREPLY':
      return { slowMs: options.slowMs ?? 600_000, text: 'Counting slowly.' };
  }
  return { text: HELLO_TEXT };
}

/**
 * SUPERVISE walks corral's MCP tools (named `list_panes`, or `mcp__corral__list_panes` and the
 * like by the agent): list the panes, wait for one that asks for permission, answer it with the
 * first answer its prompt offers, on the screen wait_for returned. Null when the turn is not part
 * of that walk.
 */
function supervise(turn) {
  // Asked for in the user's message, or under way (a tool search's note can stand as the last user text).
  const underWay = /(?:^|__)(?:list_panes|wait_for|answer)$/.test(turn.lastCall ?? '');
  if (findKeyword(turn.lastUser)?.keyword !== 'SUPERVISE' && !underWay) return null;
  // Offered, or (Claude Code) named in the request and loaded with its tool search first.
  const named = (name) => (t) => t === name || t.endsWith(`__${name}`);
  const tool = (name) => turn.tools.find(named(name)) ?? turn.deferredMcp?.find(named(name));
  const step = (name, args, text) => {
    const found = tool(name);
    return found ? { text, call: { name: found, args } } : { text: `I have no ${name} tool here.` };
  };
  const last = turn.lastCall ?? '';
  if (!turn.afterTool) {
    const deferred = ['list_panes', 'wait_for', 'answer'].map((n) => turn.deferredMcp?.find(named(n))).filter(Boolean);
    if (!turn.tools.some(named('list_panes')) && turn.tools.includes(TOOL_SEARCH) && deferred.length > 0) {
      return { text: 'Let me load the tools.', call: { name: TOOL_SEARCH, args: { query: `select:${deferred.join(',')}`, max_results: deferred.length } } };
    }
    return step('list_panes', {}, 'Let me look at the panes.');
  }
  if (last === TOOL_SEARCH) return step('list_panes', {}, 'Let me look at the panes.');
  if (last.endsWith('list_panes')) return step('wait_for', { state: 'permission', timeout_s: 120 }, 'I will wait for a pane that asks for permission.');
  if (last.endsWith('wait_for')) {
    let found = null;
    try {
      found = JSON.parse(turn.lastResult ?? '');
    } catch {
      return { text: `wait_for gave no pane: ${turn.lastResult}` };
    }
    if (!found?.pane || !found.answers?.length) return { text: `No pane asked for permission: ${turn.lastResult}` };
    return step('answer', { pane: found.pane, option: found.answers[0], screen: found.screen }, `Answering ${found.pane}.`);
  }
  if (last.endsWith('__answer') || last === 'answer') return { text: `Supervised: ${turn.lastResult}` };
  return { text: `Supervising, after ${last}: ${turn.lastResult}` };
}

const TOOL_SEARCH = 'ToolSearch';
const ALL_TOOL_NAMES = [...new Set(Object.values(TOOLS).flatMap((list) => list.map((t) => t.name)))];

function findKeyword(text) {
  let best = null;
  for (const keyword of Object.keys(KEYWORDS)) {
    const at = text.lastIndexOf(keyword);
    if (at >= 0 && (best === null || at > best.at)) best = { keyword, at };
  }
  if (!best) return null;
  const rest = text.slice(best.at + best.keyword.length).split('\n')[0].trim();
  return { keyword: best.keyword, arg: rest };
}

/**
 * Requests that offer no tools are the agents' own side questions (titles, topics, routing). One
 * that asks for JSON of a schema (gemini-cli's router, Codex's title) gets the smallest object
 * that fits the schema.
 */
function sideAnswer(turn) {
  return turn.schema ? JSON.stringify(sampleOf(turn.schema)) : 'OK';
}

/** A value that satisfies a JSON schema (OpenAPI-style upper-case types too), as small as it gets. */
export function sampleOf(schema, depth = 0) {
  if (!schema || typeof schema !== 'object' || depth > 8) return null;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  if (schema.const !== undefined) return schema.const;
  const variants = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(variants) && variants.length > 0) return sampleOf(variants[0], depth + 1);
  const type = String(Array.isArray(schema.type) ? schema.type[0] : (schema.type ?? (schema.properties ? 'object' : 'string'))).toLowerCase();
  switch (type) {
    case 'object': {
      const out = {};
      for (const [key, sub] of Object.entries(schema.properties ?? {})) out[key] = sampleOf(sub, depth + 1);
      return out;
    }
    case 'array':
      return schema.minItems > 0 ? [sampleOf(schema.items, depth + 1)] : [];
    case 'integer':
    case 'number':
      return schema.minimum ?? 10;
    case 'boolean':
      return false;
    case 'null':
      return null;
    default:
      return 'scripted';
  }
}

// ---------------------------------------------------------------------------------------------
// Wire formats: each turns a request body into a Turn and writes a Reply the way its API streams.

const textOf = (content) => {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((part) => (typeof part === 'string' ? part : (part?.text ?? ''))).join('\n');
};

function anthropicTurn(body) {
  const messages = body.messages ?? [];
  const last = messages.at(-1);
  const blocks = Array.isArray(last?.content) ? last.content : [];
  const lastAssistantAt = messages.findLastIndex((m) => m.role === 'assistant');
  const lastAssistant = messages[lastAssistantAt];
  const lastCall = (Array.isArray(lastAssistant?.content) ? lastAssistant.content : []).filter((b) => b?.type === 'tool_use').at(-1)?.name ?? null;
  const hasResult = last?.role === 'user' && blocks.some((b) => b?.type === 'tool_result');
  // A tool result with the user's next message in the same turn (after a rejected call) is a new
  // request; the note a tool search adds ("Tool loaded.") is not.
  const afterTool = hasResult && (lastCall === TOOL_SEARCH || stripReminders(textOf(blocks)).trim() === '');
  const asked = messages.slice(0, afterTool && lastAssistantAt >= 0 ? lastAssistantAt : messages.length);
  const userTexts = asked.filter((m) => m.role === 'user').map((m) => stripReminders(textOf(m.content))).filter((t) => t.trim() !== '');
  const whole = JSON.stringify(body);
  let callsSinceUser = 0;
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    const parts = Array.isArray(m.content) ? m.content : [];
    if (m.role === 'assistant') callsSinceUser += parts.filter((b) => b?.type === 'tool_use' && b.name !== TOOL_SEARCH).length;
    else if (m.role === 'user' && stripReminders(textOf(Array.isArray(m.content) ? parts.filter((b) => b?.type !== 'tool_result') : m.content)).trim() !== '') break;
  }
  const result = blocks.filter((b) => b?.type === 'tool_result').at(-1);
  return {
    api: 'anthropic',
    lastCall,
    callsSinceUser,
    lastResult: result ? textOf(typeof result.content === 'string' ? result.content : (result.content ?? []).map((c) => c?.text ?? '')) : null,
    deferredMcp: [...new Set(whole.match(/mcp__[A-Za-z0-9_-]+?__[A-Za-z0-9_]+/g) ?? [])],
    deferred: ALL_TOOL_NAMES.filter((name) => whole.includes(name)),
    model: body.model ?? '',
    tools: (body.tools ?? []).map((t) => t.name).filter(Boolean),
    system: textOf(body.system),
    lastUser: userTexts.at(-1) ?? '',
    afterTool,
    schema: body.output_format?.schema ?? body.output_config?.format?.schema ?? null,
  };
}

/** Claude Code wraps context in <system-reminder> blocks inside the user message. */
function stripReminders(text) {
  return text.replace(/<system-reminder>[\s\S]*?<\/system-reminder>/g, '');
}

function responsesTurn(body) {
  const input = Array.isArray(body.input) ? body.input : [{ role: 'user', content: body.input ?? '' }];
  const last = input.at(-1);
  const afterTool = last?.type === 'function_call_output' || last?.type === 'custom_tool_call_output';
  const output = afterTool ? last.output : null;
  const users = input.filter((i) => i.role === 'user' && (i.type === undefined || i.type === 'message'));
  const isCall = (i) => i.type === 'function_call' || i.type === 'custom_tool_call';
  const lastCall = input.filter(isCall).at(-1)?.name ?? null;
  const lastUserAt = input.findLastIndex((i) => i.role === 'user' && (i.type === undefined || i.type === 'message'));
  return {
    api: 'responses',
    lastCall,
    callsSinceUser: input.slice(lastUserAt + 1).filter(isCall).length,
    lastResult: output === null ? null : typeof output === 'string' ? output : textOf(output),
    model: body.model ?? '',
    tools: (body.tools ?? []).map((t) => t.name ?? t.type).filter(Boolean),
    system: body.instructions ?? '',
    lastUser: textOf(users.at(-1)?.content),
    afterTool,
    schema: body.text?.format?.schema ?? null,
  };
}

function chatTurn(body) {
  const messages = body.messages ?? [];
  const last = messages.at(-1);
  const lastCall = messages.filter((m) => m.role === 'assistant').at(-1)?.tool_calls?.at(-1)?.function?.name ?? null;
  const lastUserAt = messages.findLastIndex((m) => m.role === 'user');
  return {
    api: 'chat',
    lastCall,
    callsSinceUser: messages.slice(lastUserAt + 1).reduce((n, m) => n + (m.role === 'assistant' ? (m.tool_calls?.length ?? 0) : 0), 0),
    model: body.model ?? '',
    tools: (body.tools ?? []).map((t) => t.function?.name).filter(Boolean),
    system: messages.filter((m) => m.role === 'system').map((m) => textOf(m.content)).join('\n'),
    lastUser: textOf(messages.filter((m) => m.role === 'user').at(-1)?.content),
    afterTool: last?.role === 'tool',
    schema: body.response_format?.json_schema?.schema ?? null,
  };
}

function geminiTurn(body) {
  const contents = body.contents ?? [];
  const last = contents.at(-1);
  const parts = last?.parts ?? [];
  const afterTool = parts.some((p) => p.functionResponse) && !parts.some((p) => typeof p.text === 'string' && p.text.trim() !== '');
  const lastCall = (contents.filter((c) => c.role === 'model').at(-1)?.parts ?? []).filter((p) => p.functionCall).at(-1)?.functionCall.name ?? null;
  const hasText = (c) => c.role === 'user' && (c.parts ?? []).some((p) => typeof p.text === 'string');
  const users = contents.filter(hasText);
  const lastUserAt = contents.findLastIndex(hasText);
  return {
    api: 'gemini',
    lastCall,
    callsSinceUser: contents.slice(lastUserAt + 1).reduce((n, c) => n + (c.role === 'model' ? (c.parts ?? []).filter((p) => p.functionCall).length : 0), 0),
    model: body.model ?? '',
    tools: (body.tools ?? []).flatMap((t) => (t.functionDeclarations ?? []).map((f) => f.name)),
    system: textOf(body.systemInstruction?.parts ?? body.systemInstruction ?? ''),
    lastUser: (users.at(-1)?.parts ?? []).map((p) => p.text ?? '').join('\n'),
    afterTool,
    schema: body.generationConfig?.responseJsonSchema ?? body.generationConfig?.responseSchema ?? null,
  };
}

/** Splits text into the small pieces a model streams. */
function pieces(text) {
  return text.match(/\S+\s*|\s+/g) ?? [];
}

const sleep = (ms, signal) =>
  new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });

/**
 * Streams reasoning or a long text in small steps until `ms` has passed or the client went away.
 * `emit(chunk)` writes one step.
 */
async function trickle(ms, signal, emit, stepMs = 400) {
  const end = Date.now() + ms;
  let n = 0;
  while (!signal.aborted && Date.now() < end) {
    emit(n++ === 0 ? 'Let me think this through. ' : 'Still weighing it. ');
    await sleep(Math.min(stepMs, Math.max(0, end - Date.now())), signal);
  }
}

/** Holds a stalled stream open until the client goes away. */
function hold(signal) {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    signal.addEventListener('abort', () => resolve(), { once: true });
  });
}

function sse(res) {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  return {
    event: (name, data) => res.write(`event: ${name}\ndata: ${JSON.stringify(data)}\n\n`),
    data: (data) => res.write(`data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`),
  };
}

async function writeAnthropic(req, res, body, reply, signal, ctx) {
  const id = `msg_${randomUUID().replace(/-/g, '').slice(0, 24)}`;
  const usage = { input_tokens: 12, output_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
  const stopReason = reply.call ? 'tool_use' : 'end_turn';
  if (!body.stream) {
    const content = [];
    if (reply.text) content.push({ type: 'text', text: reply.text });
    if (reply.call) content.push({ type: 'tool_use', id: `toolu_${ctx.callId()}`, name: reply.call.name, input: reply.call.args });
    return json(res, 200, { id, type: 'message', role: 'assistant', model: body.model, content, stop_reason: stopReason, stop_sequence: null, usage: { ...usage, output_tokens: 8 } });
  }
  const s = sse(res);
  s.event('message_start', { type: 'message_start', message: { id, type: 'message', role: 'assistant', model: body.model, content: [], stop_reason: null, stop_sequence: null, usage } });
  let index = 0;
  if (reply.thinkMs) {
    s.event('content_block_start', { type: 'content_block_start', index, content_block: { type: 'thinking', thinking: '', signature: '' } });
    await trickle(reply.thinkMs, signal, (t) => s.event('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'thinking_delta', thinking: t } }));
    s.event('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'signature_delta', signature: 'c2NyaXB0ZWQ=' } });
    s.event('content_block_stop', { type: 'content_block_stop', index });
    index++;
  }
  if (reply.text) {
    s.event('content_block_start', { type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
    const send = (t) => s.event('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'text_delta', text: t } });
    for (const p of pieces(reply.text)) send(p);
    if (reply.slowMs) await trickle(reply.slowMs, signal, (t) => send(`\n${t}`), 1000);
    if (reply.stall) return hold(signal);
    s.event('content_block_stop', { type: 'content_block_stop', index });
    index++;
  }
  if (reply.call) {
    s.event('content_block_start', { type: 'content_block_start', index, content_block: { type: 'tool_use', id: `toolu_${ctx.callId()}`, name: reply.call.name, input: {} } });
    s.event('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: JSON.stringify(reply.call.args) } });
    s.event('content_block_stop', { type: 'content_block_stop', index });
  }
  s.event('message_delta', { type: 'message_delta', delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: 24 } });
  s.event('message_stop', { type: 'message_stop' });
  res.end();
}

async function writeResponses(req, res, body, reply, signal, ctx) {
  const id = `resp_${randomUUID().replace(/-/g, '')}`;
  const s = sse(res);
  const base = { id, object: 'response', created_at: Math.floor(Date.now() / 1000), model: body.model, status: 'in_progress', output: [] };
  let seq = 0;
  const ev = (type, data) => s.event(type, { type, sequence_number: seq++, ...data });
  ev('response.created', { response: base });
  ev('response.in_progress', { response: base });
  const output = [];
  let index = 0;
  if (reply.thinkMs) {
    const item = { id: `rs_${ctx.callId()}`, type: 'reasoning', summary: [] };
    ev('response.output_item.added', { output_index: index, item });
    // Each step is a summary part of its own, headed in bold as real reasoning summaries are:
    // Codex shows the latest heading as its status.
    const parts = [];
    let part = -1;
    await trickle(reply.thinkMs, signal, () => {
      part++;
      const text = `**Weighing option ${part + 1}**\n\nComparing the approaches before answering.`;
      parts.push({ type: 'summary_text', text });
      ev('response.reasoning_summary_part.added', { item_id: item.id, output_index: index, summary_index: part, part: { type: 'summary_text', text: '' } });
      ev('response.reasoning_summary_text.delta', { item_id: item.id, output_index: index, summary_index: part, delta: text });
      ev('response.reasoning_summary_text.done', { item_id: item.id, output_index: index, summary_index: part, text });
    }, 1500);
    const all = parts.map((p) => p.text).join('\n\n');
    const done = { ...item, summary: [{ type: 'summary_text', text: all }] };
    ev('response.output_item.done', { output_index: index, item: done });
    output.push(done);
    index++;
  }
  if (reply.text) {
    const item = { id: `msg_${ctx.callId()}`, type: 'message', role: 'assistant', status: 'in_progress', content: [] };
    ev('response.output_item.added', { output_index: index, item });
    ev('response.content_part.added', { item_id: item.id, output_index: index, content_index: 0, part: { type: 'output_text', text: '', annotations: [] } });
    let all = '';
    const send = (t) => {
      all += t;
      ev('response.output_text.delta', { item_id: item.id, output_index: index, content_index: 0, delta: t });
    };
    for (const p of pieces(reply.text)) send(p);
    if (reply.slowMs) await trickle(reply.slowMs, signal, (t) => send(`\n${t}`), 1000);
    if (reply.stall) return hold(signal);
    ev('response.output_text.done', { item_id: item.id, output_index: index, content_index: 0, text: all });
    const done = { ...item, status: 'completed', content: [{ type: 'output_text', text: all, annotations: [] }] };
    ev('response.output_item.done', { output_index: index, item: done });
    output.push(done);
    index++;
  }
  if (reply.call) {
    const callId = `call_${ctx.callId()}`;
    const item =
      reply.call.name === 'apply_patch' && ctx.customTools.has('apply_patch')
        ? { id: `ctc_${ctx.callId()}`, type: 'custom_tool_call', status: 'completed', call_id: callId, name: 'apply_patch', input: reply.call.args.input }
        : { id: `fc_${ctx.callId()}`, type: 'function_call', status: 'completed', call_id: callId, name: reply.call.name, arguments: JSON.stringify(reply.call.args) };
    ev('response.output_item.added', { output_index: index, item: { ...item, status: 'in_progress' } });
    ev('response.output_item.done', { output_index: index, item });
    output.push(item);
  }
  ev('response.completed', {
    response: { ...base, status: 'completed', output, usage: { input_tokens: 12, input_tokens_details: { cached_tokens: 0 }, output_tokens: 24, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 36 } },
  });
  res.end();
}

async function writeChat(req, res, body, reply, signal, ctx) {
  const id = `chatcmpl-${randomUUID().replace(/-/g, '').slice(0, 24)}`;
  const created = Math.floor(Date.now() / 1000);
  const finish = reply.call ? 'tool_calls' : 'stop';
  const callId = `call_${ctx.callId()}`;
  if (!body.stream) {
    const message = { role: 'assistant', content: reply.text ?? null };
    if (reply.call) message.tool_calls = [{ id: callId, type: 'function', function: { name: reply.call.name, arguments: JSON.stringify(reply.call.args) } }];
    return json(res, 200, { id, object: 'chat.completion', created, model: body.model, choices: [{ index: 0, message, finish_reason: finish }], usage: { prompt_tokens: 12, completion_tokens: 24, total_tokens: 36 } });
  }
  const s = sse(res);
  const chunk = (delta, finishReason = null) => s.data({ id, object: 'chat.completion.chunk', created, model: body.model, choices: [{ index: 0, delta, finish_reason: finishReason }] });
  chunk({ role: 'assistant', content: '' });
  if (reply.thinkMs) await trickle(reply.thinkMs, signal, (t) => chunk({ reasoning_content: t }));
  if (reply.text) {
    for (const p of pieces(reply.text)) chunk({ content: p });
    if (reply.slowMs) await trickle(reply.slowMs, signal, (t) => chunk({ content: `\n${t}` }), 1000);
    if (reply.stall) return hold(signal);
  }
  if (reply.call) {
    chunk({ tool_calls: [{ index: 0, id: callId, type: 'function', function: { name: reply.call.name, arguments: '' } }] });
    chunk({ tool_calls: [{ index: 0, function: { arguments: JSON.stringify(reply.call.args) } }] });
  }
  chunk({}, finish);
  if (body.stream_options?.include_usage) s.data({ id, object: 'chat.completion.chunk', created, model: body.model, choices: [], usage: { prompt_tokens: 12, completion_tokens: 24, total_tokens: 36 } });
  s.data('[DONE]');
  res.end();
}

async function writeGemini(req, res, body, reply, signal, ctx, streaming) {
  const usageMetadata = { promptTokenCount: 12, candidatesTokenCount: 24, totalTokenCount: 36 };
  const candidate = (parts, finishReason) => ({ candidates: [{ content: { role: 'model', parts }, index: 0, ...(finishReason ? { finishReason } : {}) }], usageMetadata, modelVersion: body.model });
  const callPart = reply.call ? [{ functionCall: { id: `call_${ctx.callId()}`, name: reply.call.name, args: reply.call.args } }] : [];
  if (!streaming) {
    const parts = [...(reply.text ? [{ text: reply.text }] : []), ...callPart];
    return json(res, 200, candidate(parts, 'STOP'));
  }
  const s = sse(res);
  if (reply.thinkMs) await trickle(reply.thinkMs, signal, (t) => s.data(candidate([{ text: t, thought: true }])));
  if (reply.text) {
    for (const p of pieces(reply.text)) s.data(candidate([{ text: p }]));
    if (reply.slowMs) await trickle(reply.slowMs, signal, (t) => s.data(candidate([{ text: `\n${t}` }])), 1000);
    if (reply.stall) return hold(signal);
  }
  s.data(candidate(callPart, 'STOP'));
  res.end();
}

/** An error as each API answers it: the status, and the body its clients parse. */
function writeError(res, api, status) {
  const message = status === 429 ? 'Rate limited by the scripted model: try again later.' : 'The scripted model failed (a server error).';
  const bodies = {
    anthropic: { type: 'error', error: { type: status === 429 ? 'rate_limit_error' : 'api_error', message } },
    gemini: { error: { code: status, message, status: status === 429 ? 'RESOURCE_EXHAUSTED' : 'INTERNAL' } },
  };
  const openai = { error: { message, type: status === 429 ? 'rate_limit_error' : 'server_error', code: status === 429 ? 'rate_limit_exceeded' : 'server_error' } };
  json(res, status, bodies[api] ?? openai);
}

// ---------------------------------------------------------------------------------------------
// The server

function json(res, status, body) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

const MAX_BODY = 32 * 1024 * 1024;

function readBody(req) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    let size = 0;
    req.on('data', (c) => {
      size += c.length;
      if (size > MAX_BODY) {
        reject(new Error('request body too large'));
        req.destroy();
      } else chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/**
 * Starts the scripted model on 127.0.0.1.
 *
 * @param {{ port?: number, thinkMs?: number, slowMs?: number, dumpDir?: string,
 *           onRequest?: (entry: { api: string, path: string, turn: Turn | null, reply: Reply | null }) => void }} [options]
 * @returns {Promise<{ url: string, port: number, requests: object[], close: () => Promise<void> }>}
 *   `url` has no trailing slash; each CLI wants its own suffix (see scripts/agents/agents.mjs).
 */
export async function startFakeModel(options = {}) {
  const requests = [];
  const open = new Set();
  let calls = 0;
  const ctx = { callId: () => `${Date.now().toString(36)}${(calls++).toString(36)}`, customTools: new Set() };

  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const path = url.pathname.replace(/\/+$/, '');
    const controller = new AbortController();
    res.on('close', () => controller.abort());
    open.add(res);
    res.on('close', () => open.delete(res));
    const record = (api, turn, reply) => {
      const entry = { api, method: req.method, path, turn, reply };
      requests.push(entry);
      options.onRequest?.(entry);
    };
    try {
      if (req.method === 'GET') {
        record('get', null, null);
        if (/\/models$/.test(path)) return json(res, 200, { object: 'list', data: [{ id: 'scripted-model', object: 'model', created: 0, owned_by: 'corral' }], models: [] });
        return json(res, 404, { error: { message: `no route ${path}`, type: 'not_found' } });
      }
      if (req.method !== 'POST') return json(res, 405, { error: { message: 'use POST', type: 'invalid_request_error' } });
      let body;
      try {
        const raw = await readBody(req);
        body = JSON.parse(raw || '{}');
        if (options.dumpDir) writeFileSync(`${options.dumpDir}/${String(requests.length).padStart(4, '0')}${path.replace(/[^\w]+/g, '_')}.json`, raw);
      } catch (error) {
        return json(res, 400, { error: { message: `body is not JSON: ${error.message}`, type: 'invalid_request_error' } });
      }
      if (/\/messages\/count_tokens$/.test(path)) {
        record('anthropic-count', null, null);
        return json(res, 200, { input_tokens: 100 });
      }
      if (/\/messages$/.test(path)) {
        const turn = anthropicTurn(body);
        const reply = decide(turn, options);
        record('anthropic', turn, reply);
        if (reply.error) return writeError(res, 'anthropic', reply.error);
        return await writeAnthropic(req, res, body, reply, controller.signal, ctx);
      }
      if (/\/responses$/.test(path)) {
        for (const t of body.tools ?? []) if (t.type === 'custom' && t.name) ctx.customTools.add(t.name);
        const turn = responsesTurn(body);
        const reply = decide(turn, options);
        record('responses', turn, reply);
        if (reply.error) return writeError(res, 'responses', reply.error);
        return await writeResponses(req, res, body, reply, controller.signal, ctx);
      }
      if (/\/chat\/completions$/.test(path)) {
        const turn = chatTurn(body);
        const reply = decide(turn, options);
        record('chat', turn, reply);
        if (reply.error) return writeError(res, 'chat', reply.error);
        return await writeChat(req, res, body, reply, controller.signal, ctx);
      }
      const gemini = /\/models\/([^/:]+):(streamGenerateContent|generateContent|countTokens|embedContent)$/.exec(path);
      if (gemini) {
        const [, model, method] = gemini;
        if (method === 'countTokens') {
          record('gemini-count', null, null);
          return json(res, 200, { totalTokens: 100 });
        }
        if (method === 'embedContent') {
          record('gemini-embed', null, null);
          return json(res, 200, { embedding: { values: [0, 0, 0] } });
        }
        const turn = { ...geminiTurn(body), model };
        const reply = decide(turn, options);
        record('gemini', turn, reply);
        if (reply.error) return writeError(res, 'gemini', reply.error);
        return await writeGemini(req, res, { ...body, model }, reply, controller.signal, ctx, method === 'streamGenerateContent');
      }
      record('unknown', null, null);
      return json(res, 404, { error: { message: `no route ${path}`, type: 'not_found' } });
    } catch (error) {
      if (!res.headersSent) json(res, 500, { error: { message: String(error?.message ?? error), type: 'server_error' } });
      else res.destroy();
    }
  });

  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', resolve);
  });
  const port = server.address().port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    close: () =>
      new Promise((resolve) => {
        for (const res of open) res.destroy();
        server.closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const at = process.argv.indexOf('--port');
  const port = at > 0 ? Number(process.argv[at + 1]) : 0;
  const model = await startFakeModel({
    port,
    ...(process.env.FAKE_MODEL_DUMP ? { dumpDir: process.env.FAKE_MODEL_DUMP } : {}),
    onRequest: (e) => process.stderr.write(`${e.api} ${e.path} ${e.turn ? JSON.stringify({ user: e.turn.lastUser.slice(0, 60), tools: process.env.FAKE_MODEL_VERBOSE ? e.turn.tools : e.turn.tools.length, afterTool: e.turn.afterTool }) : ''} -> ${e.reply ? JSON.stringify(e.reply).slice(0, 120) : ''}\n`),
  });
  process.stdout.write(`${model.url}\n`);
  const stop = () => model.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
