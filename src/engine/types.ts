// Plain data shared by the engine, the dashboard and the servers.
// Nothing here does I/O; every other part of corral speaks in these shapes.

import type { AttentionView } from './attention/attention.js';
import type { AnswerMark } from './attention/record.js';

export type { AttentionView, AnswerMark };

/** Which tmux server to talk to: the default one, `-L name` or `-S path`. */
export type TmuxSocket =
  | { readonly kind: 'default' }
  | { readonly kind: 'name'; readonly name: string }
  | { readonly kind: 'path'; readonly path: string };

/** The host every pane belongs to unless corral is told about others (`--host`). */
export const LOCAL_HOST = 'local';

/** One machine corral watches: its own (`ssh: null`) or one reached over ssh. */
export interface HostSpec {
  /** Short label shown in the dashboard and used in pane keys, model ids and attach paths. */
  readonly name: string;
  /** The ssh destination (`build-box`, `me@10.0.0.5`), or null for this machine. */
  readonly ssh: string | null;
  /** The tmux server on that host. */
  readonly socket: TmuxSocket;
}

/**
 * How a host is doing:
 * - `connecting`: no answer yet (first contact, or a reconnect in progress);
 * - `connected`: the last poll got an answer (a host without a tmux server is still connected);
 * - `unreachable`: ssh could not reach the host (down, network, timeout);
 * - `auth-failed`: ssh reached the host and was refused (key, host key, password required).
 */
export type HostState = 'connecting' | 'connected' | 'unreachable' | 'auth-failed';

export interface HostHealth {
  readonly name: string;
  readonly ssh: string | null;
  /** The tmux server on that host, for people (`default server`, `-L work`). */
  readonly server: string;
  readonly state: HostState;
  /** When the host entered this state (ms, local clock). */
  readonly since: number;
  /** The engine status of that host's tmux server. */
  readonly status: EngineStatus;
  /** The last error line (ssh's own words for auth-failed and unreachable), null when fine. */
  readonly error: string | null;
  readonly paneCount: number;
  /** When the next reconnect attempt is due (ms), while the host is down. */
  readonly retryAt: number | null;
}

/** What `list-panes -a` tells about one pane. */
export interface PaneInfo {
  readonly paneId: string; // "%3"
  readonly sessionId: string; // "$1"
  readonly sessionName: string;
  readonly windowId: string; // "@2"
  readonly windowIndex: number;
  readonly windowName: string;
  readonly paneIndex: number;
  readonly title: string;
  readonly cwd: string;
  readonly command: string;
  readonly pid: number;
  readonly dead: boolean;
  readonly width: number;
  readonly height: number;
  readonly inMode: boolean;
  readonly alternateOn: boolean;
  /** Last activity of the pane's window, epoch ms (tmux gives 1 s resolution). */
  readonly windowActivity: number;
  /** The pane's `@corral_hook` option: its agent's last hook event as corral recorded it ('' when none). */
  readonly hookRecord: string;
  /**
   * The pane's `@corral_quiet` option: since when the corral that watches it saw its screen still,
   * and that screen's hash (see quiet-record.ts; '' when none). Read from full listings only.
   */
  readonly quietRecord: string;
  /** The pane's `@corral_attention` option: what needs the person there and what they saw and decided (attention/record.ts; '' when none). */
  readonly attentionRecord: string;
}

export type StuckReason = 'permission' | 'stopped';

/** What made a pane stuck: its screen (a prompt held still), or its agent's hook (a permission request, a finished turn). */
export type StuckSource = 'screen' | 'hook';

/**
 * How a person answers a prompt:
 * - `key`: one key acts at once (a numbered menu, a dialog with a highlighted choice);
 * - `line`: text, then Enter (`[y/N]`, `(yes/no)`, `git add -p`, a shell or a REPL);
 * - `secret`: a password, passphrase or PIN, typed by the person only (no quick answer).
 */
export type AnswerKind = 'key' | 'line' | 'secret';

