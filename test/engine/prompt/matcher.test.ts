import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/engine/settings/config.js';
import {
  DEFAULT_RULES,
  DEFAULT_RULE_SETS,
  REGION_LINES,
  buildRules,
  classifyScreen,
} from '../../../src/engine/prompt/matcher.js';
import { readRecorded } from '../../../scripts/agents/recorded-fixtures.mjs';
import { allScreenFixtures } from '../../helpers/screen-fixtures.js';

const CLAUDE_IDLE = ['● Done.', '', '─'.repeat(40), '> ', '─'.repeat(40), '  ? for shortcuts'];
/** The input box alone: an agent's reply under a spinner would mean the spinner is left over. */
const CLAUDE_BOX = CLAUDE_IDLE.slice(2);

describe('classifyScreen', () => {
  it('gives no prompt for an empty screen', () => {
    expect(classifyScreen([])).toEqual({
      prompt: false,
      reason: null,
      busy: false,
      tool: null,
      rule: null,
      line: '',
      answer: null,
    });
    expect(classifyScreen(['', '   ', ''])).toMatchObject({ prompt: false, line: '' });
  });

  it('reports the last non-empty line when nothing matches', () => {
    expect(classifyScreen(['make: Entering directory', '   Compiling api v0.3.1   ', '', ''])).toEqual({
      prompt: false,
      reason: null,
      busy: false,
      tool: null,
      rule: null,
      line: 'Compiling api v0.3.1',
      answer: null,
    });
  });

  it('ignores trailing whitespace and blank lines under the prompt', () => {
    expect(classifyScreen(['dev@box:~/src$    ', '', '', ''])).toMatchObject({
      prompt: true,
      reason: 'stopped',
      rule: 'shell/user-host',
      line: 'dev@box:~/src$',
    });
  });

  it('ignores ANSI escapes', () => {
    const screen = ['\u001b[1;32mdev@box\u001b[0m:\u001b[1;34m~/src\u001b[0m$ '];
    expect(classifyScreen(screen)).toMatchObject({ prompt: true, rule: 'shell/user-host', line: 'dev@box:~/src$' });
    expect(classifyScreen(['\u001b[33m✻ Thinking… (3s · esc to interrupt)\u001b[0m', ...CLAUDE_BOX])).toMatchObject({
      busy: true,
      prompt: false,
    });
  });

  it('takes a shell prompt only from the last non-empty line', () => {
    expect(classifyScreen(['dev@box:~$ ls', 'a.txt  b.txt'])).toMatchObject({ prompt: false, busy: false });
    expect(classifyScreen(['dev@box:~$ ls', 'a.txt  b.txt', 'dev@box:~$'])).toMatchObject({
      prompt: true,
      reason: 'stopped',
    });
  });

  it('reads an input box padded with a no-break space: Claude Code by its footer, any agent by the shape', () => {
    const box = ['─'.repeat(40), '❯\u00a0', '─'.repeat(40)];
    expect(classifyScreen([...box, '  ⏸ manual mode on · ? for shortcuts'])).toMatchObject({
      prompt: true,
      reason: 'stopped',
      tool: 'claude-code',
    });
    expect(classifyScreen(box)).toMatchObject({ prompt: true, reason: 'stopped', rule: 'generic/input-box' });
  });

  it('looks only at the bottom region', () => {
    const dialog = ['Do you want to proceed?', '❯ 1. Yes', '  2. No'];
    const output = Array.from({ length: REGION_LINES - dialog.length }, (_, i) => `output line ${i}`);
    expect(classifyScreen([...dialog, ...output])).toMatchObject({ prompt: true, reason: 'permission' });
    expect(classifyScreen([...dialog, ...output, 'one more line'])).toMatchObject({ prompt: false });
  });

  it('lets a busy line veto an agent input box drawn under it', () => {
    const screen = ['● Reading the tests.', '✻ Thinking… (4s · ↑ 210 tokens · esc to interrupt)', '', ...CLAUDE_BOX];
    expect(classifyScreen(screen)).toEqual({
      prompt: false,
      reason: null,
      busy: true,
      tool: 'claude-code',
      rule: 'claude-code/spinner',
      line: '✻ Thinking… (4s · ↑ 210 tokens · esc to interrupt)',
      answer: null,
    });
  });

  it('lets a busy line below a permission question veto it', () => {
    const screen = [
      'Would you like to run the following command?',
      '$ make',
      '› 1. Yes, proceed (y)',
      '',
      '• Working (3s • esc to interrupt)',
    ];
    expect(classifyScreen(screen)).toMatchObject({ prompt: false, busy: true, rule: 'codex/working' });
  });

  it('keeps a permission dialog drawn below a busy line', () => {
    const screen = ['✶ Running… (2m 4s · ↓ 9k tokens)', '', 'Do you want to proceed?', '❯ 1. Yes', '  2. No'];
    expect(classifyScreen(screen)).toMatchObject({
      prompt: true,
      reason: 'permission',
      busy: false,
      rule: 'claude-code/permission-menu',
      line: 'Do you want to proceed?',
    });
  });

  it('keeps a last-line prompt that mentions an interrupt key itself', () => {
    expect(classifyScreen(['Unpacking toolchain', 'Press Enter to continue or Ctrl-C to abort'])).toMatchObject({
      prompt: true,
      rule: 'generic/press-to-continue',
    });
  });

  it('does not read an echoed user message as a busy signal', () => {
    const screen = ['> what does (esc to interrupt) mean?', '', '● It is shown while a turn runs.', '', ...CLAUDE_IDLE];
    expect(classifyScreen(screen)).toMatchObject({ prompt: true, busy: false, rule: 'claude-code/input-box' });
  });

  it('tells a bare ">" of aider from a REPL by the lines around it', () => {
    expect(classifyScreen(['Tokens: 2.1k sent, 90 received.', '>'])).toMatchObject({
      tool: 'aider',
      rule: 'aider/prompt',
    });
    expect(classifyScreen(['Welcome to Node.js v20.11.1.', '>'])).toMatchObject({ tool: 'repl', rule: 'repl/node' });
  });

  it('reads a bare file name as a pager prompt only on an alternate screen', () => {
    const screen = [...Array.from({ length: 20 }, (_, i) => `2026-12-01 INFO request ${i} served`), 'logs/server.log'];
    expect(classifyScreen(screen)).toMatchObject({ prompt: false, busy: false });
    expect(classifyScreen(screen, DEFAULT_RULES, { alternateScreen: false })).toMatchObject({ prompt: false });
    expect(classifyScreen(screen, DEFAULT_RULES, { alternateScreen: true })).toMatchObject({
      prompt: true,
      reason: 'stopped',
      rule: 'generic/pager-file-name',
      answer: { kind: 'key', options: ['q'] },
    });
    // Rules for any screen still hold on an alternate one.
    expect(classifyScreen(['(END)'], DEFAULT_RULES, { alternateScreen: true })).toMatchObject({
      rule: 'generic/pager',
    });
    expect(
      classifyScreen([...screen.slice(0, -1), 'served 20 requests'], DEFAULT_RULES, { alternateScreen: true }),
    ).toMatchObject({ prompt: false });
    // Agents draw on the alternate screen as well: their busy line still vetoes a path-like last line.
    const agent = ['✻ Thinking… (4s · esc to interrupt)', '', 'src/app.ts'];
    expect(classifyScreen(agent, DEFAULT_RULES, { alternateScreen: true })).toMatchObject({
      prompt: false,
      busy: true,
    });
  });

  it('reads "..." as a prompt only under a REPL prompt', () => {
    expect(classifyScreen(['>>> for i in range(3):', '...'])).toMatchObject({
      prompt: true,
      rule: 'repl/python-continuation',
    });
    expect(classifyScreen(['Fetching index', '...'])).toMatchObject({ prompt: false });
  });
});

