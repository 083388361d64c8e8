// corral's settings: one table says, for every setting, its config-file key, flag, environment
// variable, type, default and meaning. Resolution is pure: flags > env > file > defaults.
// The same table feeds `--help` and the README's configuration table.

import { ConfigError } from './config-error.js';
import { envValue } from './env.js';
import { HOST_SYNTAX, checkUniqueHosts, parseHostEntry, parseHostText, splitHostsEnv } from '../hosts/hosts-config.js';
import type { HostSpec } from '../types.js';

export { ConfigError };

export type SettingType = 'string' | 'int' | 'boolean' | 'string-list';

export interface SettingSpec {
  readonly key: string;
  readonly type: SettingType;
  readonly default: unknown;
  readonly flag?: string;
  readonly short?: string;
  readonly env?: readonly string[];
  readonly description: string;
  /** Name of the flag's value in help text. */
  readonly valueName?: string;
  readonly min?: number;
  readonly max?: number;
  readonly choices?: readonly string[];
}

export const SETTINGS = [
  { key: 'socketName', type: 'string', default: null, flag: 'socket-name', short: 'L', valueName: 'NAME', description: 'tmux server socket name (tmux -L)' },
  { key: 'socketPath', type: 'string', default: null, flag: 'socket-path', short: 'S', valueName: 'PATH', description: 'tmux server socket path (tmux -S)' },
  { key: 'optIn', type: 'boolean', default: false, flag: 'opt-in', env: ['CORRAL_OPT_IN'], description: 'watch only panes whose title or window name starts with the prefix' },
  { key: 'prefix', type: 'string', default: '@tb-', flag: 'prefix', env: ['CORRAL_PREFIX'], valueName: 'TEXT', description: 'opt-in prefix for pane titles / window names' },
  { key: 'quietThresholdMs', type: 'int', default: 3_000, min: 100, flag: 'quiet-threshold', env: ['CORRAL_QUIET_THRESHOLD_MS', 'TRAILBOSS_QUIET_THRESHOLD_MS'], valueName: 'MS', description: 'quiet time before a pane that stopped at its prompt (a shell, an agent waiting for its next task) counts as stuck' },
  { key: 'askThresholdMs', type: 'int', default: 1_000, min: 100, flag: 'ask-threshold', env: ['CORRAL_ASK_THRESHOLD_MS'], valueName: 'MS', description: 'quiet time before a prompt that asks (a permission, a question, an option menu) counts as stuck' },
  { key: 'waiting', type: 'string', default: 'new', choices: ['asks', 'new', 'all'], flag: 'waiting', env: ['CORRAL_WAITING'], valueName: 'WHICH', description: 'which held prompts count as waiting for you: asks (permission and question prompts), new (those, and a pane that stopped after working that you have not looked at since), all (every prompt held for the threshold)' },
  { key: 'pollIntervalMs', type: 'int', default: 2_000, min: 50, flag: 'poll-interval', env: ['CORRAL_POLL_INTERVAL_MS'], valueName: 'MS', description: 'how often panes are listed and those with new output captured' },
  { key: 'promptPatterns', type: 'string-list', default: [], flag: 'prompt-pattern', env: ['CORRAL_PROMPT_PATTERNS'], valueName: 'REGEX', description: 'extra prompt regex for the last line; prefix permission: or busy: to change its meaning (repeatable; env: one per line)' },
  { key: 'promptPack', type: 'string', default: 'default', choices: ['default', 'seed', 'none'], flag: 'prompt-pack', env: ['CORRAL_PROMPT_PACK'], valueName: 'NAME', description: 'built-in prompt rules: default (per-tool rules), seed (the ten generic patterns), none (only your patterns)' },
  { key: 'daemonUrl', type: 'string', default: null, flag: 'daemon-url', env: ['CORRAL_DAEMON_URL'], valueName: 'URL', description: 'POST every event as JSON to this URL (queued and retried while it is down)' },
  { key: 'previewLines', type: 'int', default: 40, min: 1, max: 500, env: ['CORRAL_PREVIEW_LINES'], description: 'screen lines kept per pane for previews' },
  { key: 'bell', type: 'string', default: 'off', choices: ['off', 'bell', 'message', 'both'], flag: 'bell', env: ['CORRAL_BELL'], valueName: 'HOW', description: 'dashboard: when a pane becomes stuck, ring the terminal bell, show a tmux message, both, or off' },
  { key: 'hosts', type: 'string-list', default: [], flag: 'host', env: ['CORRAL_HOSTS'], valueName: HOST_SYNTAX, description: 'another machine to watch over ssh, by its ssh destination; NAME labels its panes (default: the host part), -L/-S pick its tmux server (repeatable; env: entries separated by ; or newlines)' },
  { key: 'listen', type: 'string', default: '127.0.0.1', flag: 'listen', env: ['CORRAL_LISTEN'], valueName: 'ADDR', description: 'address the HTTP server (chat bridge, attach server) listens on' },
  { key: 'port', type: 'int', default: 7878, min: 0, max: 65535, flag: 'port', env: ['CORRAL_PORT'], valueName: 'PORT', description: 'port of the HTTP server (0 picks a free one)' },
  { key: 'bridgePollMs', type: 'int', default: 100, min: 10, max: 10_000, flag: 'bridge-poll', env: ['CORRAL_BRIDGE_POLL_MS'], valueName: 'MS', description: 'chat bridge: how often a pane that is answering is captured' },
  { key: 'bridgeQuietMs', type: 'int', default: 800, min: 50, max: 600_000, flag: 'bridge-quiet', env: ['CORRAL_BRIDGE_QUIET_MS'], valueName: 'MS', description: 'chat bridge: the answer ends once the program is back at its prompt and the screen held still this long' },
  { key: 'bridgeLongQuietMs', type: 'int', default: 60_000, min: 100, max: 3_600_000, flag: 'bridge-long-quiet', env: ['CORRAL_BRIDGE_LONG_QUIET_MS'], valueName: 'MS', description: 'chat bridge: when corral does not recognise the prompt, the answer ends after this long without new output' },
  { key: 'bridgeMaxDurationMs', type: 'int', default: 600_000, min: 1_000, flag: 'bridge-max-duration', env: ['CORRAL_BRIDGE_MAX_DURATION_MS'], valueName: 'MS', description: 'chat bridge: longest answer; it then ends with finish_reason "length"' },
  { key: 'bridgeMaxLines', type: 'int', default: 200_000, min: 100, max: 100_000_000, flag: 'bridge-max-lines', env: ['CORRAL_BRIDGE_MAX_LINES'], valueName: 'N', description: 'chat bridge: most lines one answer holds; past it the answer says how many lines were left out and names the file that holds them all' },
  { key: 'bridgeHistoryLines', type: 'int', default: 2_000, min: 0, max: 100_000, flag: 'bridge-history', env: ['CORRAL_BRIDGE_HISTORY_LINES'], valueName: 'N', description: 'chat bridge: history lines captured with the screen' },
  { key: 'bridgeTypeSideRequests', type: 'boolean', default: false, flag: 'bridge-type-side-requests', env: ['CORRAL_BRIDGE_TYPE_SIDE_REQUESTS'], description: 'chat bridge: type chat UIs\' title, summary, tag and follow-up requests into the pane like any message (turns their recognition off)' },
  { key: 'corsOrigins', type: 'string-list', default: [], flag: 'cors-origin', env: ['CORRAL_CORS_ORIGINS'], valueName: 'ORIGIN', description: 'chat bridge: browser origin allowed to call the API (repeatable; none by default)' },
  { key: 'attachRingBytes', type: 'int', default: 1_048_576, min: 1024, max: 1_073_741_824, flag: 'attach-ring-bytes', env: ['CORRAL_ATTACH_RING_BYTES'], valueName: 'BYTES', description: 'attach server: recent output kept per watched pane, so a viewer can reconnect without a gap' },
  { key: 'attachSlowClientBytes', type: 'int', default: 4_194_304, min: 1024, flag: 'attach-slow-client-bytes', env: ['CORRAL_ATTACH_SLOW_CLIENT_BYTES'], valueName: 'BYTES', description: 'attach server: a viewer with more than this much output unsent is disconnected (close code 4008)' },
  { key: 'attachAllowedOrigins', type: 'string-list', default: [], flag: 'attach-origin', env: ['CORRAL_ATTACH_ORIGINS'], valueName: 'ORIGIN', description: 'attach server: another browser origin allowed to open WebSockets (repeatable; the page\'s own origin always is)' },
  { key: 'attachAllowResize', type: 'boolean', default: false, flag: 'attach-allow-resize', env: ['CORRAL_ATTACH_ALLOW_RESIZE'], description: 'attach server: let writing viewers resize panes (this changes your tmux layout)' },
  { key: 'attachPauseAfter', type: 'int', default: 10, min: 0, max: 3600, flag: 'attach-pause-after', env: ['CORRAL_ATTACH_PAUSE_AFTER'], valueName: 'SECONDS', description: 'attach server: tmux pauses a pane whose output is this many seconds behind, corral then repaints it (0: no flow control)' },
  { key: 'attachGraceMs', type: 'int', default: 300_000, min: 0, max: 86_400_000, flag: 'attach-grace', env: ['CORRAL_ATTACH_GRACE_MS'], valueName: 'MS', description: 'attach server: after the last viewer of a pane leaves, keep its recent output (and the tmux control client of its session) this long, so a viewer back within it gets exactly what it missed' },
  { key: 'statusOptions', type: 'boolean', default: true, flag: 'status-options', env: ['CORRAL_STATUS_OPTIONS'], description: 'keep tmux user options (@corral_state, @corral_waiting ...) up to date on each watched server for its status line, while corral watches it' },
  { key: 'attachSessionIdleMs', type: 'int', default: 43_200_000, min: 60_000, max: 2_592_000_000, flag: 'attach-session-idle', env: ['CORRAL_ATTACH_SESSION_IDLE_MS'], valueName: 'MS', description: 'attach server: a browser session unused this long ends (default 12 hours; an open page or terminal keeps it in use)' },
  { key: 'attachSessionMaxMs', type: 'int', default: 604_800_000, min: 60_000, max: 2_592_000_000, flag: 'attach-session-max', env: ['CORRAL_ATTACH_SESSION_MAX_MS'], valueName: 'MS', description: 'attach server: a browser session ends this long after its sign-in, used or not (default 7 days); every session also ends when corral stops' },
  { key: 'hooks', type: 'boolean', default: true, flag: 'hooks', env: ['CORRAL_HOOKS'], description: 'receive agent hook calls (corral hooks install) on the HTTP server; the dashboard then listens from its start' },
  { key: 'hookGraceMs', type: 'int', default: 10_000, min: 0, max: 3_600_000, flag: 'hook-grace', env: ['CORRAL_HOOK_GRACE_MS'], valueName: 'MS', description: 'agent hooks: how long the screen may contradict a hook (permission, a running turn) before the screen wins' },
  { key: 'hookPermissionTtlMs', type: 'int', default: 600_000, min: 1_000, flag: 'hook-permission-ttl', env: ['CORRAL_HOOK_PERMISSION_TTL_MS'], valueName: 'MS', description: 'agent hooks: a permission request the screen never confirms lapses after this long (a rejection fires no hook)' },
  { key: 'allowTyping', type: 'string-list', default: [], flag: 'allow-typing', env: ['CORRAL_ALLOW_TYPING'], valueName: 'PATTERN', description: 'MCP server: panes its clients may answer and type into, by key, target or HOST/* (* matches anything; repeatable; none by default: reading only)' },
  { key: 'onStuck', type: 'string', default: null, flag: 'on-stuck', env: ['CORRAL_ON_STUCK'], valueName: 'CMD', description: 'notify: run this shell command when a pane becomes stuck, with CORRAL_PANE, CORRAL_TARGET, CORRAL_REASON, CORRAL_MESSAGE, CORRAL_HOST set' },
  { key: 'notifyDesktop', type: 'boolean', default: false, flag: 'notify-desktop', env: ['CORRAL_NOTIFY_DESKTOP'], description: 'notify: a desktop notification (notify-send on Linux, Notification Center on macOS)' },
  { key: 'ntfyUrl', type: 'string', default: null, flag: 'ntfy', env: ['CORRAL_NTFY_URL'], valueName: 'TOPIC_URL', description: 'notify: push to this ntfy topic URL (https://ntfy.sh/my-secret-topic or a server of your own), with answer buttons' },
  { key: 'ntfyAuth', type: 'string', default: null, flag: 'ntfy-auth', env: ['CORRAL_NTFY_AUTH'], valueName: 'TOKEN|USER:PASS', description: 'notify: ntfy access token, or user:password' },
  { key: 'notifyReasons', type: 'string-list', default: ['permission', 'stopped'], flag: 'notify-reason', env: ['CORRAL_NOTIFY_REASONS'], valueName: 'REASON', description: 'notify: which stuck reasons notify: permission, stopped (repeatable; env: one per line)' },
  { key: 'notifyMinQuietMs', type: 'int', default: 0, min: 0, flag: 'notify-min-quiet', env: ['CORRAL_NOTIFY_MIN_QUIET_MS'], valueName: 'MS', description: 'notify: only once the stuck pane has been quiet this long' },
  { key: 'quietHours', type: 'string', default: null, flag: 'quiet-hours', env: ['CORRAL_QUIET_HOURS'], valueName: 'HH:MM-HH:MM', description: 'notify: no notifications in these local hours (22:00-07:00)' },
  { key: 'notifyMaxPerMinute', type: 'int', default: 4, min: 1, max: 600, flag: 'notify-max-per-minute', env: ['CORRAL_NOTIFY_MAX_PER_MINUTE'], valueName: 'N', description: 'notify: at most this many notifications a minute; the rest wait and go out as one summary' },
  { key: 'answerUrl', type: 'string', default: null, flag: 'answer-url', env: ['CORRAL_ANSWER_URL'], valueName: 'URL', description: 'notify: the address of this corral as your phone reaches it, for answer buttons (default: the server address)' },
  { key: 'answerTtlMs', type: 'int', default: 900_000, min: 10_000, max: 86_400_000, flag: 'answer-ttl', env: ['CORRAL_ANSWER_TTL_MS'], valueName: 'MS', description: 'notify: how long an answer button works (each works once, and only on the screen it was sent for)' },
] as const satisfies readonly SettingSpec[];

