// A scripted model for agents that take their actions from the reply's text rather than from tool
// calls (aider: a fenced shell block is a command it offers to run, a file name it offers to add).
// OpenAI chat completions, streamed as the real service streams them, on 127.0.0.1 only. What it
// answers is decided by a keyword in the last user message:
//   RUNCMD <command>   a reply with the command in a ```bash block (aider asks to run it)
//   ADDFILE <path>     a reply that names a file of the repository (aider asks to add it)
//   ADDURL             a reply that names a URL (aider asks to add it)
//   THINKLONG          nothing for 15 seconds, then a short answer (the agent waits for the model)
//   SLOWREPLY          a long answer streamed over about 20 seconds
//   LONGANSWER         a long Markdown answer at once
//   FAILRATE / FAILSERVER   HTTP 429 / 500 every time (aider retries, then gives up)
// anything else: a one-line greeting. Side requests (commit messages, summaries) get a short line.

import { createServer } from 'node:http';
import { LONG_TEXT } from '../fake-model.mjs';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const MAX_BODY = 8 * 1024 * 1024;

/** The reply to a conversation's last user message: { text, chunkMs, firstMs? } or { error }. */
export function decideText(lastUser) {
  const line = (keyword) => {
    const at = lastUser.lastIndexOf(keyword);
    return at < 0 ? null : lastUser.slice(at + keyword.length).split('\n')[0].trim();
  };
  if (line('FAILRATE') !== null) return { error: 429 };
  if (line('FAILSERVER') !== null) return { error: 500 };
  const command = line('RUNCMD');
  if (command !== null) return { text: `I will run that command.\n\n\`\`\`bash\n${command || 'touch marker.txt'}\n\`\`\`\n`, chunkMs: 20 };
  const file = line('ADDFILE');
  if (file !== null) return { text: `The change belongs in ${file || 'notes.txt'}; please add it to the chat.`, chunkMs: 20 };
  if (line('ADDURL') !== null) return { text: 'The details are at https://example.com/changes.html for reference.', chunkMs: 20 };
  if (line('THINKLONG') !== null) return { text: 'I thought about it.', chunkMs: 20, firstMs: 15_000 };
  if (line('SLOWREPLY') !== null) return { text: LONG_TEXT, chunkMs: 120 };
  if (line('LONGANSWER') !== null) return { text: LONG_TEXT, chunkMs: 5 };
  return { text: 'Hello! I am a scripted model. Ask me anything.', chunkMs: 20 };
}

function lastUserText(body) {
  const messages = Array.isArray(body?.messages) ? body.messages : [];
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m?.role !== 'user') continue;
    if (typeof m.content === 'string') return m.content;
    if (Array.isArray(m.content)) return m.content.map((p) => (typeof p?.text === 'string' ? p.text : '')).join('\n');
  }
  return '';
}

/** Aider's own side requests (a commit message, a summary) carry their instructions in the system prompt. */
const SIDE = /commit message|summariz/i;

/** Starts the server: resolves to { url, requests, close() }. */
export async function startTextModel({ port = 0 } = {}) {
  const requests = [];
  const server = createServer((req, res) => {
    const json = (status, value) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(value));
    };
    if (req.method === 'GET' && /\/models$/.test(req.url ?? '')) return json(200, { object: 'list', data: [{ id: 'scripted', object: 'model' }] });
    if (req.method !== 'POST' || !/\/chat\/completions$/.test(req.url ?? '')) return json(404, { error: { message: 'not found', type: 'invalid_request_error' } });
    let size = 0;
    const chunks = [];
    req.on('data', (c) => {
      size += c.length;
      if (size > MAX_BODY) req.destroy();
      else chunks.push(c);
    });
    req.on('end', async () => {
      let body;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        return json(400, { error: { message: 'the body is not JSON', type: 'invalid_request_error' } });
      }
      const system = (body.messages ?? []).filter((m) => m?.role === 'system').map((m) => (typeof m.content === 'string' ? m.content : '')).join('\n');
      const user = lastUserText(body);
      const reply = SIDE.test(system) && !/RUNCMD|ADDFILE|ADDURL|THINKLONG|SLOWREPLY|LONGANSWER|FAIL/.test(user) ? { text: 'chore: scripted change', chunkMs: 0 } : decideText(user);
      requests.push({ user: user.slice(0, 80), reply: reply.error ?? reply.text.slice(0, 40) });
      if (reply.error === 429) return json(429, { error: { message: 'Rate limit reached for requests', type: 'rate_limit_error', code: 'rate_limit_exceeded' } });
      if (reply.error) return json(500, { error: { message: 'The server had an error while processing your request', type: 'server_error' } });
      const id = `chatcmpl-${Date.now()}`;
      const chunk = (delta, finish = null) => ({ id, object: 'chat.completion.chunk', created: Math.floor(Date.now() / 1000), model: body.model ?? 'scripted', choices: [{ index: 0, delta, finish_reason: finish }] });
      if (!body.stream) {
        return json(200, { id, object: 'chat.completion', created: Math.floor(Date.now() / 1000), model: body.model ?? 'scripted', choices: [{ index: 0, message: { role: 'assistant', content: reply.text }, finish_reason: 'stop' }], usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 } });
      }
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      if (reply.firstMs) await sleep(reply.firstMs);
      res.write(`data: ${JSON.stringify(chunk({ role: 'assistant', content: '' }))}\n\n`);
      const words = reply.text.match(/\S+\s*|\s+/g) ?? [];
      for (const word of words) {
        if (res.destroyed) return;
        res.write(`data: ${JSON.stringify(chunk({ content: word }))}\n\n`);
        if (reply.chunkMs > 0) await sleep(reply.chunkMs);
      }
      res.write(`data: ${JSON.stringify(chunk({}, 'stop'))}\n\n`);
      res.end('data: [DONE]\n\n');
    });
  });
  await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
  const address = server.address();
  return {
    url: `http://127.0.0.1:${address.port}/v1`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
