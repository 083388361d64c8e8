// The dashboard's key dispatcher without Ink: a scene and a key in, UI actions and effects out.
// Sequences are driven by applying the actions to the real reducer, as the store does.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { dispatchKey, type KeyEffect, type KeyOutcome, type KeyPress, type KeyScene } from '../../src/ui/key-dispatch.js';
import { KEYMAP, LINE_KEYS, LINE_KEYS_TITLE, type CommandName } from '../../src/ui/keymap.js';
import { STATUS_MS, initialUiState, uiReducer, visibleRows, type UiState } from '../../src/ui/state.js';
import { matchesFilter } from '../../src/ui/pane-label.js';
import { UNAVAILABLE_SERVICES, type ServicesSnapshot } from '../../src/ui/service-state.js';
import type { HostHealth, PaneView, PromptVerdict } from '../../src/engine/types.js';
import { localHealth, menuVerdict, paneView, remoteHealth } from '../helpers/fake-engine.js';
import { SeededRandom, testSeeds } from '../helpers/seeded-random.js';
import { collapsedHostId, collapsedHostOf } from '../../src/ui/hosts.js';

const lineVerdict = (options: string[]): PromptVerdict => ({
  prompt: true,
  reason: 'permission',
  busy: false,
  tool: 'generic',
  rule: 'generic/yes-no',
  line: 'Continue? [y/N]',
  answer: { kind: 'line', options },
});

function panes() {
  const menu = paneView({ state: 'stuck', reason: 'permission', quietSince: 0, stuckSince: 1_000, verdict: menuVerdict, screenHash: 'menu-1', contentHash: 'menu-1', pane: { sessionName: 'a', windowIndex: 1 } });
  const deploy = paneView({ state: 'stuck', reason: 'permission', quietSince: 500, stuckSince: 2_000, verdict: lineVerdict(['y', 'n', 'Enter']), screenHash: 'deploy-1', contentHash: 'deploy-1', pane: { sessionName: 'a', windowIndex: 2 } });
  const shell = paneView({ quietSince: 9_000, screenHash: 'shell-1', contentHash: 'shell-1', pane: { sessionName: 'b', windowIndex: 3, command: 'bash' } });
  return { menu, deploy, shell, all: [menu, deploy, shell] };
}

const key = (name: string, input = name.length === 1 ? name : ''): KeyPress => ({ name, input, ctrl: name.startsWith('ctrl+'), meta: false });

/** A dashboard in memory: keys go through the dispatcher, actions through the reducer. */
function dashboard(views: readonly PaneView[], options: { services?: ServicesSnapshot; hosts?: HostHealth[]; now?: number } = {}) {
  let ui: UiState = uiReducer(initialUiState, { type: 'sync', panes: views, now: options.now ?? 10_000 });
  let current = views;
  let now = options.now ?? 10_000;
  const effects: KeyEffect[] = [];
  const scene = (): KeyScene => ({
    ui,
    rows: visibleRows(ui, current, matchesFilter, options.hosts ?? [localHealth()]),
    hosts: options.hosts ?? [localHealth()],
    services: options.services ?? UNAVAILABLE_SERVICES,
    now,
    stateNow: now,
    activeWindowMs: 5_000,
  });
  return {
    effects,
    get ui() {
      return ui;
    },
    press(...names: string[]) {
      for (const name of names) {
        const outcome = dispatchKey(scene(), key(name));
        for (const action of outcome.actions) ui = uiReducer(ui, action);
        effects.push(...outcome.effects);
        now += 100;
      }
    },
    setPanes(next: readonly PaneView[]) {
      current = next;
      ui = uiReducer(ui, { type: 'sync', panes: next, now });
    },
    advance(ms: number) {
      now += ms;
    },
    scene,
  };
}