export interface Settings {
  socketName: string | null;
  socketPath: string | null;
  optIn: boolean;
  prefix: string;
  quietThresholdMs: number;
  askThresholdMs: number;
  waiting: 'asks' | 'new' | 'all';
  pollIntervalMs: number;
  promptPatterns: string[];
  promptPack: 'default' | 'seed' | 'none';
  daemonUrl: string | null;
  previewLines: number;
  bell: 'off' | 'bell' | 'message' | 'both';
  /** The machines watched over ssh (this machine is not among them). */
  hosts: HostSpec[];
  listen: string;
  port: number;
  bridgePollMs: number;
  bridgeQuietMs: number;
  bridgeLongQuietMs: number;
  bridgeMaxDurationMs: number;
  bridgeHistoryLines: number;
  bridgeMaxLines: number;
  bridgeTypeSideRequests: boolean;
  corsOrigins: string[];
  attachRingBytes: number;
  attachSlowClientBytes: number;
  attachAllowedOrigins: string[];
  attachAllowResize: boolean;
  attachPauseAfter: number;
  attachGraceMs: number;
  statusOptions: boolean;
  attachSessionIdleMs: number;
  attachSessionMaxMs: number;
  hooks: boolean;
  hookGraceMs: number;
  hookPermissionTtlMs: number;
  allowTyping: string[];
  onStuck: string | null;
  notifyDesktop: boolean;
  ntfyUrl: string | null;
  ntfyAuth: string | null;
  notifyReasons: string[];
  notifyMinQuietMs: number;
  quietHours: string | null;
  notifyMaxPerMinute: number;
  answerUrl: string | null;
  answerTtlMs: number;
}