export interface PromptAnswer {
  readonly kind: AnswerKind;
  /**
   * The quick answers valid for this prompt, in the order shown: text typed as is (`1`, `y`,
   * `yes`), or the key name `Enter` (take the highlighted or default choice). For a `line` prompt
   * Enter follows the text. Empty for secrets and for prompts that take free text.
   */
  readonly options: readonly string[];
}

/** Why a screen does (or does not) wait for a person. Output of the prompt matcher. */
export interface PromptVerdict {
  readonly prompt: boolean;
  readonly reason: StuckReason | null;
  readonly busy: boolean;
  readonly tool: string | null;
  readonly rule: string | null;
  /** The line the verdict is about (the prompt line, or the busy line). */
  readonly line: string;
  /** How the prompt is answered; null when the screen shows no prompt. */
  readonly answer: PromptAnswer | null;
  /**
   * The prompt is the program's own menu, which the person opened (a model picker, help, settings):
   * it waits for them as an idle input does (reason `stopped`), and says so.
   */
  readonly menu?: true;
}

/** Tracking states from the detector design: registered -> monitoring <-> stuck -> ended. */
export type PaneState = 'registered' | 'monitoring' | 'stuck' | 'ended';

export interface PaneView {
  /** The pane's key across hosts (see paneKey): `%3` on the local host, `build-box/%3` elsewhere. */
  readonly key: string;
  readonly host: string;
  /** False while the pane's host is down: the view is the last one seen, greyed by readers. */
  readonly online: boolean;
  readonly pane: PaneInfo;
  /** `session:window.pane` */
  readonly target: string;
  /** Opt-in label (`alpha` for a pane titled `@tb-alpha: ...`), when the prefix is present. */
  readonly label: string | null;
  /** Synthetic tracking id `tmux-%ID-<ms>`. */
  readonly trackingId: string;
  readonly state: PaneState;
  readonly reason: StuckReason | null;
  readonly message: string | null;
  readonly verdict: PromptVerdict | null;
  readonly registeredAt: number;
  /** When the screen last changed, animation included (ms): the quiet timer. */
  readonly quietSince: number;
  /**
   * Since when the screen has shown the prompt it waits at (animation aside), or null when it
   * waits for nothing: what `stuck` is measured against.
   */
  readonly waitSince: number | null;
  readonly stuckSince: number | null;
  /** Snoozed by the person until it shows another prompt or new output (the same as attention.snoozed). */
  readonly acknowledged: boolean;
  /** What needs the person here, and what they have seen and decided (attention/attention.ts). */
  readonly attention: AttentionView;
  /** Visible screen, trailing spaces and trailing blank lines removed. Empty before the first capture. */
  readonly lines: readonly string[];
  readonly screenHash: string;
  /**
   * The screen's hash with animation masked (blinking bullets, spinners, running times; see
   * screen-content.ts): what a person saw, for guards and marks that must not fall to a blink.
   */
  readonly contentHash: string;
  /** What the agent's hooks last said about this pane; null when no hook has reached it. */
  readonly hook: HookView | null;
}

/** The agents whose hooks corral can install and read. */
export const AGENTS = ['claude-code', 'codex', 'gemini-cli'] as const;
export type AgentName = (typeof AGENTS)[number];

/**
 * An agent hook call reduced to what the pane machine needs:
 * - `prompt`: a prompt was submitted, a turn runs;
 * - `tool`: a tool ran (so any permission dialog was answered), the turn goes on;
 * - `permission`: the agent asks for permission (before its dialog is drawn);
 * - `stop`: the turn is over (or was interrupted); the agent waits for the next prompt;
 * - `end`: the session ended; the screen decides again.
 */
export type HookSignal = 'prompt' | 'tool' | 'permission' | 'stop' | 'end';

