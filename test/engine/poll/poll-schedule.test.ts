// What the engine asks tmux, cycle by cycle, over generated schedules: panes that print (told of by
// the change watch or not), prompts drawn and answered, panes opened and closed, hooks, looks and a
// server that goes away, on this machine and on a host far away. Every tmux call and every sleep the
// loop arms is recorded with its time and compared with the record kept beside this test (written
// with `npx vitest run -u`): a change to how the poll is planned must leave every one as it was.

import { describe, expect, it } from 'vitest';
import { resolveSettings } from '../../../src/engine/settings/config.js';
import { createEngine, type Engine } from '../../../src/engine/engine.js';
import { TmuxClient } from '../../../src/engine/tmux/client.js';
import type { ControlReply } from '../../../src/engine/tmux/control-protocol.js';
import type { TmuxRunner } from '../../../src/engine/tmux/runner.js';
import type { HookEvent, HostSpec, Timers } from '../../../src/engine/types.js';
import { ManualTime } from '../../helpers/manual-time.js';
import { scriptedPoll, type PolledPane, type ScriptedPoll } from '../../helpers/scripted-poll.js';
import { SeededRandom } from '../../helpers/seeded-random.js';
import { LISTED_RECORDS } from '../../../src/engine/records/tmux-formats.js';
import { realClock } from '../../helpers/real-time.js';

const FAR: HostSpec = { name: 'far', ssh: 'far', socket: { kind: 'default' } };
const STEPS = 70;
const PROMPT = 'Deploy to production? [y/N] ';
const PERMISSION: HookEvent = { agent: 'claude-code', signal: 'permission', event: 'PermissionRequest', sessionId: 's', transcriptPath: '', cwd: '/', message: 'Bash: ls' };

interface Run {
  readonly engine: Engine;
  readonly log: string[];
  readonly fake: ScriptedPoll;
  /** tmux tells of a change to these windows (null: anything). */
  tell(windows: ReadonlySet<string> | null): void;
}

/** An engine over scripted panes whose tmux tells of changes as a control connection's watch does. */
function start(panes: PolledPane[], time: ManualTime, interval: number, far: boolean): Run {
  const fake = scriptedPoll(panes, () => Math.floor(time.now() / 1000), () => '  1     0     1     1   600 S    bash\n');
  const log: string[] = [];
  const at = () => `${time.now() - 1_000_000}`;
  const journal: { count: number; windows: ReadonlySet<string> | null }[] = [];
  let listener: (() => void) | null = null;
  const logged = async (args: readonly string[]) => {
    log.push(`${at()} tmux ${args.join(' ')}`);
    return fake.runner(args);
  };
  const pollRunner: TmuxRunner = Object.assign((args: readonly string[]) => logged(args), {
    replies: async (commands: readonly (readonly string[])[]): Promise<ControlReply[]> =>
      Promise.all(commands.map(async (command, number) => {
        const result = await logged(command);
        return { number, flags: 0, ok: result.exitCode === 0, text: result.stdout };
      })),
    watch: (l: () => void) => void (listener = l),
    changes: () => (listener === null ? null : journal.length),
    windowsSince: (mark: number) => {
      if (listener === null) return null;
      const windows = new Set<string>();
      for (const told of journal.slice(mark)) {
        if (told.windows === null) return null;
        for (const window of told.windows) windows.add(window);
      }
      return windows;
    },
  });
  const tmux = new TmuxClient({ clock: realClock, records: LISTED_RECORDS, socket: far ? FAR.socket : { kind: 'name', name: 'plan' }, runner: (args) => logged(args), nonce: 'fixed', pollRunner });
  const settings = resolveSettings({ flags: { pollIntervalMs: interval }, env: {}, file: null });
  const timers: Timers = {
    setTimeout: (callback, ms) => (log.push(`${at()} sleep ${ms}`), time.setTimeout(callback, ms)),
    clearTimeout: (handle) => time.clearTimeout(handle),
  };
  const engine = createEngine({ settings, tmux, clock: time, wallClock: time, timers, ...(far ? { host: FAR } : {}) });
  engine.onEvent((event) => log.push(`${at()} event ${event.type} ${event.paneId}`));
  const tell = (windows: ReadonlySet<string> | null) => {
    journal.push({ count: journal.length + 1, windows });
    listener?.();
  };
  return { engine, log, fake, tell };
}