// What each part of corral reads. The CLI cuts the resolved settings into these slices
// (src/cli/settings-slices.ts); a part takes its slice, never the whole bag.

/** The engine: which panes to watch, how often, and when a quiet one counts as stuck. */
export type EngineSettings = Pick<Settings, 'optIn' | 'prefix' | 'quietThresholdMs' | 'askThresholdMs' | 'waiting' | 'pollIntervalMs' | 'previewLines' | 'hookGraceMs' | 'hookPermissionTtlMs'>;
/** The prompt rules the CLI builds for the engine and the servers. */
export type PromptSettings = Pick<Settings, 'promptPack' | 'promptPatterns'>;
/** Which tmux servers to watch: this machine's (-L/-S) and the others over ssh. */
export type HostsSettings = Pick<Settings, 'socketName' | 'socketPath' | 'hosts'>;
/** The HTTP server every service shares. */
export type ServerSettings = Pick<Settings, 'listen' | 'port' | 'hooks' | 'answerUrl'>;
/** The chat bridge (OpenAI-compatible API). */
export type BridgeSettings = Pick<
  Settings,
  'bridgePollMs' | 'bridgeQuietMs' | 'bridgeLongQuietMs' | 'bridgeMaxDurationMs' | 'bridgeHistoryLines' | 'bridgeMaxLines' | 'bridgeTypeSideRequests' | 'corsOrigins'
