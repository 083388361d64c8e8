// Which tmux server corral watches, and how the header names it: -S, -L, or the server of the
// pane corral runs in ($TMUX), as tmux itself would pick.

import { describe, expect, it } from 'vitest';
import { socketFromSettings } from '../../src/cli/setup.js';
import { resolveSettings } from '../../src/engine/settings/config.js';
import { describeSocket } from '../../src/engine/tmux/socket.js';

const DEFAULT_SETTINGS = resolveSettings({ flags: {}, env: {}, file: null });
const env = { TMUX_TMPDIR: '/run/t' } as NodeJS.ProcessEnv;
const uid = process.getuid?.() ?? 0;
const at = (path: string) => ({ ...env, TMUX: `${path},4242,0` });

describe('socketFromSettings', () => {
  it('names the server of the pane corral runs in when neither -L nor -S is given', () => {
    expect(describeSocket(socketFromSettings(DEFAULT_SETTINGS, at(`/run/t/tmux-${uid}/work`)))).toBe('-L work');
    expect(describeSocket(socketFromSettings(DEFAULT_SETTINGS, at(`/run/t/tmux-${uid}/default`)))).toBe(
      'default server',
    );
    expect(describeSocket(socketFromSettings(DEFAULT_SETTINGS, at('/srv/shared.sock')))).toBe('-S /srv/shared.sock');
    expect(describeSocket(socketFromSettings(DEFAULT_SETTINGS, env))).toBe('default server');
  });

  it('lets -L and -S win over $TMUX', () => {
    const inside = at(`/run/t/tmux-${uid}/work`);
    expect(socketFromSettings({ ...DEFAULT_SETTINGS, socketName: 'other' }, inside)).toEqual({
      kind: 'name',
      name: 'other',
    });
    expect(socketFromSettings({ ...DEFAULT_SETTINGS, socketPath: '/x.sock' }, inside)).toEqual({
      kind: 'path',
      path: '/x.sock',
    });
  });
});
