import { describe, expect, it } from 'vitest';
import { PaneMemory, RETRY_WINDOW_MS } from '../../../src/server/bridge/memory.js';

const exchange = (userTurns: string[], at: number) => ({ userTurns, typed: userTurns.at(-1) ?? '', answer: 'a', finishReason: 'stop' as const, at });

describe('PaneMemory', () => {
  it('takes the same conversation again soon after as a retry of the last exchange', () => {
    const memory = new PaneMemory();
    memory.record('%1', exchange(['ls'], 1000));
    expect(memory.retryOf('%1', ['ls'], 2000)?.answer).toBe('a');
    expect(memory.retryOf('%2', ['ls'], 2000)).toBeNull();
  });

  it('does not take a new turn, another conversation, or a late repeat for a retry', () => {
    const memory = new PaneMemory();
    memory.record('%1', exchange(['ls', 'pwd'], 1000));
    expect(memory.retryOf('%1', ['ls', 'pwd', 'pwd'], 2000)).toBeNull();
    expect(memory.retryOf('%1', ['cd /', 'pwd'], 2000)).toBeNull();
    expect(memory.retryOf('%1', ['ls', 'pwd'], 1000 + RETRY_WINDOW_MS + 1)).toBeNull();
  });

  it('compares with the last exchange only, keeps 20 per pane, most recent first, and forgets a closed pane', () => {
    const memory = new PaneMemory();
    for (let i = 0; i < 25; i++) memory.record('%1', exchange([`echo ${i}`], i));
    expect(memory.retryOf('%1', ['echo 23'], 30)).toBeNull();
    expect(memory.recent('%1').map((e) => e.typed)).toEqual(Array.from({ length: 20 }, (_, i) => `echo ${24 - i}`));
    memory.forget('%1');
    expect(memory.recent('%1')).toEqual([]);
  });
});
