// The page's pane list from an engine snapshot: the dashboard's order and words, quiet times, and
// prompt cards that read well on a narrow screen.
import { REASON_MEANINGS } from '../../../src/engine/pane/pane-status.js';
import { describe, expect, it } from 'vitest';
import { listPanes, listShape, promptLines, unframe } from '../../../src/server/attach/pane-list.js';
import { compareViews } from '../../../src/engine/pane/pane-order.js';
import type { EngineSnapshot, PaneView } from '../../../src/engine/types.js';
import { localHealth, paneView } from '../../helpers/fake-engine.js';

const NOW = 1_000_000;

function snapshot(panes: PaneView[]): EngineSnapshot {
  return { server: 'default server', hosts: [localHealth()], status: 'ok', statusMessage: null, panes, updatedAt: NOW, cycle: 3 };
}

describe('listPanes', () => {
  const menu = paneView({
    state: 'stuck',
    reason: 'permission',
    stuckSince: NOW - 5_000,
    quietSince: NOW - 9_000,
    lines: ['● Bash(npm test)', '╭──────╮', '│ Do you want to proceed? │', '│ ❯ 1. Yes │', '│   2. No  │', '╰──────╯'],
    verdict: {
      prompt: true,
      reason: 'permission',
      busy: false,
      tool: 'claude-code',
      rule: 'menu',
      line: '│ Do you want to proceed? │',
      answer: { kind: 'key', options: ['1', '2', 'Enter'] },
    },
  });
  const shell = paneView({ state: 'stuck', reason: 'stopped', stuckSince: NOW - 60_000, quietSince: NOW - 70_000, lines: ['$ make', 'done', '$'] });
  const snoozed = paneView({ state: 'stuck', reason: 'stopped', acknowledged: true, stuckSince: NOW - 90_000, quietSince: NOW - 95_000 });
  const busy = paneView({ state: 'monitoring', quietSince: NOW - 1_000, lines: ['compiling', 'step 3 of 9', ''] });
  const quiet = paneView({ state: 'monitoring', quietSince: NOW - 600_000 });

  it('orders panes as the dashboard does and uses the engine\'s words', () => {
    const views = [busy, quiet, menu, snoozed, shell];
    const list = listPanes(snapshot(views), NOW, { write: true, resize: false });
    expect(list.panes.map((p) => p.id)).toEqual([...views].sort(compareViews).map((v) => v.pane.paneId));
    expect(list.panes.map((p) => p.badge)).toEqual(['STUCK permission', 'STUCK stopped', 'snoozed', 'quiet', 'active']);
    expect(list.counts).toMatchObject({ stuck: 2, snoozed: 1, quiet: 1, active: 1, total: 5 });
    const card = list.panes.find((p) => p.id === menu.pane.paneId)!;
    expect(card).toMatchObject({
      status: 'stuck',
      reason: 'permission',
      reason_text: REASON_MEANINGS.permission,
      quiet_ms: 9_000,
      screen: menu.screenHash,
      prompt: { kind: 'key', options: ['1', '2', 'Enter'], tool: 'claude-code', line: '│ Do you want to proceed? │' },
    });
    expect(list.panes.find((p) => p.id === busy.pane.paneId)!.last_line).toBe('step 3 of 9');
    expect(list.panes.find((p) => p.id === shell.pane.paneId)!.prompt).toBeNull();
  });

  it('says the same shape while only the quiet times move', () => {
    const a = listPanes(snapshot([busy, quiet]), NOW + 10_000, { write: true, resize: false });
    const b = listPanes(snapshot([busy, quiet]), NOW + 11_000, { write: true, resize: false });
    expect(listShape(a)).toBe(listShape(b));
    // ...but not when time turns an active pane quiet.
    const c = listPanes(snapshot([busy, quiet]), NOW + 2_000, { write: true, resize: false });
    expect(listShape(c)).not.toBe(listShape(a));
  });
});

describe('prompt cards', () => {
  it('drop the frame an agent draws around its dialog', () => {
    expect(unframe('│ Do you want to proceed? │')).toBe('Do you want to proceed?');
    expect(unframe('╰──────────╯')).toBeNull();
    expect(unframe('╌╌╌╌╌╌╌╌')).toBeNull();
    expect(unframe(' 13 +    return x * 2;')).toBe(' 13 +    return x * 2;');
    expect(unframe('| a | b |')).toBe('| a | b |');
  });

  it('show the last lines, without blank runs, and always the prompt line', () => {
    const view = paneView({
      lines: ['intro', 'Proceed? [y/N]', ...Array.from({ length: 12 }, (_, i) => `detail ${i}`), '', '', ''],
      verdict: { prompt: true, reason: 'permission', busy: false, tool: null, rule: null, line: 'Proceed? [y/N]', answer: { kind: 'line', options: ['y', 'n', 'Enter'] } },
    });
    const lines = promptLines(view);
    expect(lines[0]).toBe('Proceed? [y/N]');
    expect(lines).toHaveLength(8);
    const tail = promptLines(paneView({ lines: ['a', '', '', 'b', '│        │', 'c'] }));
    // A framed empty line is frame only.
    expect(tail).toEqual(['a', '', 'b', 'c']);
  });
});