describe('dispatchKey', () => {
  it('moves with j, k, G and n, and acts on nothing outside the list', () => {
    const p = panes();
    const d = dashboard(p.all);
    expect(d.scene().rows.selectedId).toBe(p.menu.key);
    d.press('j');
    expect(d.ui.selectedId).toBe(p.deploy.key);
    d.press('G');
    expect(d.ui.selectedId).toBe(p.shell.key);
    d.press('n');
    expect(d.ui.selectedId).toBe(p.menu.key);
    expect(d.effects).toEqual([]);
  });

  it('answers the selected menu with the key alone, on the screen that was drawn when a was pressed', () => {
    const p = panes();
    const d = dashboard(p.all);
    d.press('a');
    expect(d.ui.mode).toBe('answer');
    expect(d.ui.targetHash).toBe('menu-1');
    d.press('2');
    expect(d.effects).toEqual([
      expect.objectContaining({ kind: 'answer', pane: p.menu, option: '2', shownHash: 'menu-1', what: '2' }),
    ]);
    expect(d.ui.answered).toEqual({ key: p.menu.key, hash: 'menu-1' });
    expect(d.ui.mode).toBe('normal');
  });

  it('refuses an answer when the screen changed after a was pressed, with no effect', () => {
    const p = panes();
    const d = dashboard(p.all);
    d.press('a');
    d.setPanes([{ ...p.menu, screenHash: 'menu-2', contentHash: 'menu-2' }, p.deploy, p.shell]);
    d.press('1');
    expect(d.effects).toEqual([]);
    expect(d.ui.status?.text).toContain('changed since it was drawn');
  });

  it('asks before a signal and sends it unguarded only on y', () => {
    const p = panes();
    const d = dashboard(p.all);
    d.press('a', 'ctrl+c');
    expect(d.ui.mode).toBe('confirm');
    d.press('x');
    expect(d.ui.status?.text).toBe('cancelled');
    d.press('a', 'ctrl+c', 'y');
    expect(d.effects).toEqual([
      expect.objectContaining({ kind: 'send', items: [{ kind: 'key', key: 'C-c' }], shownHash: null }),
    ]);
  });

  it('sends Esc only after a y, so a then Esc, Esc cancels as it always did', () => {
    const p = panes();
    const d = dashboard(p.all);
    d.press('a', 'escape');
    expect(d.ui.mode).toBe('confirm');
    expect(d.ui.pending?.items).toEqual([{ kind: 'key', key: 'Escape' }]);
    expect(d.ui.pending?.label).toBe('Esc');
    d.press('escape');
    expect(d.ui.mode).toBe('normal');
    expect(d.effects).toEqual([]);
    d.press('a', 'escape', 'y');
    expect(d.effects).toEqual([
      expect.objectContaining({ kind: 'send', pane: p.menu, items: [{ kind: 'key', key: 'Escape' }], shownHash: null }),
    ]);
  });

  it('types a letter after a only where the prompt offers it: e on git add -p, nothing on a menu', () => {
    const p = panes();
    const hunk = paneView({ state: 'stuck', reason: 'permission', quietSince: 0, stuckSince: 500, verdict: lineVerdict(['y', 'n', 'q', 'a', 'd', 'j', 'J', 'g', '/', 'e']), screenHash: 'hunk-1', contentHash: 'hunk-1', pane: { sessionName: 'g', windowIndex: 1 } });
    const d = dashboard([hunk, ...p.all]);
    expect(d.scene().rows.selectedId).toBe(hunk.key);
    d.press('a', 'e');
    expect(d.effects).toEqual([expect.objectContaining({ kind: 'answer', pane: hunk, option: 'e', what: 'e + Enter' })]);
    d.effects.length = 0;
    d.press('j');
    d.advance(1_000);
    expect(d.ui.selectedId).toBe(p.menu.key);
    for (const letter of ['e', 'd', 'c', 'z']) {
      d.press('a', letter);
      expect(d.ui.status?.text).toContain(`no quick answer ${letter} for`);
    }
    expect(d.effects).toEqual([]);
  });

  it('types a reply on Enter, and keeps it when the screen changed since the reply began', () => {
    const p = panes();
    const d = dashboard(p.all);
    d.press('r', 'n', 'o');
    expect(d.ui.draft).toBe('no');
    d.setPanes([{ ...p.menu, screenHash: 'menu-2', contentHash: 'menu-2' }, p.deploy, p.shell]);
    d.press('enter');
    expect(d.effects).toEqual([]);
    expect(d.ui.mode).toBe('reply');
    expect(d.ui.draft).toBe('no');
    d.press('enter');
    expect(d.effects).toEqual([
      expect.objectContaining({ kind: 'reply', text: 'no', shownHash: 'menu-2' }),
    ]);
  });

  it('quits on q and Ctrl-C, but Ctrl-C after the answer prefix is not a quit', () => {
    const p = panes();
    const d = dashboard(p.all);
    d.press('q');
    expect(d.effects).toEqual([{ kind: 'quit' }]);
    d.effects.length = 0;
    d.press('a', 'ctrl+c');
    expect(d.effects.some((e) => e.kind === 'quit')).toBe(false);
  });

  it('says a service is not available yet, and asks for the switch once it is', () => {
    const p = panes();
    const d = dashboard(p.all);
    d.press('w');
    expect(d.ui.status?.text).toBe('attach server: not available yet');
    expect(d.effects).toEqual([]);
    const on = dashboard(p.all, { services: { bridge: { status: 'off' }, attach: { status: 'off' } } });
    on.press('w');
    expect(on.effects).toEqual([{ kind: 'toggle', service: 'attach' }]);
  });

  it('refuses once a key on a selection that moved by itself a moment ago', () => {
    const p = panes();
    const d = dashboard(p.all);
    d.press('j');
    d.setPanes([p.menu, p.shell]);
    d.press('a');
    expect(d.ui.mode).not.toBe('answer');
    expect(d.ui.status?.text).toMatch(/the selection just moved to b:3\.0/);
    d.press('a');
    expect(d.ui.mode).toBe('answer');
  });

  it('snoozes only a stuck pane, through an effect', () => {
    const p = panes();
    const d = dashboard(p.all);
    d.press('s');
    expect(d.effects).toEqual([{ kind: 'snooze', key: p.menu.key }]);
    d.press('G', 's');
    expect(d.ui.status?.text).toBe('b:3.0 is not stuck');
    expect(d.effects).toHaveLength(1);
  });
});

