// A generated schedule over real tmux, the oracle for "one attention record per pane": several corral
// engines come and go (each with its own tmux connection and status writer, as separate processes
// have), programs ask questions and finish work, the person looks at panes through a real attached
// client, and snoozes and answers come from one engine or another. After every step, every engine's
// view of every pane is what a reference model, one function of the history, says a person should
// read; every engine shows the same wait moment; and a `corral ls` run (a process of its own) says
// the same. Fixed seed, plus a new one in CI (printed; CORRAL_TEST_SEED replays it).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../src/engine/engine.js';
import { resolveSettings } from '../../src/engine/settings/config.js';
import { paneStatus, type PaneStatus } from '../../src/engine/pane/pane-status.js';
import { startStatusWriter, type StatusWriter } from '../../src/engine/records/status-writer.js';
import { localHost, openTmux, type OpenedTmux } from '../../src/engine/tmux/open.js';
import { runCli } from '../helpers/cli.js';
import { SeededRandom, testSeeds } from '../helpers/seeded-random.js';
import { startTestTmux, type TestTmux } from '../helpers/tmux-server.js';
import { TMUX_FORMATS } from '../../src/engine/records/tmux-formats.js';
import { realEngineTime, realServerTime, realTmuxTime } from '../helpers/real-time.js';

const PANES = 4;
const THRESHOLD_MS = 600;

interface Corral {
  readonly name: string;
  readonly opened: OpenedTmux;
  readonly engine: Engine;
  readonly writer: StatusWriter;
}

/** What a person should read of one pane, from the history alone. */
interface ModelPane {
  /** What the screen shows now: a prompt found on corral's first look, a prompt after work, a question. */
  screen: 'first' | 'worked' | 'question';
  /** The person has seen the current wait (the client showed the pane while they used it). */
  seen: boolean;
  snoozed: boolean;
  answered: boolean;
}

function expected(pane: ModelPane): PaneStatus {
  if (pane.answered) return 'answered';
  if (pane.snoozed) return 'snoozed';
  if (pane.screen === 'question') return 'stuck';
  return pane.screen === 'worked' && !pane.seen ? 'stuck' : 'idle';
}