>;
/** The attach server (browser and terminal viewers). */
export type AttachSettings = Pick<
  Settings,
  | 'attachRingBytes'
  | 'attachSlowClientBytes'
  | 'attachAllowedOrigins'
  | 'attachAllowResize'
  | 'attachPauseAfter'
  | 'attachGraceMs'
  | 'attachSessionIdleMs'
  | 'attachSessionMaxMs'
>;
/** The notifications (--on-stuck, desktop, ntfy). */
export type NotifySettings = Pick<
  Settings,
  'onStuck' | 'notifyDesktop' | 'ntfyUrl' | 'ntfyAuth' | 'notifyReasons' | 'notifyMinQuietMs' | 'quietHours' | 'notifyMaxPerMinute' | 'answerUrl' | 'answerTtlMs'
>;
/** The dashboard itself. */
export type DashboardSettings = Pick<Settings, 'bell' | 'hooks'>;

export interface ConfigSources {
  /** Values from command-line flags, by setting key (already split per flag). */
  readonly flags: Readonly<Record<string, unknown>>;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Parsed config file, or null. */
  readonly file: unknown;
  readonly fileName?: string;
  /**
   * This machine's host name. `--on-stuck` commands get it as CORRAL_HOST, which is also the old
   * name of CORRAL_LISTEN: a CORRAL_HOST equal to it is that, and not a forgotten setting.
   */
  readonly machineName?: string;
}

