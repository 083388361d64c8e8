// corral's own answers to chat UIs' side requests: a title such as `tmux work:0.0 — git status`,
// a short summary of the commands a pane was given, tags, and empty suggestion lists, each in the
// shape the UI parses. Pure.

import { SIDE_PROMPTS, type AnswerShape, type ChatMessage, type SideKind } from './side-requests.js';

export interface SideContext {
  /** The pane's model name (`work:0.0`, a label); null for the side model. */
  readonly paneName: string | null;
  /** Its foreground command and working directory, when known. */
  readonly command: string | null;
  readonly cwd: string | null;
  /** Messages typed into the pane through the bridge, most recent first. */
  readonly recentTyped: readonly string[];
  /** The request's messages. */
  readonly messages: readonly ChatMessage[];
}

const SUBJECT_CHARS = 40;

// How UIs mark the person's lines when they put the history into one prompt: `User: …` (LibreChat,
// LobeChat, Open WebUI's `USER: …`), `||>User:` then the text (LibreChat's older titles), `<user>…</user>`.
const EMBEDDED_USER_LINES = [/^(?:user|USER|User|Human)\s*:[ \t]*(\S.*)$/gm, /^\|\|>User:\n(.+)$/gm, /<user>([^<\n]+)<\/user>/g];
const SUMMARY_COMMANDS = 10;

export function sideAnswer(kind: SideKind, shape: AnswerShape, context: SideContext): string {
  switch (shape) {
    case 'json-title':
      return JSON.stringify({ title: titleOf(context) });
    case 'json-language-title':
      return JSON.stringify({ language: 'English', title: titleOf(context) });
    case 'json-tags':
      return JSON.stringify({ tags: tagsOf(context) });
    case 'json-follow-ups':
      return JSON.stringify({ follow_ups: [] });
    case 'json-text':
      return JSON.stringify({ text: '' });
    case 'json-queries':
      return JSON.stringify({ queries: [] });
    case 'text':
      if (kind === 'title') return titleOf(context);
      if (kind === 'tags') return tagsOf(context).join(',');
      if (kind === 'summary') return summaryOf(context);
      return '';
  }
}

/** `tmux work:0.0 — git status`: the pane and the first command of the conversation. */
export function titleOf(context: SideContext): string {
  const subject = conversationCommands(context)[0] ?? context.recentTyped.at(-1) ?? null;
  const where = context.paneName === null ? 'tmux' : `tmux ${context.paneName}`;
  return subject === null ? where : `${where} — ${shorten(subject, SUBJECT_CHARS)}`;
}

export function summaryOf(context: SideContext): string {
  const fromConversation = conversationCommands(context);
  const commands = (fromConversation.length > 0 ? fromConversation : [...context.recentTyped].reverse()).slice(-SUMMARY_COMMANDS);
  const place = [context.command, context.cwd === null ? null : `in ${context.cwd}`].filter((part) => part !== null).join(' ');
  const pane = context.paneName === null ? 'A tmux pane' : `tmux pane ${context.paneName}`;
  const head = place === '' ? `${pane}, driven through the corral chat bridge.` : `${pane} (${place}), driven through the corral chat bridge.`;
  if (commands.length === 0) return `${head} No commands were typed yet.`;
  return `${head} Commands typed, oldest first: ${commands.map((command) => `\`${shorten(command, 80)}\``).join('; ')}.`;
}

function tagsOf(context: SideContext): string[] {
  const tags = ['Technology', 'tmux'];
  if (context.command) tags.push(context.command);
  return tags;
}

/**
 * The person's messages in this conversation: user messages that are not side prompts, or,
 * when a UI put the whole history into one prompt, the lines it marks as the user's.
 */
function conversationCommands(context: SideContext): string[] {
  const own = context.messages
    .filter((message) => message.role === 'user' && message.text !== null)
    .map((message) => (message.text as string).trim())
    .filter((text) => text !== '' && !SIDE_PROMPTS.some((prompt) => prompt.pattern.test(text)) && !carriesHistory(text));
  if (own.length > 0) return own.map(firstLine);
  const embedded: string[] = [];
  for (const message of context.messages) {
    for (const pattern of EMBEDDED_USER_LINES) {
      for (const m of (message.text ?? '').matchAll(pattern)) {
        const text = (m[1] ?? '').trim().replace(/^"(.*)"$/, '$1');
        if (text !== '') embedded.push(text);
      }
    }
  }
  return embedded;
}

/** A message that holds a transcript rather than a message of the person's (a UI's summary input). */
function carriesHistory(text: string): boolean {
  return text.includes('<chat_history>') || EMBEDDED_USER_LINES.some((pattern) => new RegExp(pattern.source, pattern.flags.replace('g', '')).test(text));
}

function firstLine(text: string): string {
  const lines = text.split('\n').filter((line) => line.trim() !== '');
  return lines.length > 1 ? `${lines[0]} …` : (lines[0] ?? '');
}

function shorten(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}
