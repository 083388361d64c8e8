// After a hook, the engine looks at the pane again within a second, whatever the poll interval: a
// permission dialog is drawn just after its hook, and answer buttons need its screen.

import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHookHarness, type HookHarness } from '../helpers/hook-harness.js';

let h: HookHarness;
beforeAll(async () => {
  h = await startHookHarness({ pollIntervalMs: '60000' });
});
afterAll(async () => {
  await h?.close();
  if (h) rmSync(h.dir, { recursive: true, force: true });
});

describe('captures after a hook', () => {
  it('sees the dialog drawn after a permission hook long before the next poll', async () => {
    const pane = await h.shell();
    const socket = (await h.tmux.tmux('display-message', '-p', '#{socket_path}')).trim();
    // The "agent" draws its question 300 ms after it reports the permission request.
    await h.tmux.tmux('send-keys', '-t', pane, '-l', `sleep 0.3; read -p 'Run make deploy? [y/N] ' a`);
    const response = await fetch(`http://127.0.0.1:${h.port}/hooks`, {
      method: 'POST',
      headers: { authorization: 'Bearer hook-test-token-0123456789', 'content-type': 'application/json' },
      body: JSON.stringify({ agent: 'claude-code', event: 'PermissionRequest', sessionId: 's', transcriptPath: '', cwd: h.dir, notificationType: null, message: null, toolName: 'Bash', toolSummary: 'make deploy', pane, socket, tty: false, daemon: false }),
    });
    expect(response.status).toBe(200);
    await h.tmux.tmux('send-keys', '-t', pane, 'Enter');
    await expect
      .poll(() => h.engine.getSnapshot().panes.find((v) => v.pane.paneId === pane)?.verdict?.line, { timeout: 5_000, interval: 20 })
      .toBe('Run make deploy? [y/N]');
    expect(h.engine.getSnapshot().panes.find((v) => v.pane.paneId === pane)).toMatchObject({ state: 'stuck', reason: 'permission' });
  });
});
