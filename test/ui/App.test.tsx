import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render } from 'ink-testing-library';
import { App } from '../../src/ui/App.js';
import { createServicesStore } from '../../src/ui/service-state.js';
import type { PromptVerdict } from '../../src/engine/types.js';
import { pressKeys } from '../helpers/ink-keys.js';
import { fakeActions, fakeEngine, menuVerdict, manualClock, paneView } from '../helpers/fake-engine.js';
import { realClock } from '../helpers/real-time.js';

afterEach(() => cleanup());

const ESC = '\u001b';
const frameOf = (r: { lastFrame: () => string | undefined }) => r.lastFrame() ?? '';
const until = (fn: () => void) => vi.waitFor(fn, { timeout: 2000, interval: 10 });
/** What a terminal sends for Ctrl-C. */
const CTRL_C = '\u0003';

const press = pressKeys;


function scene() {
  const stuck = paneView({
    state: 'stuck',
    reason: 'permission',
    quietSince: 40_000,
    stuckSince: 70_000,
    verdict: menuVerdict,
    pane: {
      sessionName: 'agents',
      windowIndex: 1,
      windowName: 'node',
      title: 'claude: fix tests',
      command: 'node',
      cwd: '/home/me/src/api',
    },
    lines: ['Do you want to proceed?', '\u001b[1m❯ 1. Yes\u001b[0m', '  2. No'],
  });
  const shell = paneView({
    quietSince: 20_000,
    pane: { sessionName: 'work', windowIndex: 2, windowName: 'bash', title: 'host', command: 'bash', cwd: '/tmp' },
  });
  const build = paneView({
    quietSince: 99_000,
    pane: {
      sessionName: 'work',
      windowIndex: 3,
      windowName: 'make',
      title: 'host',
      command: 'make',
      cwd: '/home/me/src/web',
    },
  });
  return { stuck, shell, build, panes: [build, shell, stuck] };
}

function mount(options: { columns?: number; rows?: number; now?: number } = {}) {
  const s = scene();
  const engine = fakeEngine(s.panes);
  const clock = manualClock(options.now ?? 100_000);
  const { actions, calls } = fakeActions();
  const services = createServicesStore();
  const r = render(
    <App
      engine={engine}
      actions={actions}
      services={services}
      clock={clock}
      tickMs={10}
      activeWindowMs={5_000}
      home="/home/me"
      hostName="host"
      size={{ columns: options.columns ?? 100, rows: options.rows ?? 30 }}
    />,
  );
  return { ...r, ...s, engine, clock, calls, services };
}

const lineWith = (frame: string, text: string) => frame.split('\n').find((l) => l.includes(text)) ?? '';

