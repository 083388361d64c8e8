// Hand-driven stand-ins for the engine side: pane listings and views with sensible defaults, an
// engine store whose panes a test sets, and dashboard actions that record what was asked.

import type { AttentionView, CorralEvent, EngineHandle, EngineSnapshot, HostHealth, PaneInfo, PaneView, PromptVerdict } from '../../src/engine/types.js';
import type { SendItem } from '../../src/engine/typing/keys.js';
import { planAnswer } from '../../src/engine/typing/answer-plan.js';
import type { StartRequest } from '../../src/engine/launch/pane-launch.js';
import { paneKey } from '../../src/engine/pane/pane-key.js';
import type { DashboardActions, JumpResult } from '../../src/ui/actions.js';

export interface FakeEngine extends EngineHandle {
  setPanes(panes: readonly PaneView[], updatedAt?: number): void;
  setStatus(status: EngineSnapshot['status'], message: string | null): void;
  /** Replaces the hosts' health (local first, as the engine reports them). */
  setHosts(hosts: readonly HostHealth[]): void;
  /** Keys of the panes acknowledged, in order. */
  readonly acknowledged: string[];
  /** Each focus() call's keys, in order. */
  readonly focused: (readonly string[])[];
  /** Keys of the panes marked seen, and the answers marked, in order. */
  readonly seen: string[];
  readonly answered: { key: string; surface: string; what: string }[];
}

export function fakeEngine(
  panes: readonly PaneView[] = [],
  server = 'default server',
  hosts: readonly HostHealth[] = [localHealth(server)],
): FakeEngine {
  let snapshot: EngineSnapshot = { server, hosts, status: 'ok', statusMessage: null, panes, updatedAt: 0, cycle: 1 };
  const listeners = new Set<() => void>();
  const publish = (next: EngineSnapshot) => {
    snapshot = next;
    for (const l of [...listeners]) l();
  };
  const acknowledged: string[] = [];
  const focused: (readonly string[])[] = [];
  const seen: string[] = [];
  const answered: { key: string; surface: string; what: string }[] = [];
  return {
    acknowledged,
    focused,
    seen,
    answered,
    focus(keys) {
      focused.push([...keys]);
    },
    getSnapshot: () => snapshot,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    acknowledge(key) {
      acknowledged.push(key);
      publish({
        ...snapshot,
        panes: snapshot.panes.map((v) => (v.key === key ? { ...v, acknowledged: true, attention: fakeAttention(v.state, v.reason, true) } : v)),
      });
    },
    markSeen(key) {
      seen.push(key);
    },
    markAnswered(key, answer) {
      answered.push({ key, ...answer });
    },
    pollNow: async () => {},
    onEvent: (_listener: (event: CorralEvent) => void) => () => {},
    setPanes(next, updatedAt = snapshot.updatedAt) {
      publish({ ...snapshot, panes: next, updatedAt, cycle: snapshot.cycle + 1 });
    },
    setStatus(status, message) {
      publish({ ...snapshot, status, statusMessage: message });
    },
    setHosts(next) {
      publish({ ...snapshot, hosts: next, cycle: snapshot.cycle + 1 });
    },
  };
}

let nextPane = 1;

/** A tmux pane listing; each call without a paneId gets the next id (%1, %2, ...). */
export function paneInfo(overrides: Partial<PaneInfo> = {}): PaneInfo {
  const n = nextPane++;
  return {
    paneId: `%${n}`,
    sessionId: '$0',
    sessionName: 'main',
    windowId: `@${n}`,
    windowIndex: n,
    windowName: 'bash',
    paneIndex: 0,
    title: 'host',
    cwd: '/home/me/src/app',
    command: 'bash',
    pid: 1000 + n,
    dead: false,
    width: 80,
    height: 24,
    inMode: false,
    alternateOn: false,
    windowActivity: 0,
    hookRecord: '',
    quietRecord: '',
    attentionRecord: '',
    ...overrides,
  };
}

export function paneView(overrides: Partial<Omit<PaneView, 'pane'>> & { pane?: Partial<PaneInfo> } = {}): PaneView {
  const pane = paneInfo(overrides.pane);
  const { pane: _ignored, ...rest } = overrides;
  return {
    key: rest.host && rest.host !== 'local' ? `${rest.host}/${pane.paneId}` : pane.paneId,
    host: 'local',
    online: true,
    pane,
    target: `${pane.sessionName}:${pane.windowIndex}.${pane.paneIndex}`,
    label: null,
    trackingId: `tmux-${pane.paneId}-0`,
    state: 'monitoring',
    reason: null,
    message: null,
    verdict: null,
    registeredAt: 0,
    quietSince: 0,
    waitSince: null,
    stuckSince: null,
    acknowledged: false,
    lines: [],
    screenHash: `h${pane.paneId}`,
    // Tests that give a screen hash mean its content too, unless they say otherwise.
    contentHash: rest.screenHash ?? `h${pane.paneId}`,
    hook: null,
    ...rest,
    attention: rest.attention ?? fakeAttention(rest.state ?? 'monitoring', rest.reason ?? null, rest.acknowledged ?? false),
  };
}

/** A view with some fields changed, its attention following its new state (unless the changes give one). */
export function restate(view: PaneView, changes: Partial<PaneView>): PaneView {
  const next = { ...view, ...changes };
  return { ...next, attention: changes.attention ?? fakeAttention(next.state, next.reason, next.acknowledged) };
}

