import { describe, expect, it } from 'vitest';
import { ConfigError, resolveSettings } from '../../src/engine/settings/config.js';

const base = { flags: {}, env: {}, file: null };

describe('settings resolution', () => {
  it('has the documented defaults', () => {
    const s = resolveSettings(base);
    expect(s).toMatchObject({ quietThresholdMs: 3_000, askThresholdMs: 1_000, pollIntervalMs: 2_000, prefix: '@tb-', optIn: false, promptPack: 'default', daemonUrl: null });
  });

  it('applies flags over env over file over defaults', () => {
    const file = { quietThresholdMs: 10_000, pollIntervalMs: 900, prefix: '@f-' };
    const env = { CORRAL_QUIET_THRESHOLD_MS: '20000', CORRAL_POLL_INTERVAL_MS: '700' };
    const s = resolveSettings({ flags: { quietThresholdMs: '5000' }, env, file });
    expect(s.quietThresholdMs).toBe(5_000);
    expect(s.pollIntervalMs).toBe(700);
    expect(s.prefix).toBe('@f-');
  });

  it("accepts the seed's TRAILBOSS_QUIET_THRESHOLD_MS, below corral's own variable", () => {
    expect(resolveSettings({ ...base, env: { TRAILBOSS_QUIET_THRESHOLD_MS: '12000' } }).quietThresholdMs).toBe(12_000);
    expect(resolveSettings({ ...base, env: { TRAILBOSS_QUIET_THRESHOLD_MS: '12000', CORRAL_QUIET_THRESHOLD_MS: '8000' } }).quietThresholdMs).toBe(8_000);
  });

  it('collects prompt patterns from file, env (one per line) and repeated flags', () => {
    const s = resolveSettings({
      flags: { promptPatterns: ['flag1', 'flag2'] },
      env: { CORRAL_PROMPT_PATTERNS: 'env1\n\nenv2\n' },
      file: { promptPatterns: ['file1'] },
    });
    expect(s.promptPatterns).toEqual(['env1', 'env2', 'flag1', 'flag2']);
  });

  it.each([
    [{ file: { nope: 1 } }, /unknown key "nope"/],
    [{ file: { quietThresholdMs: 'soon' } }, /expected a whole number/],
    [{ file: [] }, /expected a JSON object/],
    [{ env: { CORRAL_POLL_INTERVAL_MS: '10' } }, /at least 50/],
    [{ env: { CORRAL_OPT_IN: 'maybe' } }, /true or false/],
    [{ flags: { quietThresholdMs: '-5' } }, /--quiet-threshold: expected a whole number/],
    [{ flags: { promptPack: 'fancy' } }, /must be one of default, seed, none/],
    [{ flags: { socketName: 'a', socketPath: '/b' } }, /either -L/],
  ])('rejects bad input clearly: %j', (sources, message) => {
    expect(() => resolveSettings({ ...base, ...sources })).toThrow(ConfigError);
    expect(() => resolveSettings({ ...base, ...sources })).toThrow(message);
  });
});
