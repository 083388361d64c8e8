// Which requests are a client's own retry: the rules of ReplayDesk, with times passed in.

import { describe, expect, it } from 'vitest';
import { DECLARED_RETRY_MS, RETRY_AFTER_FAILURE_MS, ReplayDesk, type RequestMark } from '../../../src/server/bridge/replays.js';

const mark = (over: Partial<RequestMark> = {}): RequestMark => ({ pane: '%1', server: 'local/100:1', body: '{"m":"ls"}', retryCount: 0, idempotencyKey: null, ...over });

describe('ReplayDesk', () => {
  it('types the same body again once the first answer finished, unless the request says it is a retry', () => {
    const desk = new ReplayDesk();
    desk.finish(desk.start(mark(), 'chatcmpl-1'), { answer: 'a', finishReason: 'stop', end: 'finished', at: 1000 });
    expect(desk.find(mark(), 1500)).toBeNull();
    expect(desk.find(mark({ retryCount: 1 }), 1500)).toMatchObject({ kind: 'recorded', recorded: { id: 'chatcmpl-1', answer: 'a' } });
    expect(desk.find(mark({ retryCount: 1 }), 1000 + DECLARED_RETRY_MS + 1)).toBeNull();
  });

  it('replays the same body for a few seconds after the first failed or was cut off', () => {
    const desk = new ReplayDesk();
    desk.finish(desk.start(mark(), 'chatcmpl-1'), { answer: 'half', finishReason: 'stop', end: 'cut', at: 1000 });
    expect(desk.find(mark(), 1000 + RETRY_AFTER_FAILURE_MS)).toMatchObject({ kind: 'recorded', why: expect.stringMatching(/cut off/) });
    expect(desk.find(mark(), 1000 + RETRY_AFTER_FAILURE_MS + 1)).toBeNull();
  });

  it('follows a first answer that still streams, and a known Idempotency-Key whatever the body', () => {
    const desk = new ReplayDesk();
    const live = desk.start(mark({ idempotencyKey: 'k1' }), 'chatcmpl-1');
    live.push('part');
    expect(desk.find(mark(), 1)).toMatchObject({ kind: 'live', live: { soFar: 'part' } });
    desk.finish(live, { answer: 'part', finishReason: 'stop', end: 'finished', at: 10 });
    expect(desk.find(mark({ body: '{"m":"other"}', idempotencyKey: 'k1' }), 20)).toMatchObject({ kind: 'recorded' });
    expect(desk.find(mark({ body: '{"m":"other"}', idempotencyKey: 'k2' }), 20)).toBeNull();
  });

  it("never replays another pane's or another tmux server's answer, nor one that typed nothing", () => {
    const desk = new ReplayDesk();
    desk.finish(desk.start(mark(), 'chatcmpl-1'), { answer: 'a', finishReason: 'stop', end: 'failed', at: 0 });
    expect(desk.find(mark({ pane: '%2', retryCount: 1 }), 1)).toBeNull();
    expect(desk.find(mark({ server: 'local/200:2', retryCount: 1 }), 1)).toBeNull();
    const refused = desk.start(mark({ body: 'b' }), 'chatcmpl-2');
    desk.drop(refused);
    expect(desk.find(mark({ body: 'b', retryCount: 1 }), 1)).toBeNull();
  });
});