/** One generated schedule: what happens between two advances of the clock. */
function step(random: SeededRandom, run: Run, panes: PolledPane[], time: ManualTime, next: { id: number; readonly far: boolean }): void {
  const seconds = Math.floor(time.now() / 1000);
  const pane = panes.length > 0 ? random.pick(panes) : null;
  const key = (p: PolledPane) => (next.far ? `far/${p.id}` : p.id);
  const roll = random.int(0, 99);
  if (pane !== null && roll < 35) {
    // Output; tmux tells of it most of the time (a change within its second may go untold).
    pane.screen = `${pane.screen.split('\n').slice(-3).join('\n')}\nline ${random.int(0, 999)}`;
    pane.activity = seconds;
    if (random.chance(0.8)) run.tell(new Set([`@${pane.id.slice(1)}`]));
  } else if (pane !== null && roll < 45) {
    pane.screen = `${pane.screen}\n${PROMPT}`;
    pane.activity = seconds;
    run.tell(new Set([`@${pane.id.slice(1)}`]));
  } else if (pane !== null && roll < 50) {
    pane.screen = 'y\ndeploying';
    pane.activity = seconds;
    if (random.chance(0.5)) run.tell(new Set([`@${pane.id.slice(1)}`]));
  } else if (roll < 54 && panes.length < 10) {
    panes.push({ id: `%${next.id++}`, screen: 'starting', activity: seconds });
    run.tell(null);
  } else if (pane !== null && roll < 57 && panes.length > 1) {
    panes.splice(panes.indexOf(pane), 1);
    run.tell(null);
  } else if (pane !== null && roll < 61) {
    run.engine.observeHook(key(pane), PERMISSION);
  } else if (roll < 66) {
    run.engine.focus(panes.filter(() => random.chance(0.3)).map(key));
  } else if (pane !== null && roll < 69) {
    run.engine.markSeen(key(pane));
  } else if (roll < 71) {
    run.fake.setServer(false);
  } else if (roll < 76) {
    run.fake.setServer(true);
  } else if (pane !== null && roll < 84) {
    // A bare prompt: an idle-looking screen, which far away brings the process table along.
    pane.screen = `${pane.screen.split('\n').at(-1) ?? ''}\n>`;
    pane.activity = seconds;
    if (random.chance(0.7)) run.tell(new Set([`@${pane.id.slice(1)}`]));
  }
}

/** The log of one schedule: every tmux call, sleep and event, with its time from the start. */
async function schedule(seed: number, interval: number, far: boolean): Promise<string[]> {
  const random = new SeededRandom(seed);
  const time = new ManualTime();
  const seconds = Math.floor(time.now() / 1000);
  const count = random.int(1, 9);
  const panes: PolledPane[] = Array.from({ length: count }, (_, i) => ({ id: `%${i + 1}`, screen: `compiling ${i}`, activity: seconds - random.int(0, 30) }));
  const next = { id: count + 1, far };
  const run = start(panes, time, interval, far);
  run.engine.start();
  for (let i = 0; i < STEPS; i++) {
    await time.advance(random.int(50, 4_000));
    step(random, run, panes, time, next);
    run.log.push(`${time.now() - 1_000_000} --`);
  }
  await time.advance(40_000);
  await run.engine.stop();
  return run.log;
}

describe('what the poll asks over generated schedules', () => {
  for (const far of [false, true]) {
    for (const interval of [500, 2_000]) {
      for (const seed of [11, 29, 4242]) {
        const name = `${far ? 'far' : 'here'}-${interval}-${seed}`;
        it(`${far ? 'a host far away' : 'this machine'}, a ${interval} ms poll, seed ${seed}`, async () => {
          const log = await schedule(seed, interval, far);
          await expect(`${log.join('\n')}\n`).toMatchFileSnapshot(`./poll-schedules/${name}.txt`);
        });
      }
    }
  }
});
