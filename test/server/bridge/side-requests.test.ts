import { describe, expect, it } from 'vitest';
import { SIDE_PROMPTS, guessSideKind, recogniseSideRequest, type ChatMessage } from '../../../src/server/bridge/side-requests.js';
import { sideAnswer, summaryOf, titleOf, type SideContext } from '../../../src/server/bridge/side-answers.js';
import { sideRequestFixtures } from '../../helpers/side-request-fixtures.js';

const fixtures = sideRequestFixtures();
const messagesOf = (fixture: (typeof fixtures)[number]): ChatMessage[] => fixture.request.messages.map((m) => ({ role: m.role, text: m.content }));

describe('side request prompts', () => {
  it('has exactly one fixture per prompt, and no fixture without a prompt', () => {
    expect(fixtures.map((f) => f.id).sort()).toEqual(SIDE_PROMPTS.map((p) => p.id).sort());
  });

  it.each(fixtures.map((f) => [f.id, f] as const))('recognises %s from its fixture', (id, fixture) => {
    expect(recogniseSideRequest(messagesOf(fixture))?.id).toBe(id);
  });

  it('covers titles of all five UIs, and their summaries, tags and follow-ups', () => {
    const by = (ui: string) => new Set(SIDE_PROMPTS.filter((p) => p.ui === ui).map((p) => p.kind));
    for (const ui of ['LibreChat', 'NextChat', 'Open WebUI', 'LobeChat', 'Chatbox']) expect(by(ui).has('title')).toBe(true);
    expect(by('NextChat').has('summary')).toBe(true);
    expect(by('Open WebUI')).toEqual(new Set(['title', 'tags', 'follow-ups', 'autocomplete', 'queries']));
  });

  it('leaves ordinary messages alone, and a title prompt that is not the last message of a UI that sends it last', () => {
    const plain = (text: string): ChatMessage[] => [{ role: 'user', text }];
    for (const text of ['git status', 'rename the title field in the form', 'summarize the logs in build/ please', '### Task: fix the build', 'grep -r "title" .']) {
      expect(recogniseSideRequest(plain(text))).toBeNull();
    }
    const nextTitle = fixtures.find((f) => f.id === 'nextchat/title')!;
    const moved = [...messagesOf(nextTitle), { role: 'assistant', text: 'Echo Hello' }, { role: 'user', text: 'ls' }];
    expect(recogniseSideRequest(moved)).toBeNull();
  });

  it('guesses the kind of an unknown request for the side model', () => {
    expect(guessSideKind([{ role: 'user', text: 'Give this chat a title' }])).toEqual({ kind: 'title', shape: 'text' });
    expect(guessSideKind([{ role: 'user', text: 'Reply in JSON with tags' }])).toEqual({ kind: 'tags', shape: 'json-tags' });
    expect(guessSideKind([{ role: 'system', text: 'Condense the history' }])).toEqual({ kind: 'summary', shape: 'text' });
  });
});

describe('side answers', () => {
  const context = (messages: ChatMessage[], more: Partial<SideContext> = {}): SideContext => ({
    paneName: 'work:0.0',
    command: 'bash',
    cwd: '/home/me/app',
    recentTyped: [],
    messages,
    ...more,
  });

  it('titles a conversation with the pane and its first command', () => {
    const messages: ChatMessage[] = [
      { role: 'user', text: 'git status' },
      { role: 'assistant', text: '```\nclean\n```' },
      { role: 'user', text: 'Please generate a four to five word title summarizing our conversation without any lead-in, punctuation' },
    ];
    expect(titleOf(context(messages))).toBe('tmux work:0.0 — git status');
    expect(titleOf(context([{ role: 'user', text: 'x'.repeat(60) }]))).toBe(`tmux work:0.0 — ${'x'.repeat(39)}…`);
    expect(titleOf(context([], { paneName: null }))).toBe('tmux');
  });

  it('finds the command inside a history that a UI put into one prompt, else uses what was typed', () => {
    for (const fixture of fixtures.filter((f) => !f.id.startsWith('chatbox/title'))) {
      expect(titleOf(context(messagesOf(fixture)))).toBe('tmux work:0.0 — echo hello');
    }
    const chatbox = fixtures.find((f) => f.id === 'chatbox/title')!;
    expect(titleOf(context(messagesOf(chatbox), { recentTyped: ['echo hello'] }))).toBe('tmux work:0.0 — echo hello');
  });

  it('summarises the commands of the conversation', () => {
    const messages: ChatMessage[] = [
      { role: 'user', text: 'git status' },
      { role: 'assistant', text: 'clean' },
      { role: 'user', text: 'npm test' },
      { role: 'system', text: 'Summarize the discussion briefly in 200 words or less to use as a prompt for future context.' },
    ];
    expect(summaryOf(context(messages))).toBe(
      'tmux pane work:0.0 (bash in /home/me/app), driven through the corral chat bridge. Commands typed, oldest first: `git status`; `npm test`.',
    );
    expect(summaryOf(context([], { recentTyped: ['b', 'a'] }))).toMatch(/Commands typed, oldest first: `a`; `b`\.$/);
  });

  it('answers in the shape each UI parses', () => {
    const messages: ChatMessage[] = [{ role: 'user', text: 'ls' }];
    expect(JSON.parse(sideAnswer('title', 'json-title', context(messages)))).toEqual({ title: 'tmux work:0.0 — ls' });
    expect(JSON.parse(sideAnswer('title', 'json-language-title', context(messages)))).toEqual({ language: 'English', title: 'tmux work:0.0 — ls' });
    expect(JSON.parse(sideAnswer('tags', 'json-tags', context(messages)))).toEqual({ tags: ['Technology', 'tmux', 'bash'] });
    expect(JSON.parse(sideAnswer('follow-ups', 'json-follow-ups', context(messages)))).toEqual({ follow_ups: [] });
    expect(JSON.parse(sideAnswer('autocomplete', 'json-text', context(messages)))).toEqual({ text: '' });
    expect(JSON.parse(sideAnswer('queries', 'json-queries', context(messages)))).toEqual({ queries: [] });
  });
});