/**
 * The attention a test's view has unless it says otherwise: a stuck pane needs the person (a
 * permission prompt asks, a stopped one is new) until it is snoozed.
 */
export function fakeAttention(state: PaneView['state'], reason: PaneView['reason'], snoozed: boolean): AttentionView {
  const need = state !== 'stuck' || snoozed ? null : reason === 'permission' ? 'asks' : 'new';
  return { need, seenAt: null, snoozed: state === 'stuck' && snoozed, answered: null, ask: null, worked: true, record: '' };
}

export interface RecordedAction {
  /** `answer`, `send`, `reply` (typing), `jump`, `bridge`, `attach`, `quit`. */
  readonly kind: string;
  /** The pane's key (`%3`, `build-box/%3`): what the dashboard identifies the pane by. */
  readonly paneId?: string;
  /** The option an answer gives (as the prompt names it). */
  readonly option?: string;
  readonly items?: readonly SendItem[];
  /** A reply's text. */
  readonly text?: string;
  readonly shownHash?: string | null;
  /** What `start` was asked for (host and request). */
  readonly start?: { readonly host: string; readonly request: StartRequest };
  /** The process `end` was asked to end. */
  readonly pid?: number;
}

/**
 * Dashboard actions that record what was asked. Typing fails like the real port would when
 * `screenNow` (the pane's screen hash at the moment of sending) differs from the one drawn, and an
 * answer is planned by the engine's answer plan on the pane's verdict, as the port plans it.
 */
export function fakeActions(
  jump: JumpResult = { switched: false, message: 'tmux attach -t main:1.0' },
  screenNow: (key: string) => string | null = () => null,
  /** `start` fails with this message (null: it starts `%77`). */
  startFails: string | null = null,
) {
  const calls: RecordedAction[] = [];
  const refuseIfChanged = (pane: PaneView, shownHash: string | null) => {
    const now = screenNow(pane.key);
    if (shownHash !== null && now !== null && now !== shownHash) {
      throw new Error(`${pane.target} changed since it was drawn; nothing was sent: look again, then answer`);
    }
  };
  const actions: DashboardActions = {
    answer: async (pane, option, shownHash) => {
      const plan = planAnswer(pane.verdict, option, pane.target);
      refuseIfChanged(pane, shownHash);
      calls.push({ kind: 'answer', paneId: pane.key, option, shownHash });
      return plan;
    },
    send: async (pane, items, shownHash) => {
      refuseIfChanged(pane, shownHash);
      calls.push({ kind: 'send', paneId: pane.key, items, shownHash });
    },
    reply: async (pane, text, shownHash) => {
      refuseIfChanged(pane, shownHash);
      calls.push({ kind: 'reply', paneId: pane.key, text, shownHash });
    },
    jumpTo: async (pane) => {
      calls.push({ kind: 'jump', paneId: pane.key });
      return jump;
    },
    start: async (host, request) => {
      calls.push({ kind: 'start', start: { host, request } });
      if (startFails !== null) throw new Error(startFails);
      return { paneId: '%77', key: paneKey(host, '%77'), name: request.name ?? 'cmd', cwd: request.cwd, worktree: null, newSession: false };
    },
    end: async (pane, pid) => void calls.push({ kind: 'end', paneId: pane.key, pid }),
    toggleBridge: async () => void calls.push({ kind: 'bridge' }),
    toggleAttach: async () => void calls.push({ kind: 'attach' }),
    quit: () => void calls.push({ kind: 'quit' }),
  };
  return { actions, calls };
}

export function manualClock(start = 0) {
  let now = start;
  const clock = {
    /** How many times the clock was read: a count of the reader's own ticks. */
    reads: 0,
    now: () => {
      clock.reads += 1;
      return now;
    },
    set(ms: number) {
      now = ms;
    },
    advance(ms: number) {
      now += ms;
    },
  };
  return clock;
}

/** The health of the local host as a running engine reports it. */
export function localHealth(server = 'default server', overrides: Partial<HostHealth> = {}): HostHealth {
  return {
    name: 'local',
    ssh: null,
    server,
    state: 'connected',
    since: 0,
    status: 'ok',
    error: null,
    paneCount: 0,
    retryAt: null,
    ...overrides,
  };
}

/** The health of a host reached over ssh (connected unless told otherwise). */
export function remoteHealth(name: string, overrides: Partial<HostHealth> = {}): HostHealth {
  return localHealth('default server', { name, ssh: name, ...overrides });
}

/** The settings a pane port takes, at their defaults but for a quick bridge poll and no attach grace. */
export const PORT_SETTINGS = {
  bridgePollMs: 100,
  bridgeQuietMs: 800,
  bridgeLongQuietMs: 60_000,
  bridgeMaxDurationMs: 600_000,
  bridgeHistoryLines: 100,
  attachRingBytes: 1 << 16,
  attachPauseAfter: 0,
  attachGraceMs: 0,
};

/** What the matcher says of Claude Code's permission menu (keys 1, 2 or Enter). */
export const menuVerdict: PromptVerdict = {
  prompt: true,
  reason: 'permission',
  busy: false,
  tool: 'claude-code',
  rule: 'claude-code/permission-menu',
  line: 'Do you want to proceed?',
  answer: { kind: 'key', options: ['1', '2', 'Enter'] },
};
