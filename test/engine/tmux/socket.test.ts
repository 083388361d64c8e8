import { describe, expect, it } from 'vitest';
import { namedSocketPath } from '../../../src/engine/tmux/socket.js';

describe('namedSocketPath', () => {
  it('is where tmux puts a -L socket: $TMUX_TMPDIR or /tmp, then tmux-UID', () => {
    expect(namedSocketPath('corral-demo', {}, 1000)).toBe('/tmp/tmux-1000/corral-demo');
    expect(namedSocketPath('corral-demo', { TMUX_TMPDIR: '/run/user/1000' }, 1000)).toBe('/run/user/1000/tmux-1000/corral-demo');
    expect(namedSocketPath('x', { TMUX_TMPDIR: '' }, 0)).toBe('/tmp/tmux-0/x');
  });
});