export interface HookEvent {
  readonly agent: AgentName;
  readonly signal: HookSignal;
  /** The agent's own event name (`PermissionRequest`, `AfterAgent`, ...). */
  readonly event: string;
  readonly sessionId: string;
  readonly transcriptPath: string;
  readonly cwd: string;
  /** For permission: what is asked ("Bash: rm -rf build"). */
  readonly message: string | null;
}

/** What a hook claims about the pane until the next hook, or until the screen overrules it. */
export type HookClaim = 'permission' | 'working' | 'waiting';

export interface HookView {
  readonly agent: AgentName;
  readonly sessionId: string;
  readonly transcriptPath: string;
  /** The claim in force (null after the session ended or the screen overruled it). */
  readonly claim: HookClaim | null;
  readonly claimSince: number;
  readonly lastEvent: string;
  readonly lastEventAt: number;
  /** Set while the screen contradicts the claim, or after it overruled it (until the next hook). */
  readonly disagreement: HookDisagreement | null;
}

export interface HookDisagreement {
  readonly claim: HookClaim;
  /** What the screen showed instead: `busy`, `stopped`. */
  readonly screen: string;
  readonly since: number;
  /** True once the screen has won: the claim no longer counts. */
  readonly overruled: boolean;
}

export type EngineStatus = 'starting' | 'ok' | 'no-server' | 'no-tmux' | 'error';

export interface EngineSnapshot {
  readonly server: string;
  /** Every host watched, local first; one entry when corral watches only this machine. */
  readonly hosts: readonly HostHealth[];
  readonly status: EngineStatus;
  readonly statusMessage: string | null;
  readonly panes: readonly PaneView[];
  readonly updatedAt: number;
  readonly cycle: number;
}

/** The read side every UI and server uses (fits React's useSyncExternalStore). */
export interface EngineStore {
  getSnapshot(): EngineSnapshot;
  subscribe(listener: () => void): () => void;
}

interface EventBase {
  /** The pane's host (`local` unless corral watches others). */
  readonly host: string;
  /** The pane's key across hosts (see paneKey). */
  readonly key: string;
  readonly sessionId: string;
  readonly paneId: string;
  readonly timestamp: number;
}

export type CorralEvent =
  | (EventBase & { readonly type: 'registered'; readonly cwd: string; readonly transcriptPath: string })
  | (EventBase & {
      readonly type: 'stuck';
      readonly cwd: string;
      /** The agent's transcript when its hooks told it (else empty). */
      readonly transcriptPath: string;
      readonly reason: StuckReason;
      readonly message: string;
      readonly source: StuckSource;
    })
  | (EventBase & { readonly type: 'unstuck' })
  | (EventBase & { readonly type: 'ended'; readonly why: EndReason });

/** Why a pane stopped being watched: it closed, left the scope, its tmux server or its host went away. */
export type EndReason = 'closed' | 'out-of-scope' | 'server-gone' | 'host-gone';

/** Injected time source, so tests drive time by hand. */
export interface Clock {
  now(): number;
}

/** Injected timers, so tests fire them by hand. */
export interface Timers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** What the dashboard and the servers may ask of the running engine besides reading the store. */
export interface EngineHandle extends EngineStore {
  /** Snoozes a stuck pane until it shows another prompt or new output (kept in its attention record). */
  acknowledge(key: string): void;
  /** The person looked at the pane (a jump went there, its page card or terminal was opened). */
  markSeen(key: string): void;
  /** An answer was typed into the pane on the screen of content hash `contentHash`, from `surface`. */
  markAnswered(key: string, answer: { readonly surface: string; readonly what: string }, contentHash: string): void;
  /**
   * The panes a person looks at now (the dashboard's selection), in place of the last call's: each
   * is captured whenever it printed, every poll, where a pane that keeps printing is otherwise
   * followed at a steady pace.
   */
  focus(keys: readonly string[]): void;
  /** Runs one poll cycle now (e.g. right after typing into a pane). */
  pollNow(): Promise<void>;
  onEvent(listener: (event: CorralEvent) => void): () => void;
}