describe('the selection after a filter', () => {
  /** `/` then the text, one key per character. */
  const filterFor = (d: ReturnType<typeof dashboard>, text: string) => d.press('/', ...[...text]);

  it.each([
    ['Esc clears the filter', ['escape']],
    ['Enter keeps the filter, then Esc clears it', ['enter', 'escape']],
  ])('stays on the pane chosen in the filter when %s', (_how, leave) => {
    const p = panes();
    const d = dashboard(p.all);
    d.press('j');
    expect(d.ui.selectedId).toBe(p.deploy.key);
    // Only the shell's session is `b`: the filter leaves it alone on screen, selected.
    filterFor(d, 'b:3');
    expect(d.scene().rows.visibleIds).toEqual([p.shell.key]);
    expect(d.scene().rows.selectedId).toBe(p.shell.key);
    d.press(...leave);
    expect(d.ui.filter).toBe('');
    expect(d.scene().rows.selectedId).toBe(p.shell.key);
    // What follows acts on that pane, not on the one selected before the filter.
    d.press('s');
    expect(d.ui.status?.text).toBe('b:3.0 is not stuck');
  });

  it('keeps the selection where it was when the filter matched nothing', () => {
    const p = panes();
    const d = dashboard(p.all);
    d.press('j');
    filterFor(d, 'zzz');
    expect(d.scene().rows.visibleIds).toEqual([]);
    d.press('escape');
    expect(d.scene().rows.selectedId).toBe(p.deploy.key);
  });
});

