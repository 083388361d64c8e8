import { describe, expect, it } from 'vitest';
import { SETTINGS, resolveSettings } from '../../src/engine/settings/config.js';
import { settingsSlices } from '../../src/cli/settings-slices.js';

describe('settings slices', () => {
  const settings = resolveSettings({ flags: { listen: '10.0.0.1', hosts: ['me@box'], bell: 'both' }, env: {}, file: null });
  const slices = settingsSlices(settings);

  it('hands each part only its own keys, with the resolved values', () => {
    expect(slices.server).toEqual({ listen: '10.0.0.1', port: 7878, hooks: true, answerUrl: null });
    expect(slices.dashboard).toEqual({ bell: 'both', hooks: true });
    expect(slices.hosts).toEqual({ socketName: null, socketPath: null, hosts: [{ name: 'box', ssh: 'me@box', socket: { kind: 'default' } }] });
    expect(Object.keys(slices.engine).sort()).toEqual(['askThresholdMs', 'hookGraceMs', 'hookPermissionTtlMs', 'optIn', 'pollIntervalMs', 'prefix', 'previewLines', 'quietThresholdMs', 'waiting']);
  });

  it('names only settings that exist', () => {
    const known = new Set(SETTINGS.map((s) => s.key as string));
    for (const [name, slice] of Object.entries(slices)) {
      for (const key of Object.keys(slice)) expect(known.has(key), `${name}.${key}`).toBe(true);
    }
  });
});
