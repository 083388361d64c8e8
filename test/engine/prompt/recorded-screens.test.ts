// Every screen recorded from a real program (test/fixtures/recorded/, written by
// `npm run record:agents`) must get the verdict its label names, decided by the program's own rule
// set or a general one (never another agent's). A screen that cannot be told from another state
// is listed in test/fixtures/recorded/exceptions.json with its reason and the verdict it gets; the
// test holds it to that verdict, so nothing is skipped in silence.

import { describe, expect, it } from 'vitest';
import { kindOf, readExceptions, readRecorded } from '../../../scripts/agents/accuracy.mjs';
import { DEFAULT_RULE_SETS, classifyScreen } from '../../../src/engine/prompt/matcher.js';

const fixtures = readRecorded();
const exceptions = readExceptions();
const exceptionFor = new Map(exceptions.map((e) => [e.file, e]));

/** Rule sets about no one program: any screen may be decided by them. */
const GENERAL = new Set(['generic', 'shell', 'repl']);
/** Agents that are forks of another and draw its screens: its rule set speaks for them too. */
const FORK_OF: Readonly<Record<string, string>> = { kilo: 'opencode', 'qwen-code': 'gemini-cli' };
const ruleSetNames = new Set(DEFAULT_RULE_SETS.map((s) => s.tool));

describe('recorded screens', () => {
  it('are there: every agent that runs offline at every size, and the everyday programs', () => {
    const tools = new Set(fixtures.map((f) => f.tool));
    for (const tool of ['claude-code', 'codex', 'gemini-cli', 'opencode', 'qwen-code', 'kilo', 'pi', 'programs'])
      expect(tools.has(tool), tool).toBe(true);
    for (const tool of ['claude-code', 'codex', 'gemini-cli', 'opencode', 'qwen-code', 'kilo', 'pi']) {
      const sizes = new Set(fixtures.filter((f) => f.tool === tool).map((f) => f.size));
      expect([...sizes].sort(), tool).toEqual(['100x30', '120x40', '160x48', '60x20', '80x24']);
      // The screens added for drafts, menus and long answers, at every size.
      for (const size of sizes) {
        const states = new Set(fixtures.filter((f) => f.tool === tool && f.size === size).map((f) => f.state));
        for (const state of ['draft', 'long-answer']) expect(states.has(state), `${tool} ${size} ${state}`).toBe(true);
        expect([...states].some((x) => x.startsWith('menu-')), `${tool} ${size}: a menu`).toBe(true);
      }
    }
    expect(fixtures.length).toBeGreaterThan(100);
  });

  for (const fixture of fixtures) {
    const exception = exceptionFor.get(fixture.file);
    it(`${fixture.file}${exception ? ' (documented exception)' : ''}`, () => {
      const verdict = classifyScreen(fixture.lines, undefined, fixture.context);
      if (exception) {
        expect(kindOf(verdict), `${fixture.file}: ${JSON.stringify(verdict)}`).toBe(exception.verdict);
        return;
      }
      expect(kindOf(verdict), `${fixture.file}: ${JSON.stringify(verdict)}`).toBe(fixture.label);
      if (verdict.tool !== null && fixture.label !== 'none') {
        const own = [fixture.tool, FORK_OF[fixture.tool] ?? ''].filter((tool) => ruleSetNames.has(tool));
        expect([...own, ...GENERAL], `${fixture.file}: decided by ${verdict.rule}`).toContain(verdict.tool);
      }
    });
  }

  it('list each documented exception once, for a fixture that exists, with a reason, against its label', () => {
    const files = new Set(fixtures.map((f) => f.file));
    expect(new Set(exceptions.map((e) => e.file)).size).toBe(exceptions.length);
    for (const e of exceptions) {
      expect(files.has(e.file), `exception for a missing fixture: ${e.file}`).toBe(true);
      expect(e.reason.length, e.file).toBeGreaterThan(20);
      const label = fixtures.find((f) => f.file === e.file)?.label;
      expect(e.verdict, `${e.file}: an exception must differ from its label`).not.toBe(label);
    }
  });

  it("read an agent's own menus as stopped, saying menu, and a typed draft as stopped", () => {
    const menus = fixtures.filter((f) => f.state.startsWith('menu-'));
    const drafts = fixtures.filter((f) => f.state === 'draft');
    expect(menus.length).toBeGreaterThan(0);
    expect(drafts.length).toBeGreaterThan(0);
    for (const f of [...menus, ...drafts]) expect(f.label, f.file).toBe('stopped');
    for (const f of menus.filter((x) => !exceptionFor.has(x.file))) {
      expect(classifyScreen(f.lines, undefined, f.context).menu, `${f.file}: ${JSON.stringify(classifyScreen(f.lines, undefined, f.context))}`).toBe(true);
    }
    // Nothing else is a menu: dialogs that ask for an approval or an answer stay permission.
    for (const f of fixtures.filter((x) => !x.state.startsWith('menu-'))) {
      expect(classifyScreen(f.lines, undefined, f.context).menu, f.file).toBeUndefined();
    }
  });

  it('offer the numbers of a numbered menu as quick answers, and no quick answer for a key to type in', () => {
    // A menu near the bottom (a wide pane can keep a dialog from before near its top).
    const bottomLines = (lines: readonly string[]) => lines.filter((l) => l.trim() !== '').slice(-15);
    for (const f of fixtures.filter(
      (x) => x.label === 'permission' && bottomLines(x.lines).some((l) => /^[\s│┃]*[❯›●]\s*1\.\s/.test(l)),
    )) {
      const answer = classifyScreen(f.lines, undefined, f.context).answer;
      expect(answer?.kind, f.file).toBe('key');
      expect(answer?.options.slice(0, 2), f.file).toEqual(['1', '2']);
    }
    const apiKey = fixtures.filter((f) => f.state === 'first-run-api-key');
    expect(apiKey.length).toBeGreaterThan(0);
    for (const f of apiKey)
      expect(classifyScreen(f.lines, undefined, f.context).answer, f.file).toEqual({ kind: 'secret', options: [] });
  });

  it('are at least 97% right, with no false stuck outside the documented exceptions', () => {
    const wrong = fixtures.filter((f) => kindOf(classifyScreen(f.lines, undefined, f.context)) !== f.label);
    expect(wrong.length / fixtures.length).toBeLessThanOrEqual(0.03);
    const falseStuck = wrong.filter(
      (f) => (f.label === 'busy' || f.label === 'none') && classifyScreen(f.lines, undefined, f.context).prompt,
    );
    expect(falseStuck.map((f) => f.file).filter((file) => !exceptionFor.has(file))).toEqual([]);
  });
});
