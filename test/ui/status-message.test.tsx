// A status message longer than the terminal is wide: cut with a hint on the status line, and shown
// whole (wrapped) by `?` even after it went from the status line. Generated messages, hostile text.

import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render } from 'ink-testing-library';
import { App } from '../../src/ui/App.js';
import { createUiStore } from '../../src/ui/state.js';
import { createServicesStore } from '../../src/ui/service-state.js';
import { fakeActions, fakeEngine, manualClock, paneView } from '../helpers/fake-engine.js';
import { SeededRandom, testSeeds } from '../helpers/seeded-random.js';

afterEach(() => cleanup());
const until = (fn: () => void) => vi.waitFor(fn, { timeout: 2000, interval: 10 });

const WORDS = [
  'branch',
  'name',
  '"feat\\tx"',
  'holds',
  'blanks',
  'or',
  'control',
  'characters',
  '(Tab',
  'to',
  'fix',
  'it,',
  'Esc',
  'cancels)',
  'main:1.0',
  'on',
  'build-box',
  'é',
  '你好',
];

describe('long status messages', () => {
  for (const seed of testSeeds(41_008)) {
    it(`are cut with a hint, and ? shows them whole (seed ${seed}, 8 messages)`, async () => {
      const rng = new SeededRandom(seed);
      for (let n = 0; n < 8; n++) {
        const columns = rng.int(40, 120);
        // Longer than the line, sometimes several lines long.
        const words = [rng.pick(WORDS)];
        while ([...words.join(' ')].length < columns + rng.int(5, 3 * columns)) words.push(rng.pick(WORDS));
        const text = words.join(' ');
        const store = createUiStore();
        const { actions } = fakeActions();
        const r = render(
          <App
            engine={fakeEngine([paneView({ quietSince: 1_000 })])}
            actions={actions}
            services={createServicesStore()}
            clock={manualClock(100_000)}
            tickMs={1_000_000}
            activeWindowMs={5_000}
            size={{ columns, rows: 40 }}
            uiStore={store}
          />,
        );
        store.dispatch({ type: 'status', status: { text, tone: 'warn' } });
        await until(() => expect(r.lastFrame(), `${columns}: ${text}`).toContain('(? shows it whole)'));
        r.stdin.write('?');
        await until(() => expect(r.lastFrame()).toContain('Last message:'));
        const frame = r.lastFrame() ?? '';
        const shown = frame.slice(frame.indexOf('Last message:'), frame.indexOf('Keys (any key closes this help)'));
        // Every word of the message is there, in order, whatever the wrapping.
        const flat = shown.replace(/^Last message: /, '').replace(/\s+/g, '');
        expect(flat, `seed ${seed} #${n} at ${columns} columns`).toBe(text.replace(/\s+/g, ''));
        cleanup();
      }
    });
  }
});
