// Which requests are a client's own retry: the rules of ReplayDesk, with times passed in.

import { describe, expect, it } from 'vitest';
import { DECLARED_RETRY_MS, ReplayDesk, type RequestMark } from '../../../src/server/bridge/replays.js';
import { incompleteEnding } from '../../../src/server/bridge/known-answers.js';

const mark = (over: Partial<RequestMark> = {}): RequestMark => ({ pane: '%1', server: 'local/100:1', body: '{"m":"ls"}', retryCount: 0, idempotencyKey: null, ...over });

describe('ReplayDesk', () => {
  it('types the same body again once the first answer finished, unless the request says it is a retry', () => {
    const desk = new ReplayDesk();
    desk.finish(desk.start(mark(), 'chatcmpl-1'), { answer: 'a', finishReason: 'stop', end: 'finished', at: 1000 });
    expect(desk.find(mark(), 1500)).toBeNull();
    expect(desk.find(mark({ retryCount: 1 }), 1500)).toMatchObject({ kind: 'recorded', recorded: { id: 'chatcmpl-1', answer: 'a' } });
    expect(desk.find(mark({ retryCount: 1 }), 1000 + DECLARED_RETRY_MS + 1)).toBeNull();
  });

  it('replays a cut-off answer only to a request that says it is a retry; a person sending it again is typed', () => {
    const desk = new ReplayDesk();
    desk.finish(desk.start(mark(), 'chatcmpl-1'), { answer: 'half', finishReason: 'stop', end: 'cut', at: 1000 });
    expect(desk.find(mark(), 1001)).toBeNull();
    expect(desk.find(mark({ retryCount: 2 }), 1001)).toMatchObject({ kind: 'recorded', why: 'x-stainless-retry-count: 2' });
  });

  it('follows a first answer that still streams for a retry only, and a known Idempotency-Key whatever the body', () => {
    const desk = new ReplayDesk();
    const live = desk.start(mark({ idempotencyKey: 'k1' }), 'chatcmpl-1');
    live.push('part');
    expect(desk.find(mark(), 1)).toBeNull();
    expect(desk.find(mark({ retryCount: 1 }), 1)).toMatchObject({ kind: 'live', live: { soFar: 'part' } });
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

describe('incompleteEnding', () => {
  it('closes an open fence and says the answer is incomplete, and adds nothing to a finished answer', () => {
    const at = 0;
    expect(incompleteEnding({ id: 'x', answer: '```\nstart-12603\n', finishReason: 'stop', end: 'cut', at })).toBe(
      '```\n\n(incomplete: still running when the first answer was cut off; what it printed after that opens the next answer of this pane)\n',
    );
    expect(incompleteEnding({ id: 'x', answer: '```\na\n```\n', finishReason: 'stop', end: 'failed', at })).toBe('\n(incomplete: corral could not follow the pane to the end of this answer)\n');
    expect(incompleteEnding({ id: 'x', answer: '```\na\n```\n', finishReason: 'stop', end: 'finished', at })).toBe('');
  });
});