describe('every key gets an answer', () => {
  function offline() {
    const p = panes();
    const box = paneView({ key: 'box/%7', host: 'box', online: false, state: 'stuck', reason: 'permission', quietSince: 0, stuckSince: 1_000, verdict: lineVerdict(['y', 'n']), screenHash: 'box-1', contentHash: 'box-1', pane: { paneId: '%7', sessionName: 'c', windowIndex: 1 } });
    const hosts = [localHealth(), remoteHealth('box', { state: 'unreachable' })];
    return { p, box, d: dashboard([box, ...p.all], { hosts }) };
  }

  it('swallows the rest of a refused reply, so its letters never become commands', () => {
    const { box, d } = offline();
    d.press('G');
    expect(d.scene().rows.selectedId).toBe(box.key);
    d.press('r');
    expect(d.ui.status).toMatchObject({ text: expect.stringContaining('box is unreachable'), tone: 'warn' });
    // `w` would switch the attach server, `q` quit: typed as the reply, they do nothing.
    d.press('w', 'q', 'j');
    expect(d.effects).toEqual([]);
    expect(d.ui.selectedId).toBe(box.key);
    expect(d.ui.status?.text).toContain('box is unreachable');
    d.press('enter');
    expect(d.ui.mode).toBe('normal');
    // The Enter that ends the refused reply leaves the refusal to be read; the next key clears it.
    expect(d.ui.status?.text).toContain('box is unreachable');
    d.press('k');
    expect(d.ui.selectedId).not.toBe(box.key);
  });

  it('swallows the answer key after a refused a, and takes keys again after a pause', () => {
    const { box, d } = offline();
    d.press('G', 'a', 'q');
    expect(d.effects).toEqual([]);
    expect(d.ui.status?.text).toContain('box is unreachable');
    d.advance(2_000);
    d.press('k');
    expect(d.ui.selectedId).not.toBe(box.key);
  });


  it('names the real reason when the pane shows no prompt any more', () => {
    const p = panes();
    const d = dashboard(p.all);
    d.press('j');
    // The person typed into the prompt in the pane: the poll sees a screen without a prompt.
    const typedInto = { ...p.deploy, verdict: null, screenHash: 'deploy-2', contentHash: 'deploy-2' };
    d.setPanes([p.menu, typedInto, p.shell]);
    d.press('a', 'y');
    expect(d.effects).toEqual([]);
    expect(d.ui.status?.text).toBe('a:2.0 shows no prompt now, so y answers nothing; nothing was sent');
  });

  it('says the screen changed when it changed after a was pressed, whatever the key', () => {
    const p = panes();
    const d = dashboard(p.all);
    d.press('j', 'a');
    d.setPanes([p.menu, { ...p.deploy, verdict: null, screenHash: 'deploy-2', contentHash: 'deploy-2' }, p.shell]);
    d.press('y');
    expect(d.ui.status?.text).toMatch(/a:2\.0 changed since it was drawn; nothing was sent/);
  });

  it('clears a status message on the next key and after a few seconds', () => {
    const p = panes();
    const d = dashboard(p.all);
    d.press('G', 's');
    expect(d.ui.status?.text).toBe('b:3.0 is not stuck');
    d.press('k');
    expect(d.ui.status).toBeNull();
    d.press('G', 's');
    expect(d.ui.status).not.toBeNull();
    d.setPanes(p.all);
    d.advance(STATUS_MS);
    d.setPanes(p.all);
    expect(d.ui.status).toBeNull();
  });
});