export function resolveSettings(sources: ConfigSources, specs: readonly SettingSpec[] = SETTINGS): Settings {
  const byKey = new Map(specs.map((s) => [s.key, s]));
  const out: Record<string, unknown> = {};
  for (const spec of specs) out[spec.key] = spec.default;

  if (sources.file !== null && sources.file !== undefined) {
    const where = sources.fileName ?? 'config file';
    if (typeof sources.file !== 'object' || Array.isArray(sources.file)) {
      throw new ConfigError(`${where}: expected a JSON object`);
    }
    for (const [key, value] of Object.entries(sources.file as Record<string, unknown>)) {
      const spec = byKey.get(key);
      if (key === 'host' && !spec) throw new ConfigError(`${where}: "host" is now "listen" (the address the HTTP server listens on); "hosts" lists machines to watch`);
      if (key === 'hosts' && spec) {
        out.hosts = fileHosts(value, `${where}: "hosts"`);
        continue;
      }
      if (!spec) throw new ConfigError(`${where}: unknown key "${key}" (known: ${specs.map((s) => s.key).join(', ')})`);
      out[key] = coerceFileValue(spec, value, `${where}: "${key}"`);
    }
  }
  const oldListen = envValue(sources.env, 'CORRAL_HOST');
  if (oldListen !== undefined && oldListen !== sources.machineName && byKey.has('listen')) {
    throw new ConfigError(`environment variable CORRAL_HOST is no longer read: set CORRAL_LISTEN=${oldListen} for the address the HTTP server listens on (or CORRAL_HOSTS for machines to watch), and unset CORRAL_HOST`);
  }
  for (const spec of specs) {
    for (const name of spec.env ?? []) {
      const raw = envValue(sources.env, name);
      if (raw === undefined) continue;
      if (spec.key === 'hosts') {
        out.hosts = splitHostsEnv(raw).map((text) => parseHostText(text, `environment variable ${name}`));
        break;
      }
      out[spec.key] = coerceText(spec, raw, `environment variable ${name}`, true);
      break;
    }
  }
  for (const [key, value] of Object.entries(sources.flags)) {
    const spec = byKey.get(key);
    if (!spec || value === undefined) continue;
    const label = spec.flag ? `--${spec.flag}` : key;
    if (key === 'hosts') {
      // Hosts on the command line replace the configured ones rather than add to them.
      out.hosts = (value as string[]).map((text) => parseHostText(text, label));
    } else if (spec.type === 'string-list') {
      out[key] = [...(out[key] as string[]), ...(value as string[])];
    } else if (typeof value === 'string') {
      out[key] = coerceText(spec, value, label, false);
    } else {
      out[key] = value;
    }
  }
  if (out.socketName !== null && out.socketPath !== null) {
    throw new ConfigError('use either -L/--socket-name or -S/--socket-path, not both');
  }
  if (byKey.has('hosts')) out.hosts = checkUniqueHosts(out.hosts as HostSpec[], 'hosts');
  return out as unknown as Settings;
}