describe('the attention record under a generated schedule of corral processes, programs and a person', () => {
  let server: TestTmux;
  let viewer: TestTmux;
  let viewerPane = '';
  const ids: string[] = [];
  const corrals: Corral[] = [];

  const startCorral = (name: string): Corral => {
    const opened = openTmux(localHost(server.socket), { ...realTmuxTime, formats: TMUX_FORMATS, persistent: true, retryMs: 0 });
    const settings = resolveSettings({ flags: { quietThresholdMs: THRESHOLD_MS, pollIntervalMs: 200 }, env: {}, file: null });
    const engine = createEngine({ ...realEngineTime, settings, tmux: opened.client });
    engine.start();
    const writer = startStatusWriter({ ...realServerTime, engine, tmux: opened.client, machine: 'test', pid: 100_000 + corrals.length, alive: () => true });
    const corral = { name, opened, engine, writer };
    corrals.push(corral);
    return corral;
  };
  const stopCorral = async (corral: Corral) => {
    corrals.splice(corrals.indexOf(corral), 1);
    await corral.writer.stop();
    await corral.engine.stop();
    await corral.opened.close();
  };

  beforeAll(async () => {
    server = await startTestTmux();
    viewer = await startTestTmux();
    for (let i = 0; i < PANES; i++) ids.push(await server.spawn(undefined, { session: 'main', width: 90, height: 20 }));
    for (const id of ids) await server.tmux('send-keys', '-t', id, "PS1='ready$ '; clear", 'Enter');
    for (const id of ids) await server.waitForScreen(id, (s) => s.trim() === 'ready$');
    // Windows keep their size whichever client shows them: a resize reflows a screen, which is a new wait.
    await server.tmux('set-option', '-g', 'window-size', 'manual');
    // The person's key press: bound to nothing in the root table, so it reaches no pane.
    await server.tmux('bind-key', '-n', 'F12', 'refresh-client');
    viewerPane = await viewer.spawn(`env -u TMUX tmux -L ${server.socketName} attach -t main:0`, { width: 100, height: 25 });
  }, 30_000);

  afterAll(async () => {
    for (const corral of [...corrals]) await stopCorral(corral);
    await viewer?.kill();
    await server?.kill();
  });

  it('every engine, and ls, read what the model says after every step', async () => {
    for (const seed of testSeeds(3802)) {
      const random = new SeededRandom(seed);
      const model: ModelPane[] = ids.map(() => ({ screen: 'first', seen: false, snoozed: false, answered: false }));
      // The person starts at window 0, pressing a key there (a schedule lasts well under the minute
      // a key press counts for).
      const look = async (window: number) => {
        await server.tmux('select-window', '-t', `main:${window}`);
        await viewer.tmux('send-keys', '-t', viewerPane, 'F12');
      };
      await look(0);
      let shown = 0;
      let question = 0;
      const log: string[] = [];
      // A fresh start for each seed: no corral, every pane at a clean prompt, no record left.
      for (const corral of [...corrals]) await stopCorral(corral);
      for (const id of ids) {
        // A question left open is left (C-c), then the screen cleared once bash is back at its prompt
        // (readline draws the prompt after it has set the terminal up: what is typed then is read).
        await server.tmux('send-keys', '-t', id, 'C-c');
        await server.waitForScreen(id, (s) => s.trimEnd().endsWith('ready$'));
        await server.tmux('send-keys', '-t', id, 'clear', 'Enter');
        await server.waitForScreen(id, (s) => s.trim() === 'ready$');
        for (const option of ['@corral_attention', '@corral_quiet']) await server.tmux('set-option', '-p', '-u', '-t', id, option);
      }
      startCorral('A');

      /** The screen of pane `i` changes: its wait is a new one. */
      const newWait = (i: number, screen: ModelPane['screen']) => {
        model[i] = { screen, seen: i === shown, snoozed: false, answered: false };
      };
      /** Until every engine reads what the model says, and has seen the wait a step drew (`drawn`: its pane and when). */
      const settle = async (drawn: { readonly id: string; readonly at: number } | null) => {
        const why = () => `seed ${seed}, after: ${log.join(' / ')}`;
        const read = () =>
          corrals.map((c) => {
            const views = c.engine.getSnapshot().panes;
            return ids.map((id) => {
              const view = views.find((v) => v.pane.paneId === id);
              // A wait older than the step that drew a new one is the one before it: not read yet.
              if (view && drawn?.id === id && (view.waitSince ?? 0) < drawn.at) return 'stale';
              return view ? paneStatus(view, Date.now()) : 'missing';
            });
          });
        const want = JSON.stringify(corrals.map(() => model.map(expected)));
        for (const deadline = Date.now() + 8_000; JSON.stringify(read()) !== want; await new Promise((r) => setTimeout(r, 100))) {
          if (Date.now() > deadline) {
            if (process.env.DEBUG_ATT) console.log(JSON.stringify(corrals[0]!.engine.getSnapshot().panes.map((v) => [v.pane.paneId, v.state, v.waitSince, v.quietSince, v.verdict, v.lines.slice(-3), v.attention])));
            expect(JSON.stringify(read()), `${why()}; engines ${corrals.map((c) => c.name).join(" ")}`).toBe(want);
          }
        }
        // One wait moment, whichever engine says it.
        for (const id of ids) {
          const since = new Set(corrals.map((c) => c.engine.getSnapshot().panes.find((v) => v.pane.paneId === id)?.waitSince ?? null));
          if (since.size !== 1 && process.env.DEBUG_ATT) console.log(JSON.stringify(corrals.map((c) => c.engine.getSnapshot().panes.filter((v) => v.pane.paneId === id).map((v) => [c.name, v.waitSince, v.quietSince, v.verdict?.line, v.lines.slice(-3), v.attention.record, v.pane.attentionRecord]))));
          expect(since.size, `${why()}: wait moments of ${id}`).toBe(1);
        }
      };

      // Every engine has read every pane before the person or a program does anything.
      await settle(null);
      // 24 steps that change something (a draw that changes nothing is drawn again).
      for (let step = 0, tries = 0; log.length < 24 && tries < 400; tries++, step = tries) {
        const i = random.int(0, PANES - 1);
        const id = ids[i]!;
        const act = random.pick(['question', 'work', 'look', 'snooze', 'answer', 'start', 'stop', 'reply'] as const);
        const corral = random.pick(corrals);
        const stepAt = Date.now();
        let drawn: { readonly id: string; readonly at: number } | null = null;
        if (act === 'question' && model[i]!.screen !== 'question') {
          question += 1;
          await server.tmux('send-keys', '-t', id, `clear; read -p 'Q${question}? [y/N] ' a`, 'Enter');
          await server.waitForScreen(id, (s) => s.includes(`Q${question}? [y/N]`));
          newWait(i, 'question');
          drawn = { id, at: stepAt };
        } else if (act === 'reply' && model[i]!.screen === 'question') {
          await server.tmux('send-keys', '-t', id, 'n', 'Enter');
          await server.waitForScreen(id, (s) => s.trimEnd().endsWith('ready$'));
          newWait(i, 'worked');
          drawn = { id, at: stepAt };
        } else if (act === 'work' && model[i]!.screen !== 'question') {
          await server.tmux('send-keys', '-t', id, `clear; echo step-${step}`, 'Enter');
          await server.waitForScreen(id, (s) => s.includes(`step-${step}\nready$`));
          newWait(i, 'worked');
          drawn = { id, at: stepAt };
        } else if (act === 'look') {
          // The person, at the attached client, goes to that window (a key press: they use it).
          await look(i);
          shown = i;
          model[i]!.seen = true;
        } else if (act === 'snooze' && expected(model[i]!) === 'stuck') {
          corral.engine.acknowledge(id);
          model[i]!.snoozed = true;
        } else if (act === 'answer' && model[i]!.screen === 'question' && !model[i]!.answered) {
          // An answer whose keys have not reached the screen yet: marked on the screen it was for.
          const view = corral.engine.getSnapshot().panes.find((v) => v.pane.paneId === id);
          if (view === undefined || paneStatus(view, Date.now()) !== 'stuck') continue;
          corral.engine.markAnswered(id, { surface: 'page', what: 'y' }, view.contentHash);
          model[i]!.answered = true;
        } else if (act === 'start' && corrals.length < 3) {
          startCorral(String.fromCharCode(65 + step));
        } else if (act === 'stop' && corrals.length > 1) {
          await stopCorral(corral);
        } else {
          continue;
        }
        log.push(`${act} ${id} via ${corral.name}`);
        await settle(drawn);
        if (log.length % 6 === 0) {
          const run = await runCli(['ls', '-L', server.socketName, '--quiet-threshold', String(THRESHOLD_MS), '--json']);
          if (process.env.DEBUG_ATT2) console.log(run.stderr.replace(/^/gm, 'LS: '));
          const listed = JSON.parse(run.stdout) as { paneId: string; status: string }[];
          if (process.env.DEBUG_ATT) console.log(Date.now(), JSON.stringify(corrals.map((c) => c.engine.getSnapshot().panes.map((v) => [c.name, v.pane.paneId, v.state, v.waitSince, v.stuckSince, v.attention.need]))));
          expect(ids.map((x) => listed.find((r) => r.paneId === x)?.status), `seed ${seed}: corral ls after ${log.join(' / ')}`).toEqual(model.map(expected));
        }
      }
      expect(log.length, `seed ${seed}`).toBe(24);
      console.log(`seed ${seed}: ${log.length} steps checked across ${new Set(log.map((l) => l.split(' via ')[1])).size} corral processes: ${log.join(' / ')}`);
    }
  }, 300_000);
});
