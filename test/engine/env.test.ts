// An empty environment variable means the same as an unset one, for every setting and for the
// variables read outside the settings table.

import { describe, expect, it } from 'vitest';
import { SETTINGS, resolveSettings, type SettingSpec } from '../../src/engine/settings/config.js';
import { envValue } from '../../src/engine/settings/env.js';
import { tmuxBinary } from '../../src/engine/tmux/runner.js';
import { namedSocketPath } from '../../src/engine/tmux/socket.js';
import { findToken } from '../../src/cli/token.js';
import { defaultConfigPath } from '../../src/cli/config-file.js';

const specs = SETTINGS as readonly SettingSpec[];

describe('empty environment variables', () => {
  it('envValue gives undefined for unset and empty, the value otherwise (spaces are a value)', () => {
    expect(envValue({}, 'X')).toBeUndefined();
    expect(envValue({ X: '' }, 'X')).toBeUndefined();
    expect(envValue({ X: 'a' }, 'X')).toBe('a');
    expect(envValue({ X: ' ' }, 'X')).toBe(' ');
  });

  it('leave every setting at its default', () => {
    const names = specs.flatMap((s) => s.env ?? []);
    expect(names.length).toBeGreaterThan(30);
    const empty = Object.fromEntries(names.map((n) => [n, '']));
    expect(resolveSettings({ flags: {}, env: empty, file: null })).toEqual(resolveSettings({ flags: {}, env: {}, file: null }));
  });

  it('leave the config file value in place, variable by variable', () => {
    for (const spec of specs) {
      for (const name of spec.env ?? []) {
        const fileValue =
          spec.type === 'boolean' ? !spec.default : spec.type === 'int' ? (spec.max ?? (spec.min ?? 0) + 1) : spec.type === 'string-list' ? ['x'] : (spec.choices?.at(-1) ?? 'x');
        const settings = resolveSettings({ flags: {}, env: { [name]: '' }, file: { [spec.key]: fileValue } });
        // A host entry comes back parsed; every other value as it was.
        const expected = spec.key === 'hosts' ? [{ name: 'x', ssh: 'x', socket: { kind: 'default' } }] : fileValue;
        expect((settings as unknown as Record<string, unknown>)[spec.key], name).toEqual(expected);
      }
    }
  });

  it('CORRAL_TMUX_BIN= runs tmux from PATH', () => {
    expect(tmuxBinary({ CORRAL_TMUX_BIN: '' })).toBe('tmux');
    expect(tmuxBinary({})).toBe('tmux');
    expect(tmuxBinary({ CORRAL_TMUX_BIN: '/opt/tmux-3.5/bin/tmux' })).toBe('/opt/tmux-3.5/bin/tmux');
  });

  it('CORRAL_TOKEN=, XDG_CONFIG_HOME= and TMUX_TMPDIR= fall back as if unset', () => {
    expect(findToken({ env: { CORRAL_TOKEN: '' }, configDir: '/nonexistent/corral' })).toBeNull();
    expect(defaultConfigPath({ XDG_CONFIG_HOME: '' })).toBe(defaultConfigPath({}));
    expect(namedSocketPath('x', { TMUX_TMPDIR: '' }, 1000)).toBe(namedSocketPath('x', {}, 1000));
  });
});