describe('rule sets', () => {
  const ids = DEFAULT_RULE_SETS.flatMap((set) =>
    set.rules.map((rule) => ({ tool: set.tool, id: rule.id, pattern: rule.pattern })),
  );

  it('name every rule <tool>/<name>, once', () => {
    for (const { tool, id } of ids) expect(id.startsWith(`${tool}/`), id).toBe(true);
    expect(new Set(ids.map((r) => r.id)).size).toBe(ids.length);
  });

  it('use no stateful (global or sticky) regular expressions', () => {
    for (const { id, pattern } of ids) expect(pattern.global || pattern.sticky, id).toBe(false);
  });

  it('each decide at least one fixture screen, hand-written or recorded', () => {
    const decided = new Set([
      ...allScreenFixtures().map((f) => classifyScreen(f.lines).rule),
      ...readRecorded().map((f) => classifyScreen(f.lines, undefined, f.context).rule),
    ]);
    const unused = ids.map((r) => r.id).filter((id) => !decided.has(id));
    expect(unused, 'rules without a fixture that shows them').toEqual([]);
  });
});

describe('buildRules', () => {
  it('returns the default rules for the default pack without patterns', () => {
    expect(buildRules({ pack: 'default', patterns: [] })).toBe(DEFAULT_RULES);
  });

  it('offers the seed pack: ten last-line patterns counted as "stopped"', () => {
    const seed = buildRules({ pack: 'seed', patterns: [] });
    expect(classifyScreen(['Compiling:'], seed)).toMatchObject({
      prompt: true,
      reason: 'stopped',
      tool: 'seed',
      rule: 'seed/colon',
    });
    expect(classifyScreen(['user@host:~$'], seed)).toMatchObject({ prompt: true, rule: 'seed/dollar' });
    expect(classifyScreen(['Compiling:'])).toMatchObject({ prompt: false });
  });

  it('with pack "none" only the user patterns count', () => {
    const none = buildRules({ pack: 'none', patterns: [] });
    expect(classifyScreen(['dev@box:~$'], none)).toMatchObject({ prompt: false, busy: false });
    const mine = buildRules({ pack: 'none', patterns: ['^deploy> ?$'] });
    expect(classifyScreen(['deploy>'], mine)).toMatchObject({
      prompt: true,
      reason: 'stopped',
      tool: 'user',
      rule: 'user/^deploy> ?$',
    });
    expect(classifyScreen(['dev@box:~$'], mine)).toMatchObject({ prompt: false });
  });

  it('adds user patterns to a pack, tried before the built-in rules', () => {
    const rules = buildRules({ pack: 'default', patterns: ['\\$$'] });
    expect(classifyScreen(['dev@box:~$'], rules)).toMatchObject({ tool: 'user', rule: 'user/\\$$' });
    expect(classifyScreen(['mysql>'], rules)).toMatchObject({ tool: 'repl', rule: 'repl/mysql' });
  });

  it('reads a permission: prefix as reason "permission" and busy: as a busy signal', () => {
    const rules = buildRules({
      pack: 'default',
      patterns: ['permission:^Deploy to production\\?', 'busy:\\[deploying\\]'],
    });
    expect(classifyScreen(['Deploy to production?'], rules)).toMatchObject({
      prompt: true,
      reason: 'permission',
      rule: 'user/^Deploy to production\\?',
    });
    expect(classifyScreen(['[deploying] step 3/5', 'dev@box:~$ '], rules)).toMatchObject({
      prompt: true,
      rule: 'shell/user-host',
    });
    expect(classifyScreen(['[deploying] step 3/5', '─'.repeat(20), '>', '─'.repeat(20)], rules)).toMatchObject({
      busy: true,
      tool: 'user',
      rule: 'user/\\[deploying\\]',
    });
  });

  it('rejects an invalid pattern with a ConfigError naming it', () => {
    expect(() => buildRules({ pack: 'default', patterns: ['ok$', '('] })).toThrow(ConfigError);
    expect(() => buildRules({ pack: 'default', patterns: ['('] })).toThrow(
      'invalid --prompt-pattern "(": Unterminated group',
    );
    expect(() => buildRules({ pack: 'seed', patterns: ['permission:[a-'] })).toThrow(
      /^invalid --prompt-pattern "permission:\[a-": /,
    );
  });

  it('rejects an empty pattern, which would match every screen', () => {
    expect(() => buildRules({ pack: 'default', patterns: [''] })).toThrow(/empty/);
    expect(() => buildRules({ pack: 'default', patterns: ['permission:'] })).toThrow(ConfigError);
  });
});
