import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render } from 'ink-testing-library';
import { App } from '../../src/ui/App.js';
import { createServicesStore } from '../../src/ui/services.js';
import { fakeActions, fakeEngine, manualClock, paneView } from '../helpers/fake-engine.js';

afterEach(() => cleanup());

const ESC = '\u001b';
const frameOf = (r: { lastFrame: () => string | undefined }) => r.lastFrame() ?? '';
const until = (fn: () => void) => vi.waitFor(fn, { timeout: 2000, interval: 10 });
// Ink reads a lone ESC only after a short pause (it may start a longer sequence).
const press = async (stdin: { write: (s: string) => void }, ...keys: string[]) => {
  for (const k of keys) {
    stdin.write(k);
    await new Promise((r) => setTimeout(r, k === ESC ? 60 : 5));
  }
};

function scene() {
  const stuck = paneView({
    state: 'stuck',
    reason: 'permission',
    quietSince: 40_000,
    stuckSince: 70_000,
    pane: {
      sessionName: 'agents',
      windowIndex: 1,
      title: 'claude: fix tests',
      command: 'node',
      cwd: '/home/me/src/api',
    },
    lines: ['Do you want to proceed?', '\u001b[1m❯ 1. Yes\u001b[0m', '  2. No'],
  });
  const shell = paneView({
    quietSince: 20_000,
    pane: { sessionName: 'work', windowIndex: 2, title: 'host', command: 'bash', cwd: '/tmp' },
  });
  const build = paneView({
    quietSince: 99_000,
    pane: { sessionName: 'work', windowIndex: 3, title: 'host', command: 'make', cwd: '/home/me/src/web' },
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
      /› STUCK permission\s+agents:1\.0\s+claude: fix tests\s+~\/src\/api\s+1m00s/,
    );
    expect(lineWith(frame, 'work:3.0')).toMatch(/active\s+work:3\.0\s+make\s+~\/src\/web\s+1s/);
    expect(lineWith(frame, 'work:2.0')).toMatch(/quiet\s+work:2\.0\s+bash\s+\/tmp\s+1m20s/);
    const order = ['agents:1.0', 'work:2.0', 'work:3.0'].map((t) => frame.indexOf(t));
    expect(order).toEqual([...order].sort((a, b) => a - b));
    // The preview shows the selected pane's screen without escapes.
    expect(frame).toContain('❯ 1. Yes');
    expect(frame).not.toContain('\u001b[1m❯');
  });

  it('ticks the quiet timers from one clock', async () => {
    const r = mount();
    await until(() => expect(lineWith(frameOf(r), 'work:2.0')).toContain('1m20s'));
    r.clock.advance(65_000);
    await until(() => expect(lineWith(frameOf(r), 'work:2.0')).toContain('2m25s'));
  });

  it('does not render again while the displayed values stay the same', async () => {
    const r = mount({ now: 3 * 3_600_000 });
    await until(() => expect(lineWith(frameOf(r), 'work:2.0')).toContain('2h59m'));
    const before = r.frames.length;
    r.clock.advance(10_000);
    await new Promise((resolve) => setTimeout(resolve, 100));
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
        kind: 'send',
        paneId: r.stuck.pane.paneId,
        items: [{ kind: 'text', text: '2' }],
      }),
    );
    await until(() => expect(frameOf(r)).toContain('sent 2 to agents:1.0'));
  });

  it('takes several keys arriving in one read one at a time', async () => {
    const r = mount();
    await until(() => expect(frameOf(r)).toContain('› STUCK'));
    r.stdin.write('/web\ra1');
    await until(() =>
      expect(r.calls).toContainEqual({
        kind: 'send',
        paneId: r.build.pane.paneId,
        items: [{ kind: 'text', text: '1' }],
      }),
    );
  });

  it('asks before sending C-c, and cancels on any other key', async () => {
    const r = mount();
    await until(() => expect(frameOf(r)).toContain('› STUCK'));
    await press(r.stdin, 'a', 'c');
    await until(() => expect(frameOf(r)).toContain('send C-c to agents:1.0? y sends'));
    await press(r.stdin, 'x');
    await until(() => expect(frameOf(r)).toContain('cancelled'));
    expect(r.calls.filter((c) => c.kind === 'send')).toEqual([]);
    await press(r.stdin, 'a', 'c', 'y');
    await until(() =>
      expect(r.calls).toContainEqual({
        kind: 'send',
        paneId: r.stuck.pane.paneId,
        items: [{ kind: 'key', key: 'C-c' }],
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
    await until(() => expect(r.calls).toContainEqual({ kind: 'reply', paneId: r.stuck.pane.paneId, text: 'yeq' }));
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
    expect(frameOf(r)).toContain('snooze a stuck pane until its screen changes');
    expect(frameOf(r)).toContain('a c');
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

  it('shows the browser link the attach server gives once it is on', async () => {
    const r = mount();
    await until(() => expect(frameOf(r)).toContain('› STUCK'));
    r.services.update('attach', { status: 'on', url: 'http://127.0.0.1:7878/', link: 'http://127.0.0.1:7878/?code=abc' });
    await until(() => expect(frameOf(r)).toContain('attach on 127.0.0.1:7878'));
    await press(r.stdin, 'w');
    await until(() => expect(r.calls).toContainEqual({ kind: 'attach' }));
    await until(() => expect(frameOf(r)).toContain('attach server: open http://127.0.0.1:7878/?code=abc'));
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
      expect(lineWith(frame, 'agents:1.0')).toContain('1m00s');
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
    const r = render(<App engine={engine} actions={fakeActions().actions} size={{ columns: 100, rows: 30 }} />);
    await until(() => expect(frameOf(r)).toContain('no tmux server is running on default server'));
  });
});
