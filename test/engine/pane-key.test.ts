import { describe, expect, it } from 'vitest';
import { paneKey, parsePaneKey } from '../../src/engine/pane/pane-key.js';

describe('pane keys across hosts', () => {
  it('keep bare tmux ids on the local host and prefix every other host', () => {
    expect(paneKey('local', '%3')).toBe('%3');
    expect(paneKey('build-box', '%3')).toBe('build-box/%3');
  });

  it('parse back to host and pane id', () => {
    expect(parsePaneKey('%3')).toEqual({ host: 'local', paneId: '%3' });
    expect(parsePaneKey('build-box/%12')).toEqual({ host: 'build-box', paneId: '%12' });
  });

  it('refuse what is not a key', () => {
    for (const bad of ['3', '', 'build-box/', '/%3', 'local/%3', 'build-box/%x', '%3;kill-server']) {
      expect(parsePaneKey(bad)).toBeNull();
    }
  });
});
