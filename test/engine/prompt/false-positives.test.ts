// The default pack against the seed pack on ordinary output (test/fixtures/logs: npm, cargo, pytest,
// make, git, docker, webpack, server logs, and lines ending in ":", "...", ">", "#", "?", or holding
// an "@"). A prompt found on such a screen is a false positive: a quiet pane would be called stuck.

import { describe, expect, it } from 'vitest';
import { buildRules, classifyScreen } from '../../../src/engine/prompt/matcher.js';
import { allScreenFixtures, logScreens } from '../../helpers/screen-fixtures.js';

const screens = logScreens();

function falsePositives(pack: 'default' | 'seed'): string[] {
  const rules = buildRules({ pack, patterns: [] });
  return screens.filter((s) => classifyScreen(s.lines, rules).prompt).map((s) => `${s.file}: ${s.line}`);
}

describe('false positives on ordinary output', () => {
  it('has a corpus of a few hundred screens', () => {
    expect(screens.length).toBeGreaterThan(300);
  });

  it('the default pack finds no prompt on any of them', () => {
    expect(falsePositives('default')).toEqual([]);
  });

  it('the seed pack finds a prompt on many of them', () => {
    expect(falsePositives('seed').length).toBeGreaterThan(screens.length / 5);
  });

  it('the default pack still finds every prompt of the tool fixtures, and more of them than the seed pack', () => {
    const prompts = allScreenFixtures().filter((f) => f.expect === 'permission' || f.expect === 'stopped');
    const found = (pack: 'default' | 'seed') => {
      const rules = buildRules({ pack, patterns: [] });
      return prompts.filter((f) => classifyScreen(f.lines, rules).prompt).length;
    };
    expect(found('default')).toBe(prompts.length);
    expect(found('seed')).toBeLessThan(prompts.length);
  });
});
