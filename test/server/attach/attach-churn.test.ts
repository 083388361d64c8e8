// Connect churn must never put tmux at risk: 25 WebSocket clients at a time subscribe to panes
// and close, round after round, over real HTTP and a real private tmux server. tmux 3.3a
// segfaulted under this load when every first and last viewer attached and detached a control
// client concurrently.
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { controlGate } from '../../../src/engine/tmux/control-gate.js';
import { TOKEN, startHarness, waitUntil, type Harness } from '../../helpers/attach-harness.js';

let h: Harness | null = null;
afterEach(async () => {
  await h?.close();
  h = null;
});

/** One viewer: connects, subscribes, waits for its replay, closes, and waits for the close. */
function viewer(url: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers: { authorization: `Bearer ${TOKEN}` } });
    let mode = '';
    ws.once('open', () => ws.send(JSON.stringify({ type: 'subscribe' })));
    ws.on('message', (data) => {
      const message = JSON.parse(String(data)) as { type: string; replay_mode?: string };
      if (message.type === 'replay') {
        mode = message.replay_mode ?? '';
        ws.close();
      }
    });
    ws.once('close', (code) => (mode ? resolve(mode) : reject(new Error(`closed with ${code} before a replay`))));
    ws.once('error', reject);
  });
}

async function churn(harness: Harness, panes: readonly string[], rounds: number, clients: number): Promise<void> {
  for (let round = 0; round < rounds; round++) {
    const modes = await Promise.all(
      Array.from({ length: clients }, (_, i) => viewer(harness.wsUrl(panes[i % panes.length]!))),
    );
    if (modes.some((m) => m !== 'recovery')) throw new Error(`round ${round}: replays ${modes.join(',')}`);
  }
}

async function controlClients(harness: Harness): Promise<string[]> {
  const out = await harness.tmux.tmux('list-clients', '-F', '#{client_control_mode} #{session_name}');
  return out.split('\n').filter((line) => line !== '');
}

async function serverAlive(harness: Harness): Promise<string[]> {
  return (await harness.tmux.tmux('list-sessions', '-F', '#{session_name}')).trim().split('\n').sort();
}

describe('connect churn on real tmux', () => {
  it('1000 rounds of 25 viewers: tmux lives, the grace period keeps one control client per session, none after stop', async () => {
    h = await startHarness({}, { persistent: true });
    const panes = [
      await h.tmux.spawn('bash --norc', { session: 'one' }),
      await h.tmux.spawn('bash --norc', { session: 'one' }),
      await h.tmux.spawn('bash --norc', { session: 'two' }),
    ];
    const gate = controlGate(h.tmux.socket);
    const before = gate.stats().passed;
    await churn(h, panes, 1000, 25);
    expect(await serverAlive(h)).toEqual(['one', 'two']);
    await waitUntil(() => h!.feature.connectionCount === 0, 5000, 'every viewer to be gone');
    // Viewers came and went 25,000 times; tmux saw one attach per session (and the engine's
    // persistent connection), because rings and clients outlive the last viewer by the grace period.
    expect(gate.stats().passed - before).toBeLessThanOrEqual(3);
    expect(gate.stats().mostInside).toBe(1);
    const clients = await controlClients(h);
    expect(clients.filter((c) => c === '1 two')).toHaveLength(1);
    expect(clients.length).toBeLessThanOrEqual(3);
    await h.server.close();
    // The streams belong to the pane port, which its owner closes after the server.
    await h.port.close();
    await h.client.close();
    expect(await controlClients(h)).toEqual([]);
    expect(await serverAlive(h)).toEqual(['one', 'two']);
  }, 180_000);

  it('with no grace period every round attaches and detaches per session, one at a time, and tmux lives', async () => {
    h = await startHarness({ attachGraceMs: 0 }, { persistent: true });
    const panes = [
      await h.tmux.spawn('bash --norc', { session: 'one' }),
      await h.tmux.spawn('bash --norc', { session: 'two' }),
      await h.tmux.spawn('bash --norc', { session: 'three' }),
    ];
    const gate = controlGate(h.tmux.socket);
    const before = gate.stats().passed;
    await churn(h, panes, 100, 25);
    expect(await serverAlive(h)).toEqual(['one', 'three', 'two']);
    await waitUntil(() => h!.port.streams?.sessionCount === 0, 5000, 'the session clients to detach');
    // Many attaches and detaches went through the gate (at least one pair per round), never two at once.
    expect(gate.stats().passed - before).toBeGreaterThanOrEqual(200);
    expect(gate.stats().mostInside).toBe(1);
    await waitUntil(async () => (await controlClients(h!)).length <= 1, 5000, 'only the poll connection to remain');
    await h.server.close();
    // The streams belong to the pane port, which its owner closes after the server.
    await h.port.close();
    await h.client.close();
    expect(await controlClients(h)).toEqual([]);
  }, 180_000);
});