/** Panes on `hosts` hosts, some waiting, some on a host that is down, from a seeded generator. */
function randomFleet(random: SeededRandom) {
  const names = ['local', ...Array.from({ length: random.int(1, 5) }, (_, i) => `box-${i + 1}`)];
  const down = random.chance(0.5) ? random.pick(names.slice(1)) : null;
  const views = names.flatMap((host) =>
    Array.from({ length: random.int(0, 8) }, (_, i) => {
      const stuck = random.chance(0.3);
      return paneView({
        host,
        online: host !== down,
        quietSince: random.int(0, 5_000),
        acknowledged: stuck && random.chance(0.2),
        ...(stuck ? { state: 'stuck' as const, reason: 'permission' as const, stuckSince: random.int(0, 5_000), verdict: menuVerdict } : {}),
        pane: { paneId: `%${i}`, sessionName: random.pick(['api', 'web']), windowIndex: i },
      });
    }),
  );
  const hosts = names.map((name) => (name === 'local' ? localHealth() : remoteHealth(name, name === down ? { state: 'unreachable' } : {})));
  return { views, hosts };
}

describe('collapsing hosts', () => {
  it('keeps a waiting pane selected when its host collapses, and selects a pane\'s host line otherwise', () => {
    const waiting = paneView({ host: 'box', state: 'stuck', reason: 'permission', stuckSince: 1_000, verdict: menuVerdict, pane: { paneId: '%1' } });
    const other = paneView({ host: 'box', quietSince: 2_000, pane: { paneId: '%2' } });
    const here = paneView({ quietSince: 3_000, pane: { paneId: '%3' } });
    const d = dashboard([waiting, other, here], { hosts: [localHealth(), remoteHealth('box')] });
    expect(d.scene().rows.visibleIds).toEqual([waiting.key, here.key, other.key]);
    d.press('space');
    expect(d.ui.collapsed).toEqual(['box']);
    expect(d.scene().rows.selectedId).toBe(waiting.key);
    expect(d.scene().rows.visibleIds).toEqual([waiting.key, here.key, collapsedHostId('box')]);
    d.press('space', 'j');
    expect(d.ui.collapsed).toEqual([]);
    expect(d.scene().rows.selectedId).toBe(here.key);
    d.press('space');
    expect(d.scene().rows.selectedId).toBe(collapsedHostId('local'));
    d.press('enter');
    expect(d.ui.collapsed).toEqual([]);
    expect(d.scene().rows.selectedId).toBe(here.key);
    expect(d.effects).toEqual([]);
  });

  it('says there is nothing to collapse with one host', () => {
    const d = dashboard(panes().all);
    d.press('space');
    expect(d.ui.status?.text).toBe('only one host is watched: there is nothing to collapse');
    d.press('H');
    expect(d.ui.collapsed).toEqual([]);
  });

  it('lists every pane once or counts it under its collapsed host, whatever the keys (generated)', () => {
    for (const seed of testSeeds(3103)) {
      const random = new SeededRandom(seed);
      for (let round = 0; round < 40; round++) {
        const { views, hosts } = randomFleet(random);
        const d = dashboard(views, { hosts });
        for (let step = 0; step < 30; step++) {
          d.press(random.pick(['j', 'k', 'g', 'G', 'n', 'space', 'space', 'H', 'enter', 'escape']));
          const rows = d.scene().rows;
          const where = `seed ${seed}, round ${round}, step ${step}`;
          expect(new Set(rows.visibleIds).size, where).toBe(rows.visibleIds.length);
          if (rows.visibleIds.length > 0) expect(rows.visibleIds, where).toContain(rows.selectedId);
          const groups = rows.groups ?? [];
          const listed = [...rows.waiting, ...groups.flatMap((g) => (g.collapsed ? [] : g.keys))];
          const counted = groups.filter((g) => g.collapsed).reduce((n, g) => n + g.panes - g.waiting, 0);
          expect(listed.length + counted, where).toBe(views.length);
          expect(new Set(listed).size, where).toBe(listed.length);
          for (const id of rows.visibleIds) {
            const host = collapsedHostOf(id);
            if (host !== null) expect(d.ui.collapsed, where).toContain(host);
          }
          // Waiting panes are the online, unsnoozed stuck ones, of every host.
          expect([...rows.waiting].sort(), where).toEqual(
            views.filter((v) => v.state === 'stuck' && !v.acknowledged && v.online).map((v) => v.key).sort(),
          );
        }
        expect(d.effects.every((e) => e.kind === 'jump'), `seed ${seed}`).toBe(true);
      }
    }
  });
});

