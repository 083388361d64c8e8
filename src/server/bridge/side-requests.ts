// Requests that chat UIs send on their own, besides the person's messages: a conversation title,
// a summary for their memory, tags, follow-up suggestions, autocompletion. Typed into a shell
// they would run as commands, so the bridge recognises them and answers itself.
//
// The prompts are data: one entry per UI and request, matched against the message that carries
// the UI's default prompt, each with a fixture in test/fixtures/side-requests/. `source` says
// where the prompt text was read.

export type SideKind = 'title' | 'summary' | 'tags' | 'follow-ups' | 'autocomplete' | 'queries';

/** How the UI reads the answer: plain text, or a JSON object with one field. */
export type AnswerShape = 'text' | 'json-title' | 'json-language-title' | 'json-tags' | 'json-follow-ups' | 'json-text' | 'json-queries';

export interface SidePrompt {
  readonly id: string;
  readonly ui: string;
  readonly kind: SideKind;
  /** The role of the message carrying the prompt. */
  readonly role: 'user' | 'system' | 'any';
  /** Where that message is: the last of the request, or anywhere in it. */
  readonly at: 'last' | 'any';
  readonly pattern: RegExp;
  readonly shape: AnswerShape;
  readonly source: string;
}

export const SIDE_PROMPTS: readonly SidePrompt[] = [
  // LibreChat: titles come from @librechat/agents (titleMethod "completion", the default for
  // custom endpoints, or "structured"); older releases used the OpenAIClient title prompt.
  {
    id: 'librechat/title-completion',
    ui: 'LibreChat',
    kind: 'title',
    role: 'user',
    at: 'any',
    pattern: /^Provide a concise, 5-word-or-less title for the conversation, using title case conventions\. Only return the title itself\./,
    shape: 'text',
    source: 'danny-avila/agents src/utils/title.ts (defaultCompletionPrompt)',
  },
  {
    id: 'librechat/title-structured',
    ui: 'LibreChat',
    kind: 'title',
    role: 'user',
    at: 'any',
    pattern: /^Analyze this conversation and provide:\n1\. The detected language of the conversation\n2\. A concise title in the detected language/,
    shape: 'json-language-title',
    source: 'danny-avila/agents src/utils/title.ts (defaultTitlePrompt)',
  },
  {
    id: 'librechat/title-legacy',
    ui: 'LibreChat',
    kind: 'title',
    // A system message by default, a user message with titleMessageRole or Ollama.
    role: 'any',
    at: 'any',
    pattern: /^Please generate a concise, 5-word-or-less title for the conversation, using its same language, with no punctuation/,
    shape: 'text',
    source: 'danny-avila/LibreChat api/app/clients/prompts/titlePrompts.js (titleInstruction)',
  },
  // NextChat: the title is the history plus a final user message; the memory summary is the
  // history plus a final system message. English and Chinese locales.
  {
    id: 'nextchat/title',
    ui: 'NextChat',
    kind: 'title',
    role: 'user',
    at: 'last',
    pattern: /^Please generate a four to five word title summarizing our conversation without any lead-in/,
    shape: 'text',
    source: 'ChatGPTNextWeb/NextChat app/locales/en.ts (Store.Prompt.Topic), sent by app/store/chat.ts summarizeSession',
  },
  {
    id: 'nextchat/title-cn',
    ui: 'NextChat',
    kind: 'title',
    role: 'user',
    at: 'last',
    pattern: /^使用四到五个字直接返回这句话的简要主题/,
    shape: 'text',
    source: 'ChatGPTNextWeb/NextChat app/locales/cn.ts (Store.Prompt.Topic)',
  },
  {
    id: 'nextchat/summary',
    ui: 'NextChat',
    kind: 'summary',
    role: 'system',
    at: 'last',
    pattern: /^Summarize the discussion briefly in 200 words or less to use as a prompt for future context\./,
    shape: 'text',
    source: 'ChatGPTNextWeb/NextChat app/locales/en.ts (Store.Prompt.Summarize), sent by app/store/chat.ts summarizeSession',
  },
  {
    id: 'nextchat/summary-cn',
    ui: 'NextChat',
    kind: 'summary',
    role: 'system',
    at: 'last',
    pattern: /^简要总结一下对话内容，用作后续的上下文提示 prompt/,
    shape: 'text',
    source: 'ChatGPTNextWeb/NextChat app/locales/cn.ts (Store.Prompt.Summarize)',
  },
  // Open WebUI: task prompts are one user message with the history inside <chat_history>.
  {
    id: 'open-webui/title',
    ui: 'Open WebUI',
    kind: 'title',
    role: 'user',
    at: 'last',
    pattern: /^### Task:\nGenerate a concise,? (?:3-5 word )?title[\s\S]*<chat_history>/,
    shape: 'json-title',
    source: 'open-webui/open-webui backend/open_webui/config.py (DEFAULT_TITLE_GENERATION_PROMPT_TEMPLATE)',
  },
  {
    id: 'open-webui/tags',
    ui: 'Open WebUI',
    kind: 'tags',
    role: 'user',
    at: 'last',
    pattern: /^### Task:\nGenerate 1-3 broad tags categorizing the main themes of the chat history[\s\S]*<chat_history>/,
    shape: 'json-tags',
    source: 'open-webui/open-webui backend/open_webui/config.py (DEFAULT_TAGS_GENERATION_PROMPT_TEMPLATE)',
  },
  {
    id: 'open-webui/follow-ups',
    ui: 'Open WebUI',
    kind: 'follow-ups',
    role: 'user',
    at: 'last',
    pattern: /^### Task:\nSuggest 3-5 relevant follow-up questions or prompts[\s\S]*<chat_history>/,
    shape: 'json-follow-ups',
    source: 'open-webui/open-webui backend/open_webui/config.py (DEFAULT_FOLLOW_UP_GENERATION_PROMPT_TEMPLATE)',
  },
  {
    id: 'open-webui/autocomplete',
    ui: 'Open WebUI',
    kind: 'autocomplete',
    role: 'user',
    at: 'last',
    pattern: /^### Task:\nYou are an autocompletion system\.[\s\S]*<text>/,
    shape: 'json-text',
    source: 'open-webui/open-webui backend/open_webui/config.py (DEFAULT_AUTOCOMPLETE_GENERATION_PROMPT_TEMPLATE)',
  },
  {
    id: 'open-webui/queries',
    ui: 'Open WebUI',
    kind: 'queries',
    role: 'user',
    at: 'last',
    pattern: /^### Task:\nAnalyze the chat history to determine the necessity of generating search queries/,
    shape: 'json-queries',
    source: 'open-webui/open-webui backend/open_webui/config.py (DEFAULT_QUERY_GENERATION_PROMPT_TEMPLATE)',
  },
  // LobeChat: a system message with the instruction, the history as one user message after it.
  {
    id: 'lobechat/title',
    ui: 'LobeChat',
    kind: 'title',
    role: 'system',
    at: 'any',
    pattern: /^You are a professional conversation summarizer\. Generate a concise title that captures the essence of the conversation\./,
    shape: 'text',
    source: 'lobehub/lobe-chat packages/prompts/src/chains/summaryTitle.ts (chainSummaryTitle)',
  },
  {
    id: 'lobechat/title-zh',
    ui: 'LobeChat',
    kind: 'title',
    role: 'system',
    at: 'any',
    pattern: /^你是一名擅长会话的助理，你需要将用户的会话总结为 ?10 ?个字以内的标题/,
    shape: 'text',
    source: 'lobehub/lobe-chat src/chains/summaryTitle.ts (earlier releases)',
  },
  {
    id: 'lobechat/summary',
    ui: 'LobeChat',
    kind: 'summary',
    role: 'system',
    at: 'any',
    pattern: /^You're an assistant who's good at extracting key takeaways from conversations and summarizing them\./,
    shape: 'text',
    source: 'lobehub/lobe-chat packages/prompts/src/chains/summaryHistory.ts (chainSummaryHistory)',
  },
  // Chatbox: the conversation name and the compaction summary, each one user message.
  {
    id: 'chatbox/title',
    ui: 'Chatbox',
    kind: 'title',
    role: 'user',
    at: 'last',
    pattern: /^Based on the chat history, give this conversation a name\./,
    shape: 'text',
    source: 'chatboxai/chatbox src/renderer/packages/prompts.ts (nameConversation)',
  },
  {
    id: 'chatbox/title-legacy',
    ui: 'Chatbox',
    kind: 'title',
    role: 'user',
    at: 'last',
    pattern: /^Name the conversation based on the chat records\./,
    shape: 'text',
    source: 'Bin-Huang/chatbox src/renderer/packages/prompts.ts (nameConversation, earlier releases)',
  },
  {
    id: 'chatbox/summary',
    ui: 'Chatbox',
    kind: 'summary',
    role: 'user',
    at: 'last',
    pattern: /^Provide a detailed summary for continuing this conversation\./,
    shape: 'text',
    source: 'chatboxai/chatbox src/renderer/packages/prompts.ts (summarizeConversation)',
  },
];

