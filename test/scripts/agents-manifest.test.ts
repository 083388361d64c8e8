// The recorder's manifest and profiles agree with each other and with the rule sets: every agent
// it records is pinned, and is judged by a rule set of its own name.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { AGENTS } from '../../scripts/agents/agents.mjs';
import { DEFAULT_RULE_SETS } from '../../src/engine/prompt/matcher.js';

const manifest = JSON.parse(readFileSync(new URL('../../scripts/agents/manifest.json', import.meta.url), 'utf8')) as {
  agents: Record<string, string>;
  sizes: string[];
};

describe('agent recorder manifest', () => {
  it('pins an exact version of every agent it records, and records nothing unpinned', () => {
    expect(Object.keys(manifest.agents).sort()).toEqual(AGENTS.map((a) => a.package).sort());
    for (const version of Object.values(manifest.agents)) expect(version).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it('pins the releases the rules were written for', () => {
    expect(manifest.agents['@anthropic-ai/claude-code']).toMatch(/^2\.1\./);
    expect(manifest.agents['@openai/codex']).toMatch(/^0\.17\d\./);
    expect(manifest.agents['@google/gemini-cli']).toMatch(/^0\.61\./);
    expect(manifest.agents['opencode-ai']).toMatch(/^1\.18\./);
    expect(manifest.agents['@qwen-code/qwen-code']).toMatch(/^0\.24\./);
    expect(manifest.sizes).toEqual(['120x40', '80x24']);
  });

  it('names each agent after a rule set', () => {
    const sets = new Set(DEFAULT_RULE_SETS.map((s) => s.tool));
    for (const agent of AGENTS) expect(sets.has(agent.tool), agent.tool).toBe(true);
  });
});
