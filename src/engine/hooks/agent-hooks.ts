// What corral asks of each agent's hooks: the events it registers (only those it needs: every
// hook call costs the agent time on its turn) and how an event becomes a pane-machine signal.
// Pure data and functions; the installer (src/cli) and the receiver (src/server) both use them.

import { AGENTS, type AgentName, type HookEvent, type HookSignal } from '../types.js';

export interface AgentHookSpec {
  readonly agent: AgentName;
  readonly displayName: string;
  /** The events corral registers, each mapped to the signal it gives (null: ignored). */
  readonly events: Readonly<Record<string, HookSignal>>;
  /** Units of the `timeout` field in the agent's hook entries. */
  readonly timeoutUnit: 'seconds' | 'milliseconds';
}

export const AGENT_HOOKS: Readonly<Record<AgentName, AgentHookSpec>> = {
  'claude-code': {
    agent: 'claude-code',
    displayName: 'Claude Code',
    events: {
      UserPromptSubmit: 'prompt',
      // Fires before the dialog is drawn; the `permission_prompt` notification only 6 s later.
      PermissionRequest: 'permission',
      // After an approval the tool runs: the dialog is gone.
      PostToolUse: 'tool',
      Stop: 'stop',
      StopFailure: 'stop',
      SessionEnd: 'end',
    },
    timeoutUnit: 'seconds',
  },
  codex: {
    agent: 'codex',
    displayName: 'Codex',
    events: {
      UserPromptSubmit: 'prompt',
      PermissionRequest: 'permission',
      PostToolUse: 'tool',
      Stop: 'stop',
      // A rejected approval ends the turn with Interrupt, not Stop.
      Interrupt: 'stop',
      SessionEnd: 'end',
    },
    timeoutUnit: 'seconds',
  },
  'gemini-cli': {
    agent: 'gemini-cli',
    displayName: 'Gemini CLI',
    events: {
      BeforeAgent: 'prompt',
      // Notification with notification_type ToolPermission; BeforeTool fires for every tool.
      Notification: 'permission',
      AfterTool: 'tool',
      AfterAgent: 'stop',
      SessionEnd: 'end',
    },
    timeoutUnit: 'milliseconds',
  },
};

export function isAgent(name: unknown): name is AgentName {
  return typeof name === 'string' && (AGENTS as readonly string[]).includes(name);
}

/** The compact report `corral hook` sends: the agent's payload cut down to what corral reads. */
export interface HookReport {
  readonly agent: AgentName;
  readonly event: string;
  readonly sessionId: string;
  readonly transcriptPath: string;
  readonly cwd: string;
  readonly notificationType: string | null;
  readonly message: string | null;
  readonly toolName: string | null;
  /** The command, file or description the tool call is about. */
  readonly toolSummary: string | null;
  /** `$TMUX_PANE` of the hook process. */
  readonly pane: string | null;
  /** The tmux socket path, from `$TMUX`. */
  readonly socket: string | null;
  /** Whether the hook process has a controlling terminal (Codex runs hooks without one). */
  readonly tty: boolean;
  /**
   * Whether a detached daemon ran the hook (Codex's app server, by default): its `$TMUX_PANE` is the
   * pane that first started the daemon, not the agent's, so the pane id does not count.
   */
  readonly daemon: boolean;
}

/** The signal an event gives, or null when corral does not act on it. */
export function hookSignal(report: Pick<HookReport, 'agent' | 'event' | 'notificationType'>): HookSignal | null {
  const signal = AGENT_HOOKS[report.agent].events[report.event] ?? null;
  // Gemini CLI's Notification is a permission request only with this type.
  if (report.agent === 'gemini-cli' && report.event === 'Notification' && report.notificationType !== 'ToolPermission') return null;
  return signal;
}

/** The event corral acts on for a report whose signal is `signal`. */
export function hookEventOf(report: HookReport, signal: HookSignal): HookEvent {
  return {
    agent: report.agent,
    signal,
    event: report.event,
    sessionId: report.sessionId,
    transcriptPath: report.transcriptPath,
    cwd: report.cwd,
    message: signal === 'permission' ? permissionMessage(report) : null,
  };
}

/** "Bash: touch /tmp/x", for a permission request. */
export function permissionMessage(report: Pick<HookReport, 'toolName' | 'toolSummary' | 'message'>): string {
  if (report.toolName && report.toolSummary) return `${report.toolName}: ${report.toolSummary}`;
  return report.toolSummary ?? report.message ?? (report.toolName ? `${report.toolName} asks for permission` : 'permission requested');
}
