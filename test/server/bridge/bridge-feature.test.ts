// The bridge feature over real HTTP but with a scripted tmux and a manual clock: keepalive
// comments while an agent is busy, and the busy signal holding the answer open.

import { afterEach, describe, expect, it } from 'vitest';
import { request } from 'node:http';
import { CorralServer } from '../../../src/server/http-server.js';
import { createBridgeFeature } from '../../../src/server/bridge/index.js';
import { TmuxClient } from '../../../src/engine/tmux/client.js';
import { createPanePort, type PanePort } from '../../../src/engine/port/pane-port.js';
import type { Classifier } from '../../../src/engine/conversation/conversation.js';
import { LOCAL_HOST, type EngineHandle, type EngineSnapshot, type PaneView, type PromptVerdict } from '../../../src/engine/types.js';
import { PORT_SETTINGS } from '../../helpers/fake-engine.js';
import { ManualTime } from '../../helpers/manual-time.js';
import { scriptedTmux, type FakePane } from '../../helpers/scripted-panes.js';
import { waitUntil } from '../../helpers/wait-until.js';
import { LISTED_RECORDS } from '../../../src/engine/records/tmux-formats.js';
import { realClock, realTmuxTime } from '../../helpers/real-time.js';

const TOKEN = 'unit-token-0123456789';

function store(paneIds: string[]): EngineHandle {
  const panes = paneIds.map(
    (paneId, i) =>
      ({
        key: paneId,
        host: LOCAL_HOST,
        pane: { paneId, dead: false },
        target: `main:${i}.0`,
        label: null,
        state: 'monitoring',
        registeredAt: 1_000_000,
      }) as unknown as PaneView,
  );
  const snapshot = { panes } as unknown as EngineSnapshot;
  return {
    getSnapshot: () => snapshot,
    subscribe: () => () => undefined,
    acknowledge: () => undefined,
    markSeen: () => undefined,
    markAnswered: () => undefined,
    focus: () => undefined,
    pollNow: async () => undefined,
    onEvent: () => () => undefined,
  };
}

function port(paneIds: string[], runner: ReturnType<typeof scriptedTmux>['runner'], time: ManualTime, classify?: Classifier): PanePort {
  const tmux = new TmuxClient({ clock: realClock, records: LISTED_RECORDS, socket: { kind: 'name', name: 'unit' }, runner, nonce: 'k33p' });
  return createPanePort({ engine: store(paneIds), tmux, host: LOCAL_HOST, settings: PORT_SETTINGS, clock: time, typingTimers: time, timers: time, controlTimers: realTmuxTime.timers, ...(classify ? { classify } : {}) });
}

let server: CorralServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

describe('bridge feature (scripted tmux, manual clock)', () => {
  it('sends keepalive comments while the pane is busy, then the answer', async () => {
    const pane: FakePane = { lines: ['$'], cursorRow: 0, height: 10 };
    const fake = scriptedTmux({ '%7': pane });
    const time = new ManualTime();
    let busy = false;
    // The pane shows its prompt when not busy (on the cursor line, as a shell does).
    const verdict = (lines: readonly string[]): PromptVerdict =>
      busy
        ? { prompt: false, reason: null, busy, tool: 'agent', rule: 'busy', line: '', answer: null }
        : { prompt: true, reason: 'stopped', busy, tool: 'shell', rule: 'shell', line: lines.filter((l) => l !== '').at(-1) ?? '', answer: { kind: 'line', options: [] } };
    const bridge = createBridgeFeature({
      port: port(['%7'], fake.runner, time, verdict),
      token: TOKEN,
      settings: { corsOrigins: [], keepaliveMs: 1000 },
      clock: time,
      timers: time,
    });
    server = new CorralServer({ host: '127.0.0.1', port: 0 });
    await server.listen();
    server.enable(bridge);

    let received = '';
    let ended = false;
    const body = JSON.stringify({ model: '%7', stream: true, messages: [{ role: 'user', content: 'think hard' }] });
    const req = request(
      { host: '127.0.0.1', port: server.port, method: 'POST', path: '/v1/chat/completions', headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' } },
      (res) => {
        res.on('data', (part: Buffer) => (received += part.toString('utf8')));
        res.on('end', () => (ended = true));
      },
    );
    req.end(body);
    const waitFor = (check: () => boolean) => waitUntil(check, 10_000);
    await waitFor(() => fake.typed.get('%7')?.length === 2);
    await time.advance(100);
    await waitFor(() => received.includes('"role":"assistant"'));
    expect(fake.typed.get('%7')).toEqual(['text:think hard', 'key:Enter']);

    pane.lines = ['$ think hard', '✻ Thinking… (esc to interrupt)'];
    pane.cursorRow = 1;
    busy = true;
    // Ten quiet seconds while busy: the answer stays open and keepalives flow.
    for (let i = 0; i < 100; i++) await time.advance(100);
    await waitFor(() => (received.match(/^: keepalive$/gm) ?? []).length >= 9);
    expect(ended).toBe(false);

    busy = false;
    pane.lines = ['$ think hard', '● The answer is 42.', '$'];
    pane.cursorRow = 2;
    // Two injected seconds after the prompt is back, then the client must see the end.
    for (let i = 0; i < 20; i++) await time.advance(100);
    await waitFor(() => ended);
    const content = [...received.matchAll(/"content":"((?:[^"\\]|\\.)*)"/g)].map((m) => JSON.parse(`"${m[1]}"`) as string).join('');
    expect(content).toBe('```\n● The answer is 42.\n```\n');
    expect(received.trimEnd().endsWith('data: [DONE]')).toBe(true);
  });
});

describe('switching the bridge off', () => {
  it('ends an answer in progress instead of leaving the client hanging', async () => {
    const pane: FakePane = { lines: ['$'], cursorRow: 0, height: 10 };
    const fake = scriptedTmux({ '%3': pane });
    const time = new ManualTime();
    const bridge = createBridgeFeature({
      port: port(['%3'], fake.runner, time),
      token: TOKEN,
      settings: { corsOrigins: [] },
      clock: time,
      timers: time,
    });
    server = new CorralServer({ host: '127.0.0.1', port: 0 });
    await server.listen();
    server.enable(bridge);
    const response = new Promise<{ status: number; body: string }>((resolve) => {
      const req = request(
        { host: '127.0.0.1', port: server!.port, method: 'POST', path: '/v1/chat/completions', headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' } },
        (res) => {
          let body = '';
          res.on('data', (part: Buffer) => (body += part.toString('utf8')));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        },
      );
      req.end(JSON.stringify({ model: '%3', stream: true, messages: [{ role: 'user', content: 'sleep 60' }] }));
    });
    await waitUntil(() => fake.typed.get('%3')?.length === 2, 10_000, 'the message and Enter typed');
    await time.advance(100);
    await waitUntil(() => bridge.busyPanes().length > 0, 10_000, 'the pane reserved');
    await server.disable(bridge.name);
    const { status, body } = await response;
    expect(status).toBe(200);
    expect(body).toContain('"role":"assistant"');
    expect(bridge.busyPanes()).toEqual([]);
  });
});
