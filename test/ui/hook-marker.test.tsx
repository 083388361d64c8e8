// The dashboard's small marker for a pane whose agent hooks and screen disagree.

import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render } from 'ink-testing-library';
import { App } from '../../src/ui/App.js';
import { createServicesStore } from '../../src/ui/service-state.js';
import type { HookView } from '../../src/engine/types.js';
import { fakeActions, fakeEngine, manualClock, paneView } from '../helpers/fake-engine.js';

afterEach(() => cleanup());

const hook: HookView = {
  agent: 'claude-code',
  sessionId: 's',
  transcriptPath: '',
  claim: 'permission',
  claimSince: 1_000,
  lastEvent: 'PermissionRequest',
  lastEventAt: 1_000,
  disagreement: null,
};

describe('hook disagreement marker', () => {
  it('marks the row between badge and target, and only while hooks and screen disagree', async () => {
    const agreeing = paneView({ state: 'stuck', reason: 'permission', pane: { sessionName: 'agents', windowIndex: 1 }, hook });
    const disagreeing = paneView({
      pane: { sessionName: 'agents', windowIndex: 2 },
      hook: { ...hook, disagreement: { claim: 'permission', screen: 'stopped', since: 2_000, overruled: false } },
    });
    const engine = fakeEngine([agreeing, disagreeing]);
    const { actions } = fakeActions();
    const r = render(
      <App engine={engine} actions={actions} services={createServicesStore()} clock={manualClock(10_000)} tickMs={10} activeWindowMs={5_000} home="/home/me" hostName="host" size={{ columns: 100, rows: 20 }} />,
    );
    const line = (target: string) => (r.lastFrame() ?? '').split('\n').find((l) => l.includes(target)) ?? '';
    await vi.waitFor(() => expect(line('agents:2.0')).toMatch(/≠agents:2\.0/), { timeout: 2000, interval: 10 });
    expect(line('agents:1.0')).toMatch(/ agents:1\.0/);
    expect(line('agents:1.0')).not.toContain('≠');
  });
});
