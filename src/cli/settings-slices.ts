// The one place that cuts the resolved settings into what each part reads (the slices are
// declared beside the settings table, in src/engine/settings/config.ts).

import type {
  AttachSettings,
  BridgeSettings,
  DashboardSettings,
  EngineSettings,
  HostsSettings,
  NotifySettings,
  PromptSettings,
  ServerSettings,
  Settings,
} from '../engine/settings/config.js';

export interface SettingsSlices {
  readonly engine: EngineSettings;
  readonly prompt: PromptSettings;
  readonly hosts: HostsSettings;
  readonly server: ServerSettings;
  readonly bridge: BridgeSettings;
  readonly attach: AttachSettings;
  readonly notify: NotifySettings;
  readonly dashboard: DashboardSettings;
}

/** A copy holding only `keys`, so a part cannot read more than its slice even by a cast. */
function pick<K extends keyof Settings>(settings: Settings, keys: readonly K[]): Pick<Settings, K> {
  const out = {} as Pick<Settings, K>;
  for (const key of keys) out[key] = settings[key];
  return out;
}

export function settingsSlices(settings: Settings): SettingsSlices {
  return {
    engine: pick(settings, ['optIn', 'prefix', 'quietThresholdMs', 'askThresholdMs', 'waiting', 'pollIntervalMs', 'previewLines', 'hookGraceMs', 'hookPermissionTtlMs']),
    prompt: pick(settings, ['promptPack', 'promptPatterns']),
    hosts: pick(settings, ['socketName', 'socketPath', 'hosts']),
    server: pick(settings, ['listen', 'port', 'hooks', 'answerUrl']),
    bridge: pick(settings, ['bridgePollMs', 'bridgeQuietMs', 'bridgeLongQuietMs', 'bridgeMaxDurationMs', 'bridgeHistoryLines', 'bridgeMaxLines', 'bridgeTypeSideRequests', 'corsOrigins']),
    attach: pick(settings, ['attachRingBytes', 'attachSlowClientBytes', 'attachAllowedOrigins', 'attachAllowResize', 'attachPauseAfter', 'attachGraceMs', 'attachSessionIdleMs', 'attachSessionMaxMs']),
    notify: pick(settings, ['onStuck', 'notifyDesktop', 'ntfyUrl', 'ntfyAuth', 'notifyReasons', 'notifyMinQuietMs', 'quietHours', 'notifyMaxPerMinute', 'answerUrl', 'answerTtlMs']),
    dashboard: pick(settings, ['bell', 'hooks']),
  };
}