function fileHosts(value: unknown, label: string): HostSpec[] {
  if (!Array.isArray(value)) throw new ConfigError(`${label}: expected a list of "${HOST_SYNTAX}" or { "ssh": DEST, "name": NAME, "socket": ... }`);
  return value.map((entry, i) => parseHostEntry(entry, `${label}[${i}]`));
}

function coerceText(spec: SettingSpec, raw: string, label: string, fromEnv: boolean): unknown {
  switch (spec.type) {
    case 'string':
      return checkChoice(spec, raw, label);
    case 'int':
      if (!/^\d+$/.test(raw.trim())) throw new ConfigError(`${label}: expected a whole number, got ${JSON.stringify(raw)}`);
      return checkRange(spec, Number(raw.trim()), label);
    case 'boolean':
      if (/^(1|true|yes|on)$/i.test(raw)) return true;
      if (/^(0|false|no|off)$/i.test(raw)) return false;
      throw new ConfigError(`${label}: expected true or false, got ${JSON.stringify(raw)}`);
    case 'string-list':
      return fromEnv ? raw.split(/\r?\n/).filter((line) => line.trim() !== '') : [raw];
  }
}

function coerceFileValue(spec: SettingSpec, value: unknown, label: string): unknown {
  if (value === null && spec.default === null) return null;
  switch (spec.type) {
    case 'string':
      if (typeof value !== 'string') throw new ConfigError(`${label}: expected a string`);
      return checkChoice(spec, value, label);
    case 'int':
      if (typeof value !== 'number' || !Number.isInteger(value)) throw new ConfigError(`${label}: expected a whole number`);
      return checkRange(spec, value, label);
    case 'boolean':
      if (typeof value !== 'boolean') throw new ConfigError(`${label}: expected true or false`);
      return value;
    case 'string-list':
      if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) throw new ConfigError(`${label}: expected a list of strings`);
      return [...(value as string[])];
  }
}

function checkRange(spec: SettingSpec, value: number, label: string): number {
  if (spec.min !== undefined && value < spec.min) throw new ConfigError(`${label}: must be at least ${spec.min}, got ${value}`);
  if (spec.max !== undefined && value > spec.max) throw new ConfigError(`${label}: must be at most ${spec.max}, got ${value}`);
  return value;
}

function checkChoice(spec: SettingSpec, value: string, label: string): string {
  if (spec.choices && !spec.choices.includes(value)) {
    throw new ConfigError(`${label}: must be one of ${spec.choices.join(', ')}, got ${JSON.stringify(value)}`);
  }
  return value;
}
