// The recorder's manifest and profiles agree with each other and with the rule sets: every agent
// it records is pinned, and is judged by a rule set of its own name, its parent's (a fork), or, for
// the agents listed here, by the general rules alone.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { AGENTS } from '../../scripts/agents/agents.mjs';
import { DEFAULT_RULE_SETS } from '../../src/engine/prompt/matcher.js';

const manifest = JSON.parse(readFileSync(new URL('../../scripts/agents/manifest.json', import.meta.url), 'utf8')) as {
  agents: Record<string, string>;
  sizes: string[];
  filmSize: string;
};

/** Agents without rules of their own: the rule set that judges them. */
const JUDGED_BY: Readonly<Record<string, string>> = {
  kilo: 'opencode',
  cline: 'generic',
  amp: 'generic',
  droid: 'generic',
  continue: 'generic',
  auggie: 'generic',
};

describe('agent recorder manifest', () => {
  it('pins an exact version of every agent it records, and records nothing unpinned', () => {
    expect(Object.keys(manifest.agents).sort()).toEqual(AGENTS.map((a) => a.package).sort());
    // Exact versions only (Amp publishes builds as 0.0.<timestamp>-g<commit>).
    for (const version of Object.values(manifest.agents)) expect(version).toMatch(/^\d+\.\d+\.\d+(?:-[0-9A-Za-z.]+)?$/);
  });

  it('pins the releases the rules were written for', () => {
    expect(manifest.agents['@anthropic-ai/claude-code']).toMatch(/^2\.1\./);
    expect(manifest.agents['@openai/codex']).toMatch(/^0\.17\d\./);
    expect(manifest.agents['@google/gemini-cli']).toMatch(/^0\.61\./);
    expect(manifest.agents['opencode-ai']).toMatch(/^1\.18\./);
    expect(manifest.agents['@qwen-code/qwen-code']).toMatch(/^0\.24\./);
    // Every width people run agents at, narrow to wide; films at one of them.
    expect(manifest.sizes).toEqual(['120x40', '80x24', '60x20', '100x30', '160x48']);
    expect(manifest.sizes).toContain(manifest.filmSize);
  });

  it('names each agent after a rule set', () => {
    const sets = new Set(DEFAULT_RULE_SETS.map((s) => s.tool));
    for (const agent of AGENTS) expect(sets.has(JUDGED_BY[agent.tool] ?? agent.tool), agent.tool).toBe(true);
    // An agent with rules of its own is not listed as judged by others.
    for (const tool of Object.keys(JUDGED_BY)) expect(sets.has(tool), tool).toBe(false);
  });
});
