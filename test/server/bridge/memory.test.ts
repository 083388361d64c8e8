import { describe, expect, it } from 'vitest';
import { PaneMemory, memoryKey } from '../../../src/server/bridge/memory.js';

const exchange = (userTurns: string[], at: number) => ({ userTurns, typed: userTurns.at(-1) ?? '', answer: 'a', finishReason: 'stop' as const, at });

describe('PaneMemory', () => {
  it('keeps 20 exchanges per pane, most recent first, and forgets a closed pane', () => {
    const memory = new PaneMemory();
    for (let i = 0; i < 25; i++) memory.record('%1', exchange([`echo ${i}`], i));
    expect(memory.recent('%1').map((e) => e.typed)).toEqual(Array.from({ length: 20 }, (_, i) => `echo ${24 - i}`));
    memory.forget('%1');
    expect(memory.recent('%1')).toEqual([]);
  });

  it("keeps a new tmux server's %0 apart from the old one's", () => {
    const memory = new PaneMemory();
    memory.record(memoryKey('local/100:1700000000', '%0'), exchange(['ls'], 1));
    expect(memory.recent(memoryKey('local/200:1700000500', '%0'))).toEqual([]);
    expect(memory.recent(memoryKey('local/100:1700000000', '%0'))).toHaveLength(1);
  });
});