/** The README's keys table, row by row: the keys as key names, whether they follow `a`, and the words. */
function readmeKeyRows(): Array<{ readonly afterA: boolean; readonly keys: string[]; readonly label: string }> {
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  const whole = /<!-- keys:start -->\n([\s\S]*?)\n<!-- keys:end -->/.exec(readme)?.[1] ?? '';
  // The text fields' keys come last, under their own title (checked below).
  const table = whole.split(`\n| **${LINE_KEYS_TITLE}** | |`)[0] ?? '';
  const named: Record<string, string> = { '↑': 'up', '↓': 'down', '←': 'left', '→': 'right', Enter: 'enter', Esc: 'escape', Tab: 'tab', Space: 'space', Home: 'home', End: 'end', Delete: 'delete', Backspace: 'backspace' };
  const nameOf = (label: string) => named[label] ?? label.replace(/^Ctrl-(.)$/, (_, c: string) => `ctrl+${c.toLowerCase()}`);
  return table
    .split('\n')
    .slice(2)
    .filter((line) => !line.startsWith('| **'))
    .map((line) => {
      const [, cell = '', label = ''] = /^\| (.*?) \| (.*) \|$/.exec(line) ?? [];
      const afterA = cell.startsWith('`a` then ');
      return { afterA, keys: [...cell.matchAll(/`([^`]+)`/g)].map((m) => nameOf(m[1] as string)).slice(afterA ? 1 : 0), label };
    });
}

/** What a key of each command must come to, pressed on the stuck menu pane with both services off. */
const NORMAL_OUTCOMES: Partial<Record<CommandName, (o: KeyOutcome) => void>> = {
  up: (o) => expect(o.actions).toContainEqual(expect.objectContaining({ type: 'move', delta: -1 })),
  down: (o) => expect(o.actions).toContainEqual(expect.objectContaining({ type: 'move', delta: 1 })),
  first: (o) => expect(o.actions).toContainEqual(expect.objectContaining({ type: 'first' })),
  last: (o) => expect(o.actions).toContainEqual(expect.objectContaining({ type: 'last' })),
  'next-stuck': (o) => expect(o.actions).toContainEqual(expect.objectContaining({ type: 'next-stuck' })),
  jump: (o) => expect(o.effects).toEqual([expect.objectContaining({ kind: 'jump' })]),
  reply: (o) => expect(o.actions).toContainEqual(expect.objectContaining({ type: 'start-reply' })),
  answer: (o) => expect(o.actions).toContainEqual(expect.objectContaining({ type: 'start-answer' })),
  snooze: (o) => expect(o.effects).toEqual([expect.objectContaining({ kind: 'snooze' })]),
  filter: (o) => expect(o.actions).toContainEqual(expect.objectContaining({ type: 'mode', mode: 'filter' })),
  help: (o) => expect(o.actions).toContainEqual(expect.objectContaining({ type: 'mode', mode: 'help' })),
  bridge: (o) => expect(o.effects).toEqual([{ kind: 'toggle', service: 'bridge' }]),
  attach: (o) => expect(o.effects).toEqual([{ kind: 'toggle', service: 'attach' }]),
  quit: (o) => expect(o.effects).toEqual([{ kind: 'quit' }]),
};

describe('the README keys table', () => {
  const rows = readmeKeyRows();
  const services: ServicesSnapshot = { bridge: { status: 'off' }, attach: { status: 'off' } };

  it('is read whole: every binding of the keymap has its row', () => {
    expect(rows.map((r) => r.label).sort()).toEqual(KEYMAP.map((b) => b.label).sort());
  });

  it.each(rows.filter((r) => !r.afterA))('$keys: $label', ({ keys, label }) => {
    const binding = KEYMAP.find((b) => b.label === label);
    for (const name of keys) {
      const outcome = dispatchKey(dashboard(panes().all, { services }).scene(), key(name));
      const expected = binding ? NORMAL_OUTCOMES[binding.command] : undefined;
      if (expected) expected(outcome);
      else expect(outcome.actions.length + outcome.effects.length, `${name} does nothing`).toBeGreaterThan(0);
    }
  });

  it.each(rows.filter((r) => r.afterA))('a then $keys: $label', ({ keys, label }) => {
    const binding = KEYMAP.find((b) => b.label === label);
    for (const name of keys) {
      const p = panes();
      const d = dashboard(p.all, { services });
      if (binding?.command === 'answer-option') {
        // The examples: a menu's numbers and Enter, a [y/N] prompt's letters.
        if (name === 'y' || name === 'n') d.press('j');
        d.advance(1_000);
        d.press('a', name);
        expect(d.effects).toEqual([expect.objectContaining({ kind: 'answer', option: name === 'enter' ? 'Enter' : name })]);
        continue;
      }
      d.press('a', name);
      if (binding?.confirm) {
        expect(d.ui.pending?.items, name).toEqual(binding.send);
        d.press('y');
      }
      expect(d.effects, name).toEqual([expect.objectContaining({ kind: 'send', pane: p.menu, items: binding?.send })]);
    }
  });

  it('lists the text fields\' keys, and each does its edit in a reply', () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const section = readme.split(`| **${LINE_KEYS_TITLE}** | |\n`)[1]?.split('\n<!-- keys:end -->')[0] ?? '';
    const named: Record<string, string> = { '←': 'left', '→': 'right', Home: 'home', End: 'end', Delete: 'delete', Backspace: 'backspace' };
    const listed = section.split('\n').map((line) => {
      const [, cell = '', label = ''] = /^\| (.*?) \| (.*) \|$/.exec(line) ?? [];
      const keys = [...cell.matchAll(/`([^`]+)`/g)].map((m) => named[m[1] as string] ?? (m[1] as string).replace(/^Ctrl-(.)$/, (_, c: string) => `ctrl+${c.toLowerCase()}`));
      return { keys, label };
    });
    expect(listed).toEqual(LINE_KEYS.map((k) => ({ keys: [...k.keys], label: k.label })));
    for (const row of LINE_KEYS) {
      for (const name of row.keys) {
        const d = dashboard(panes().all);
        d.press('r');
        d.press(...'abcde');
        d.press('left', 'left');
        const before = { text: d.ui.draft, cursor: d.ui.cursor };
        const outcome = dispatchKey(d.scene(), key(name));
        expect(outcome.actions, name).toEqual([expect.objectContaining({ type: 'edit', field: 'draft', edit: { kind: row.edit } })]);
        expect(before).toEqual({ text: 'abcde', cursor: 3 });
      }
    }
  });
});

describe('a reply into a pane that is not at a prompt', () => {
  it('asks first, naming what runs there; y starts the reply, any other key cancels', () => {
    const vim = paneView({ quietSince: 1_000, screenHash: 'vim-1', contentHash: 'vim-1', pane: { sessionName: 'edit', windowIndex: 1, command: 'vim' } });
    const d = dashboard([vim]);
    d.press('r');
    expect(d.ui.mode).toBe('confirm');
    expect(d.ui.pending?.label).toBe(`${vim.target} runs vim, which is not at a prompt corral recognises`);
    d.press('x');
    expect(d.ui.mode).toBe('normal');
    expect(d.ui.status?.text).toBe('cancelled');
    d.press('r', 'y');
    expect(d.ui.mode).toBe('reply');
    expect(d.ui.targetHash).toBe('vim-1');
    d.press('i', 'enter');
    expect(d.effects).toEqual([expect.objectContaining({ kind: 'reply', text: 'i', shownHash: 'vim-1' })]);
  });

  it('starts at once on a shell or a prompt', () => {
    const p = panes();
    const d = dashboard([p.shell]);
    d.press('r');
    expect(d.ui.mode).toBe('reply');
  });
});
