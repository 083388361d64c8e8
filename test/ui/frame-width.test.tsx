// No frame line wider than the terminal, whatever the panes hold: the dashboard drawn at seeded
// sizes (narrow to wide, the preview below and beside the list) over panes whose names, titles,
// folders and screens are generated hostile and width-tricky text (CJK, emoji and their marks,
// flags, invisible characters, controls), walking every row so each preview is drawn. A line one
// cell too wide wraps in a real terminal and scrolls the header away (dashboard-hostile.e2e).
// Lines are measured as Ink counts them, then written into a pane of every tmux build found, whose
// cursor says how wide each was drawn.

import { EventEmitter } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { render, type Instance } from 'ink';
import stripAnsi from 'strip-ansi';
import { App } from '../../src/ui/App.js';
import { cellWidth } from '../../src/engine/text/cells.js';
import type { PaneView } from '../../src/engine/types.js';
import { fakeActions, fakeEngine, manualClock, menuVerdict, paneView } from '../helpers/fake-engine.js';
import { widthTrickyText } from '../helpers/cell-texts.js';
import { Rng, hostileFolderName, hostileName, screenLine, testSeed } from '../helpers/hostile-text.js';
import { pressKeys } from '../helpers/ink-keys.js';
import { tmuxBuilds } from '../helpers/tmux-binaries.js';
import { measureCells } from '../../scripts/terminal-cells.mjs';

/** A terminal of a given width that keeps every frame Ink writes (Ink's debug mode writes whole frames). */
class FrameTerminal extends EventEmitter {
  readonly frames: string[] = [];
  constructor(
    readonly columns: number,
    readonly rows: number,
  ) {
    super();
  }
  write = (frame: string) => {
    this.frames.push(frame);
    return true;
  };
}

/** Key presses, as ink-testing-library's stdin delivers them. */
class Keys extends EventEmitter {
  isTTY = true;
  private data: string | null = null;
  write = (data: string) => {
    this.data = data;
    this.emit('readable');
    this.emit('data', data);
  };
  read = () => {
    const data = this.data;
    this.data = null;
    return data;
  };
  setEncoding() {}
  setRawMode() {}
  resume() {}
  pause() {}
  ref() {}
  unref() {}
}

const mounted: Instance[] = [];
afterEach(() => {
  for (const instance of mounted.splice(0)) instance.unmount();
});

const seed = testSeed();
const NOW = 1_000_000;

const text = (rng: Rng) => (rng.int(2) === 0 ? hostileName(rng) : widthTrickyText(rng));

function hostilePanes(rng: Rng, count: number): PaneView[] {
  return Array.from({ length: count }, (_, i) => {
    const stuck = rng.int(3) === 0;
    const lines = Array.from({ length: 4 + rng.int(30) }, () => (rng.int(2) === 0 ? screenLine(rng, 10) : widthTrickyText(rng)));
    return paneView({
      quietSince: NOW - 1_000 * (1 + rng.int(5000)),
      lines,
      ...(stuck ? { state: 'stuck' as const, reason: 'permission' as const, stuckSince: NOW - 500, verdict: menuVerdict } : {}),
      pane: {
        paneId: `%${i}`,
        sessionName: text(rng).replace(/[:.]/g, '_'),
        windowIndex: i,
        windowName: text(rng),
        title: text(rng),
        command: hostileFolderName(rng).slice(0, 30),
        cwd: `/home/me/${hostileFolderName(rng)}/${widthTrickyText(rng).replace(/\//g, '_')}`,
      },
    });
  });
}

describe('dashboard frames on hostile, width-tricky panes', () => {
  it(`never hold a line wider than the terminal (seed ${seed})`, async () => {
    const rng = new Rng(seed);
    /** Every line drawn, with the narrowest terminal it was drawn for. */
    const lines = new Map<string, number>();
    for (let round = 0; round < 8; round++) {
      const columns = 30 + rng.int(190);
      const rows = 10 + rng.int(40);
      const panes = hostilePanes(rng, 3 + rng.int(14));
      const terminal = new FrameTerminal(columns, rows);
      const keys = new Keys();
      const { actions } = fakeActions();
      const instance = render(
        <App engine={fakeEngine(panes)} actions={actions} clock={manualClock(NOW)} tickMs={10} home="/home/me" hostName="host" size={{ columns, rows }} />,
        { stdout: terminal as unknown as NodeJS.WriteStream, stdin: keys as unknown as NodeJS.ReadStream, debug: true, exitOnCtrlC: false, patchConsole: false },
      );
      mounted.push(instance);
      for (let i = 0; i < panes.length; i++) await pressKeys(keys, 'j');
      await pressKeys(keys, '?');
      const where = `seed ${seed}, ${columns}x${rows}`;
      expect(terminal.frames.length, where).toBeGreaterThan(panes.length);
      for (const frame of terminal.frames) {
        for (const line of frame.split('\n')) {
          const plain = stripAnsi(line);
          expect(cellWidth(plain), `${where}: ${JSON.stringify(plain)}`).toBeLessThanOrEqual(columns);
          lines.set(plain, Math.min(columns, lines.get(plain) ?? columns));
        }
      }
      instance.unmount();
    }
    // The same lines as each tmux build draws them (colours aside, which take no cell).
    const texts = [...lines.keys()];
    for (const { binary, version } of tmuxBuilds()) {
      const drawn = await measureCells(binary, texts);
      const wider = texts.filter((line, i) => (drawn[i] as number) > (lines.get(line) as number));
      expect(wider, `seed ${seed}, tmux ${version}: lines wider than their terminal`).toEqual([]);
    }
  }, 120_000);
});