export interface ChatMessage {
  readonly role: string;
  /** The message's text (string content, or its text parts joined); null when it has none. */
  readonly text: string | null;
}

/** The side request a conversation is, or null when it is none of the known ones. */
export function recogniseSideRequest(messages: readonly ChatMessage[], prompts: readonly SidePrompt[] = SIDE_PROMPTS): SidePrompt | null {
  const lastIndex = messages.length - 1;
  for (const prompt of prompts) {
    for (let i = lastIndex; i >= 0; i--) {
      if (prompt.at === 'last' && i !== lastIndex) break;
      const message = messages[i] as ChatMessage;
      if ((prompt.role !== 'any' && message.role !== prompt.role) || message.text === null) continue;
      if (prompt.pattern.test(message.text.trimStart())) return prompt;
    }
  }
  return null;
}

/** For the side model, which answers anything: a best guess from words in the last message. */
export function guessSideKind(messages: readonly ChatMessage[]): { kind: SideKind; shape: AnswerShape } {
  const text = messages.at(-1)?.text ?? '';
  const json = /\bJSON\b/.test(text);
  if (/\btags?\b/i.test(text)) return { kind: 'tags', shape: json ? 'json-tags' : 'text' };
  if (/follow[- ]?ups?\b/i.test(text)) return { kind: 'follow-ups', shape: json ? 'json-follow-ups' : 'text' };
  if (/\b(title|name)\b|标题|主题/i.test(text)) return { kind: 'title', shape: json ? 'json-title' : 'text' };
  return { kind: 'summary', shape: 'text' };
}