describe('App', () => {
  it('shows badges, targets, labels, short cwds and quiet timers, stuck first', async () => {
    const r = mount();
    await until(() => expect(frameOf(r)).toContain('STUCK permission'));
    const frame = frameOf(r);
    expect(frame).toContain('1 stuck · 1 quiet · 1 active · 3 total');
    expect(lineWith(frame, 'agents:1.0')).toMatch(
      /› STUCK permission\s+agents:1\.0\s+claude: fix tests\s+~\/src\/api\s+1m/,
    );
    expect(lineWith(frame, 'work:3.0')).toMatch(/active\s+work:3\.0\s+make\s+~\/src\/web\s+1s/);
    expect(lineWith(frame, 'work:2.0')).toMatch(/quiet\s+work:2\.0\s+bash\s+\/tmp\s+1m$/);
    const order = ['agents:1.0', 'work:2.0', 'work:3.0'].map((t) => frame.indexOf(t));
    expect(order).toEqual([...order].sort((a, b) => a - b));
    // The preview shows the selected pane's screen without escapes.
    expect(frame).toContain('❯ 1. Yes');
    expect(frame).not.toContain('\u001b[1m❯');
  });

  it('names what the selected wait asks in the preview title, cut keeping both ends', async () => {
    const r = mount({ columns: 80 });
    await until(() => expect(frameOf(r)).toContain('STUCK permission'));
    const stuck = r.engine.getSnapshot().panes.find((v) => v.state === 'stuck')!;
    const ask = 'Bash: rm -rf /home/me/src/api/build/very/deep/folder/of/generated/files';
    r.engine.setPanes(r.engine.getSnapshot().panes.map((v) => (v === stuck ? { ...v, attention: { ...v.attention, ask } } : v)));
    await until(() => expect(frameOf(r)).toContain('asks: Bash: rm'));
    const title = lineWith(frameOf(r), 'asks:');
    expect(title).toMatch(/asks: Bash: rm -rf \/home.*….*files/);
  });

  it('ticks the quiet timers from one clock: seconds under a minute, then minutes', async () => {
    const r = mount();
    await until(() => expect(lineWith(frameOf(r), 'work:3.0')).toMatch(/ 1s$/));
    r.clock.advance(30_000);
    await until(() => expect(lineWith(frameOf(r), 'work:3.0')).toMatch(/ 31s$/));
    await until(() => expect(lineWith(frameOf(r), 'work:2.0')).toMatch(/ 1m$/));
    r.clock.advance(35_000);
    await until(() => expect(lineWith(frameOf(r), 'work:2.0')).toMatch(/ 2m$/));
  });

  it('does not render again while the displayed values stay the same', async () => {
    const r = mount({ now: 3 * 3_600_000 });
    await until(() => expect(lineWith(frameOf(r), 'work:2.0')).toContain('2h59m'));
    const before = r.frames.length;
    // Ten seconds pass: every timer shows minutes or more, so nothing on screen changes.
    // The dashboard's own timer reads the clock on every tick: three reads after the jump mean it
    // has ticked past it, and a render it caused would be on screen by then.
    const reads = r.clock.reads;
    r.clock.advance(10_000);
    await until(() => expect(r.clock.reads).toBeGreaterThanOrEqual(reads + 3));
    expect(r.frames.length).toBe(before);
    r.clock.advance(60_000);
    await until(() => expect(lineWith(frameOf(r), 'work:2.0')).toContain('3h00m'));
  });

  it('marks active panes and counts them', async () => {
    const r = mount();
    await until(() => expect(frameOf(r)).toContain('1 active'));
    r.engine.setPanes([...r.panes.filter((p) => p !== r.shell), { ...r.shell, quietSince: 99_500 }], 99_500);
    await until(() => expect(frameOf(r)).toContain('2 active'));
    expect(lineWith(frameOf(r), 'work:2.0')).toMatch(/active/);
    r.clock.advance(6_000);
    await until(() => expect(lineWith(frameOf(r), 'work:2.0')).toMatch(/quiet/));
  });

  it('moves with j/k, g/G and n, and answers with the prefix key', async () => {
    const r = mount();
    await until(() => expect(frameOf(r)).toContain('› STUCK'));
    await press(r.stdin, 'j');
    await until(() => expect(lineWith(frameOf(r), 'work:2.0')).toContain('›'));
    await press(r.stdin, 'G');
    await until(() => expect(lineWith(frameOf(r), 'work:3.0')).toContain('›'));
    await press(r.stdin, 'n');
    await until(() => expect(lineWith(frameOf(r), 'agents:1.0')).toContain('›'));
    await press(r.stdin, 'a');
    await until(() => expect(frameOf(r)).toContain('answer agents:1.0'));
    await press(r.stdin, '2');
    await until(() =>
      expect(r.calls).toContainEqual({
        kind: 'answer',
        paneId: r.stuck.pane.paneId,
        option: '2',
        shownHash: r.stuck.contentHash,
      }),
    );
    await until(() => expect(frameOf(r)).toContain('sent 2 to agents:1.0'));
  });

  it('takes several keys arriving in one read one at a time', async () => {
    const r = mount();
    await until(() => expect(frameOf(r)).toContain('› STUCK'));
    r.stdin.write('/api\ra1');
    await until(() =>
      expect(r.calls).toContainEqual({
        kind: 'answer',
        paneId: r.stuck.pane.paneId,
        option: '1',
        shownHash: r.stuck.contentHash,
      }),
    );
  });

  it('asks before sending C-c (a, then Ctrl-C), and cancels on any other key', async () => {
    const r = mount();
    await until(() => expect(frameOf(r)).toContain('› STUCK'));
    await press(r.stdin, 'a', CTRL_C);
    await until(() => expect(frameOf(r)).toContain('send C-c to agents:1.0? y sends'));
    await press(r.stdin, 'x');
    await until(() => expect(frameOf(r)).toContain('cancelled'));
    expect(r.calls.filter((c) => c.kind === 'send')).toEqual([]);
    // Ctrl-D and Ctrl-Z arrive as their control bytes too, and ask the same way.
    for (const [byte, name] of [['\u0004', 'C-d'], ['\u001a', 'C-z']] as const) {
      await press(r.stdin, 'a', byte);
      await until(() => expect(frameOf(r)).toContain(`send ${name} to agents:1.0? y sends`));
      await press(r.stdin, 'n');
      await until(() => expect(frameOf(r)).toContain('cancelled'));
    }
    await press(r.stdin, 'a', CTRL_C, 'y');
    await until(() =>
      expect(r.calls).toContainEqual({
        kind: 'send',
        paneId: r.stuck.pane.paneId,
        items: [{ kind: 'key', key: 'C-c' }],
        shownHash: null,
      }),
    );
  });

  it('types a reply and sends it on Enter; Esc cancels', async () => {
    const r = mount();
    await until(() => expect(frameOf(r)).toContain('› STUCK'));
    await press(r.stdin, 'r', 'y', 'e', 's', '\u007f');
    await until(() => expect(frameOf(r)).toContain('reply to agents:1.0 › ye'));
    // Keys are text while typing: `q` does not quit.
    await press(r.stdin, 'q', '\r');
    await until(() =>
      expect(r.calls).toContainEqual({
        kind: 'reply',
        paneId: r.stuck.pane.paneId,
        text: 'yeq',
        shownHash: r.stuck.contentHash,
      }),
    );
    expect(r.calls.some((c) => c.kind === 'quit')).toBe(false);
    await press(r.stdin, 'r', 'x', ESC);
    await until(() => expect(frameOf(r)).toContain('reply cancelled'));
    expect(r.calls.filter((c) => c.kind === 'reply')).toHaveLength(1);
  });

  it('filters by text and clears with Esc', async () => {
    const r = mount();
    await until(() => expect(frameOf(r)).toContain('work:3.0'));
    await press(r.stdin, '/', 'w', 'e', 'b');
    await until(() => expect(frameOf(r)).not.toContain('agents:1.0'));
    expect(frameOf(r)).toContain('work:3.0');
    expect(frameOf(r)).not.toContain('work:2.0');
    await press(r.stdin, '\r');
    await until(() => expect(frameOf(r)).toContain('filter: web'));
    await press(r.stdin, ESC);
    await until(() => expect(frameOf(r)).toContain('agents:1.0'));
  });

  it('opens the help overlay from the keymap and closes it with any key', async () => {
    const r = mount({ rows: 40 });
    await until(() => expect(frameOf(r)).toContain('› STUCK'));
    await press(r.stdin, '?');
    await until(() => expect(frameOf(r)).toContain('Keys (any key closes this help)'));
    expect(frameOf(r)).toContain('snooze a stuck pane until it shows another prompt or new output');
    // The answers of the selected prompt, and no others.
    expect(frameOf(r)).toContain('Answer (agents:1.0)');
    expect(frameOf(r)).toMatch(/a 2\s+send 2/);
    expect(frameOf(r)).not.toMatch(/a 3\s/);
    expect(frameOf(r)).not.toMatch(/a y\s/);
    expect(frameOf(r)).toMatch(/a Ctrl-C\s+send C-c \(asks first\)/);
    expect(frameOf(r)).toMatch(/a Esc\s+send Esc/);
    await press(r.stdin, 'x');
    await until(() => expect(frameOf(r)).toContain('› STUCK'));
  });

  it('snoozes a stuck pane through the engine', async () => {
    const r = mount();
    await until(() => expect(frameOf(r)).toContain('› STUCK'));
    await press(r.stdin, 's');
    await until(() => expect(lineWith(frameOf(r), 'agents:1.0')).toContain('snoozed'));
    expect(r.engine.acknowledged).toEqual([r.stuck.pane.paneId]);
    expect(frameOf(r)).toContain('0 stuck (+1 snoozed)');
  });

  it('jumps, and shows the attach command when it cannot switch', async () => {
    const r = mount();
    await until(() => expect(frameOf(r)).toContain('› STUCK'));
    await press(r.stdin, '\r');
    await until(() => expect(frameOf(r)).toContain('tmux attach -t main:1.0'));
    expect(r.calls).toContainEqual({ kind: 'jump', paneId: r.stuck.pane.paneId });
  });

  it('says the servers are not available yet, and toggles them once they are', async () => {
    const r = mount();
    await until(() => expect(frameOf(r)).toContain('bridge n/a'));
    await press(r.stdin, 'b');
    await until(() => expect(frameOf(r)).toContain('chat bridge: not available yet'));
    r.services.update('bridge', { status: 'off' });
    await until(() => expect(frameOf(r)).toContain('bridge off'));
    await press(r.stdin, 'b');
    await until(() => expect(r.calls).toContainEqual({ kind: 'bridge' }));
    r.services.update('bridge', { status: 'on', url: 'http://127.0.0.1:7878' });
    await until(() => expect(frameOf(r)).toContain('bridge on 127.0.0.1:7878'));
  });

  it('says where a service is once it comes on, with the link it gives', async () => {
    const services = createServicesStore({ bridge: { status: 'off' }, attach: { status: 'off' } });
    const { actions } = fakeActions();
    const link = 'http://127.0.0.1:7878/login#token=abc';
    const toggleAttach = async () => services.update('attach', { status: 'on', url: 'http://127.0.0.1:7878/', link });
    const r = render(
      <App
        engine={fakeEngine(scene().panes)}
        actions={{ ...actions, toggleAttach }}
        services={services}
        clock={manualClock(100_000)}
        size={{ columns: 120, rows: 30 }}
      />,
    );
    await until(() => expect(frameOf(r)).toContain('attach off'));
    await press(r.stdin, 'w');
    await until(() => expect(frameOf(r)).toContain(`attach server on: ${link}`));
  });

  it('quits on q and on Ctrl-C', async () => {
    const r = mount();
    await until(() => expect(frameOf(r)).toContain('› STUCK'));
    await press(r.stdin, 'q', '\u0003');
    await until(() => expect(r.calls.filter((c) => c.kind === 'quit')).toHaveLength(2));
  });

  it('stays readable at 60 and 40 columns: columns drop by priority, lines never wrap', async () => {
    for (const columns of [60, 40]) {
      const r = mount({ columns, rows: 20 });
      await until(() => expect(frameOf(r)).toContain('STUCK'));
      const frame = frameOf(r);
      for (const line of frame.split('\n')) expect([...line].length).toBeLessThanOrEqual(columns);
      expect(frame).not.toContain('~/src/api');
      expect(lineWith(frame, 'agents:1.0')).toMatch(/ 1m$/);
      if (columns === 40) expect(frame).not.toContain('STUCK permission');
      r.unmount();
    }
  });

  it('hides the preview when the terminal is short and keeps the height below the terminal', async () => {
    const r = mount({ columns: 80, rows: 12 });
    await until(() => expect(frameOf(r)).toContain('STUCK'));
    expect(frameOf(r)).not.toContain('Do you want to proceed?');
    expect(frameOf(r).split('\n').length).toBeLessThan(12);
  });

  it('puts the preview beside the list on wide terminals', async () => {
    const r = mount({ columns: 160, rows: 30 });
    await until(() => expect(frameOf(r)).toContain('STUCK'));
    expect(lineWith(frameOf(r), 'STUCK permission')).toContain('Do you want to proceed?');
  });

  it('uses no colour escapes when colour is off', async () => {
    const s = scene();
    const r = render(
      <App
        engine={fakeEngine(s.panes)}
        actions={fakeActions().actions}
        clock={manualClock(100_000)}
        color={false}
        size={{ columns: 100, rows: 30 }}
      />,
    );
    await until(() => expect(frameOf(r)).toContain('STUCK'));
    // eslint-disable-next-line no-control-regex
    expect(frameOf(r)).not.toMatch(/\u001b\[3[0-9]m/);
  });

  it('shows why there are no panes when tmux has no server', async () => {
    const engine = fakeEngine([]);
    engine.setStatus('no-server', 'no tmux server is running on default server');
    const r = render(<App engine={engine} actions={fakeActions().actions} clock={realClock} size={{ columns: 100, rows: 30 }} />);
    await until(() => expect(frameOf(r)).toContain('no tmux server is running on default server'));
  });
});

const lineVerdict = (line: string, options: string[]): PromptVerdict => ({
  prompt: true,
  reason: 'permission',
  busy: false,
  tool: 'generic',
  rule: 'generic/yes-no',
  line,
  answer: { kind: 'line', options },
});

/** Two panes stuck at line prompts, [y/N] stuck longer than [Y/n], and a quiet shell. */
function twoPrompts() {
  const deploy = paneView({
    state: 'stuck',
    reason: 'permission',
    quietSince: 10_000,
    stuckSince: 40_000,
    verdict: lineVerdict('Continue? [y/N]', ['y', 'n', 'Enter']),
    pane: { sessionName: 'ops', windowIndex: 1, windowName: 'deploy', command: 'bash', title: 'host' },
    lines: ['Continue? [y/N]'],
    contentHash: 'deploy-1',
  });
  const remove = paneView({
    state: 'stuck',
    reason: 'permission',
    quietSince: 30_000,
    stuckSince: 60_000,
    verdict: lineVerdict('Do you want to continue? [Y/n]', ['y', 'n', 'Enter']),
    pane: { sessionName: 'ops', windowIndex: 2, windowName: 'apt', command: 'apt-get', title: 'host' },
    lines: ['The following packages will be REMOVED:', '  nginx', 'Do you want to continue? [Y/n]'],
    contentHash: 'remove-1',
  });
  const shell = paneView({
    quietSince: 5_000,
    pane: { sessionName: 'ops', windowIndex: 3, windowName: 'bash', command: 'bash', title: 'host' },
    lines: ['$'],
  });
  return { deploy, remove, shell, panes: [shell, remove, deploy] };
}

function mountPanes(panes: ReturnType<typeof paneView>[], options: { columns?: number; rows?: number } = {}) {
  const engine = fakeEngine(panes);
  const clock = manualClock(100_000);
  const screens = new Map<string, string>();
  const { actions, calls } = fakeActions(undefined, (id) => screens.get(id) ?? null);
  const r = render(
    <App
      engine={engine}
      actions={actions}
      clock={clock}
      tickMs={10}
      activeWindowMs={5_000}
      hostName="host"
      size={{ columns: options.columns ?? 100, rows: options.rows ?? 30 }}
    />,
  );
  return { ...r, engine, clock, calls, screens };
}

describe('App: the pane looked at', () => {
  it('focuses the selected pane while its preview is drawn, follows the selection, and lets go on exit', async () => {
    const r = mount();
    await until(() => expect(frameOf(r)).toContain('Do you want to proceed?'));
    const selectedFirst = r.engine.focused.at(-1);
    expect(selectedFirst).toHaveLength(1);
    expect(r.panes.map((p) => p.key)).toContain(selectedFirst![0]);
    await press(r.stdin, 'j');
    await until(() => expect(r.engine.focused.at(-1)).not.toEqual(selectedFirst));
    expect(r.engine.focused.at(-1)).toHaveLength(1);
    r.unmount();
    expect(r.engine.focused.at(-1)).toEqual([]);
  });

  it('focuses nothing when the terminal is too small for a preview', async () => {
    const r = mount({ columns: 40, rows: 5 });
    await until(() => expect(frameOf(r)).not.toBe(''));
    expect(r.engine.focused.length).toBeGreaterThan(0);
    expect(r.engine.focused.every((keys) => keys.length === 0)).toBe(true);
  });
});

describe('App: answers reach only the pane that was seen', () => {
  it('answers a [y/N] line prompt with y then Enter, keeps the answered pane selected, and sends nothing more', async () => {
    const t = twoPrompts();
    const r = mountPanes(t.panes);
    await until(() => expect(lineWith(frameOf(r), 'ops:1.0')).toContain('›'));
    expect(frameOf(r)).toContain('a: y n Enter · ');
    await press(r.stdin, 'a');
    await until(() => expect(frameOf(r)).toContain('answer ops:1.0'));
    expect(frameOf(r)).toContain('y n Enter (Enter follows)');
    await press(r.stdin, 'y');
    await until(() =>
      expect(r.calls).toEqual([
        {
          kind: 'answer',
          paneId: t.deploy.pane.paneId,
          option: 'y',
          shownHash: 'deploy-1',
        },
      ]),
    );
    // Marked answered, still selected, though the other pane is now the only stuck one.
    await until(() => expect(lineWith(frameOf(r), 'ops:1.0')).toMatch(/› answered/));
    // The reflex "a Enter": refused, on the answered pane, and nothing reaches the [Y/n] pane.
    await press(r.stdin, 'a', '\r');
    await until(() => expect(frameOf(r)).toContain('ops:1.0 was just answered'));
    // The poll sees the answer: the pane moves on, keeps the cursor and its row, and the mark goes.
    const after = {
      ...t.deploy,
      state: 'monitoring' as const,
      stuckSince: null,
      quietSince: 100_000,
      contentHash: 'deploy-2',
      verdict: null,
      lines: ['Continue? [y/N] y', 'deploying…'],
    };
    r.engine.setPanes([t.shell, t.remove, after], 100_000);
    await until(() => expect(lineWith(frameOf(r), 'ops:1.0')).toMatch(/› active/));
    await press(r.stdin, 'a', '\r');
    await until(() => expect(frameOf(r)).toContain('ops:1.0 shows no prompt now, so Enter answers nothing'));
    expect(r.calls).toHaveLength(1);
    expect(r.calls.some((c) => c.paneId === t.remove.pane.paneId)).toBe(false);
  });

  it('refuses when the screen changed between the answer key and the choice', async () => {
    const t = twoPrompts();
    const r = mountPanes(t.panes);
    await until(() => expect(lineWith(frameOf(r), 'ops:1.0')).toContain('›'));
    await press(r.stdin, 'a');
    await until(() => expect(frameOf(r)).toContain('answer ops:1.0'));
    r.engine.setPanes([t.shell, t.remove, { ...t.deploy, lines: ['redrawn', ...t.deploy.lines], screenHash: 'deploy-redrawn', contentHash: 'deploy-redrawn' }]);
    await until(() => expect(frameOf(r)).toContain('redrawn'));
    await press(r.stdin, 'y');
    await until(() => expect(frameOf(r)).toContain('ops:1.0 changed since it was drawn; nothing was sent'));
    expect(r.calls).toEqual([]);
  });

  it('refuses when the pane changed after it was last polled (checked at the moment of sending)', async () => {
    const t = twoPrompts();
    const r = mountPanes(t.panes);
    await until(() => expect(lineWith(frameOf(r), 'ops:1.0')).toContain('›'));
    r.screens.set(t.deploy.pane.paneId, 'typed-over');
    await press(r.stdin, 'a', 'n');
    await until(() => expect(frameOf(r)).toContain('ops:1.0 changed since it was drawn'));
    expect(r.calls).toEqual([]);
    // Not marked answered: nothing went out.
    expect(lineWith(frameOf(r), 'ops:1.0')).toContain('STUCK');
  });

  it('keeps a reply that could not go out, and sends it on the next Enter', async () => {
    const t = twoPrompts();
    const r = mountPanes(t.panes);
    await until(() => expect(lineWith(frameOf(r), 'ops:1.0')).toContain('›'));
    await press(r.stdin, 'r', 'n', 'o');
    r.engine.setPanes([t.shell, t.remove, { ...t.deploy, lines: ['redrawn', ...t.deploy.lines], screenHash: 'deploy-redrawn', contentHash: 'deploy-redrawn' }]);
    await until(() => expect(frameOf(r)).toContain('redrawn'));
    await press(r.stdin, '\r');
    await until(() => expect(frameOf(r)).toContain('changed since you began the reply'));
    expect(frameOf(r)).toContain('reply to ops:1.0 › no');
    expect(r.calls).toEqual([]);
    await press(r.stdin, '\r');
    await until(() =>
      expect(r.calls).toEqual([
        {
          kind: 'reply',
          paneId: t.deploy.pane.paneId,
          text: 'no',
          shownHash: 'deploy-redrawn',
        },
      ]),
    );
  });

  it('never finishes a key sequence on another pane: the answer key binds the pane, not the row', async () => {
    const t = twoPrompts();
    const r = mountPanes(t.panes);
    await until(() => expect(lineWith(frameOf(r), 'ops:1.0')).toContain('›'));
    await press(r.stdin, 'a');
    await until(() => expect(frameOf(r)).toContain('answer ops:1.0'));
    // The pane closes between the two keys; the [Y/n] pane takes its row and the selection.
    r.engine.setPanes([t.shell, t.remove]);
    await until(() => expect(lineWith(frameOf(r), 'ops:2.0')).toContain('›'));
    await press(r.stdin, 'y');
    await until(() => expect(frameOf(r)).toContain('that pane has closed; nothing was sent'));
    expect(r.calls).toEqual([]);
  });

  it('offers no quick answer and no reply for a password prompt', async () => {
    const secret = paneView({
      state: 'stuck',
      reason: 'permission',
      quietSince: 10_000,
      stuckSince: 40_000,
      verdict: { ...lineVerdict('[sudo] password for me:', []), answer: { kind: 'secret', options: [] } },
      pane: { sessionName: 'ops', windowIndex: 4, windowName: 'sudo', command: 'sudo' },
    });
    const r = mountPanes([secret]);
    await until(() => expect(lineWith(frameOf(r), 'ops:4.0')).toContain('›'));
    expect(frameOf(r)).not.toContain(' answer ·');
    await press(r.stdin, 'r');
    await until(() => expect(frameOf(r)).toContain('asks for a password or PIN'));
    await press(r.stdin, 'a');
    await until(() => expect(frameOf(r)).toContain('a password prompt: no quick answer'));
    await press(r.stdin, 'y');
    await until(() => expect(frameOf(r)).toContain('no quick answer y for ops:4.0'));
    expect(r.calls).toEqual([]);
  });

  it('refuses a key on a selection that has just moved by itself', async () => {
    const t = twoPrompts();
    const r = mountPanes(t.panes);
    await until(() => expect(lineWith(frameOf(r), 'ops:1.0')).toContain('›'));
    await press(r.stdin, 'j');
    await until(() => expect(lineWith(frameOf(r), 'ops:2.0')).toContain('›'));
    // The selected pane closes: the selection lands on a neighbour the person has not looked at.
    r.engine.setPanes([t.shell, t.deploy]);
    await until(() => expect(frameOf(r)).not.toContain('ops:2.0'));
    await press(r.stdin, 'a');
    await until(() => expect(frameOf(r)).toMatch(/the selection just moved to ops:\d\.0; look, then press again/));
    expect(frameOf(r)).not.toContain('answer ops:');
    // Told once; the next press acts.
    await press(r.stdin, 'a');
    await until(() => expect(frameOf(r)).toMatch(/answer ops:\d\.0/));
  });
});

describe('App: order, names and the first frames', () => {
  it('puts permission before stopped, starts on the most urgent pane, and at 80x24 shows the stuck panes and uses every row', async () => {
    const quiet = Array.from({ length: 12 }, (_, i) =>
      paneView({
        quietSince: i * 1_000,
        pane: { sessionName: 'work', windowIndex: i + 10, windowName: `job${i}`, command: 'bash' },
      }),
    );
    const stopped = paneView({
      state: 'stuck',
      reason: 'stopped',
      quietSince: 0,
      stuckSince: 1_000,
      pane: { sessionName: 'repl', windowIndex: 1, windowName: 'python3', command: 'python3' },
      lines: ['>>>'],
    });
    const permissions = [3, 4, 5].map((i) =>
      paneView({
        state: 'stuck',
        reason: 'permission',
        quietSince: 50_000,
        stuckSince: 90_000 + i,
        verdict: menuVerdict,
        pane: { sessionName: 'agents', windowIndex: i, windowName: `agent${i}`, command: 'node' },
        lines: ['Do you want to proceed?', '❯ 1. Yes', '  2. No'],
      }),
    );
    const r = mountPanes([...quiet, stopped, ...permissions], { columns: 80, rows: 24 });
    await until(() => expect(frameOf(r)).toContain('4 stuck'));
    const lines = frameOf(r).split('\n');
    const firstRows = lines.filter((l) => /^(› | {2})(STUCK|quiet|active)/.test(l)).slice(0, 4);
    expect(firstRows.map((l) => /(agents:\d|repl:\d)/.exec(l)?.[1])).toEqual([
      'agents:3',
      'agents:4',
      'agents:5',
      'repl:1',
    ]);
    expect(firstRows[0]).toContain('›');
    // One line short of the terminal (Ink redraws everything otherwise). The preview takes the
    // three lines its screen has, and the list every other row: 14 panes in view, none left blank.
    expect(lines).toHaveLength(23);
    expect(lines.filter((l) => /^(› | {2})(STUCK|quiet|active)/.test(l))).toHaveLength(14);
    expect(lines.slice(-5, -2)).toEqual(['Do you want to proceed?', '❯ 1. Yes', '  2. No']);
  });

  it('shows window names, with the title where it says more, and filters on window names', async () => {
    const build = paneView({
      pane: { sessionName: 'w', windowIndex: 1, windowName: 'build', title: 'make all', command: 'make' },
    });
    const agent = paneView({
      pane: { sessionName: 'w', windowIndex: 2, windowName: 'node', title: 'claude: fix tests', command: 'node' },
    });
    const plain = paneView({
      pane: { sessionName: 'w', windowIndex: 3, windowName: 'bash', title: 'host', command: 'bash' },
    });
    const r = mountPanes([build, agent, plain]);
    await until(() => expect(frameOf(r)).toContain('w:3.0'));
    expect(lineWith(frameOf(r), 'w:1.0')).toContain('build · make all');
    expect(lineWith(frameOf(r), 'w:2.0')).toContain('claude: fix tests');
    expect(lineWith(frameOf(r), 'w:3.0')).toMatch(/w:3\.0\s+bash/);
    await press(r.stdin, '/', 'b', 'u', 'i');
    await until(() => expect(frameOf(r)).not.toContain('w:3.0'));
    expect(frameOf(r)).toContain('w:1.0');
  });

  it('says loading until the first poll has answered, then lists every pane in the first frame that has them', async () => {
    const engine = fakeEngine([], '-L work');
    engine.setStatus('starting', null);
    const r = render(<App engine={engine} actions={fakeActions().actions} clock={realClock} size={{ columns: 100, rows: 30 }} />);
    await until(() => expect(frameOf(r)).toContain('loading…'));
    expect(frameOf(r)).toContain('corral · -L work · loading…');
    expect(frameOf(r)).not.toContain('0 total');
    const t = twoPrompts();
    const seen = r.frames.length;
    engine.setStatus('ok', null);
    engine.setPanes(t.panes);
    await until(() => expect(frameOf(r)).toContain('3 total'));
    const after = r.frames.slice(seen).filter((f) => f.includes('total'));
    for (const frame of after) {
      expect(frame).not.toContain('no panes');
      expect(frame).toContain('ops:1.0');
    }
  });
});
