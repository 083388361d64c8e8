// Which settings each command uses, by group: a command's --help lists only its own, and a flag of a
// setting it does not use is refused with a sentence that says where that setting applies, rather
// than accepted and ignored. Environment variables and config-file keys are shared by every
// command, so a command simply does not read the ones it does not use.

import { SETTINGS, type Settings, type SettingSpec } from '../engine/settings/config.js';

export type SettingKey = keyof Settings;

export const SETTING_GROUPS = {
  /** Which tmux servers: this machine's (-L/-S) and others over ssh. */
  servers: ['socketName', 'socketPath', 'hosts'],
  /** The engine: which panes, how often, when quiet counts as stuck, how hook claims are weighed. */
  engine: ['optIn', 'prefix', 'quietThresholdMs', 'askThresholdMs', 'waiting', 'pollIntervalMs', 'previewLines', 'hookGraceMs', 'hookPermissionTtlMs'],
  prompt: ['promptPack', 'promptPatterns'],
  /** Where corral's HTTP server listens (and where client commands find it). */
  address: ['listen', 'port'],
  hooks: ['hooks'],
  bridge: ['bridgePollMs', 'bridgeQuietMs', 'bridgeLongQuietMs', 'bridgeMaxDurationMs', 'bridgeMaxLines', 'bridgeHistoryLines', 'bridgeTypeSideRequests', 'corsOrigins'],
  attach: ['attachRingBytes', 'attachSlowClientBytes', 'attachAllowedOrigins', 'attachAllowResize', 'attachPauseAfter', 'attachGraceMs', 'attachSessionIdleMs', 'attachSessionMaxMs'],
  notify: ['onStuck', 'notifyDesktop', 'ntfyUrl', 'ntfyAuth', 'notifyReasons', 'notifyMinQuietMs', 'quietHours', 'notifyMaxPerMinute'],
  /** Answer buttons in notifications: they need corral's HTTP server. */
  answers: ['answerUrl', 'answerTtlMs'],
  bell: ['bell'],
  /** --daemon-url: every event POSTed as it happens. */
  events: ['daemonUrl'],
  /** tmux user options for the status line, kept while a command watches. */
  status: ['statusOptions'],
  /** What MCP clients may type into. */
  mcp: ['allowTyping'],
} as const satisfies Record<string, readonly SettingKey[]>;

export type SettingGroup = keyof typeof SETTING_GROUPS;

/** The settings of these groups, in the settings table's order. */
export function settingsOf(...groups: readonly SettingGroup[]): readonly SettingKey[] {
  const wanted = new Set<SettingKey>(groups.flatMap((group) => SETTING_GROUPS[group]));
  return (SETTINGS as readonly SettingSpec[]).map((spec) => spec.key as SettingKey).filter((key) => wanted.has(key));
}

/** Everything a command that watches and serves reads. */
export const ALL_SETTINGS: readonly SettingKey[] = settingsOf(...(Object.keys(SETTING_GROUPS) as SettingGroup[]));

