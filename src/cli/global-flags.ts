// The flags of the command line: one per setting that has one (from the settings table), plus
// --config, --help and --version. `--help` and the shell completions read them from here.

import { SETTINGS, type SettingSpec } from '../engine/settings/config.js';
import type { FlagSpec } from './args.js';
import type { SettingKey } from './command-settings.js';

function flagOf(s: SettingSpec): FlagSpec {
  return {
    name: s.flag as string,
    ...(s.short ? { short: s.short } : {}),
    type: s.type === 'boolean' ? 'boolean' : s.type === 'string-list' ? 'string-list' : 'string',
    description: s.description + (s.default !== null && s.default !== false && !Array.isArray(s.default) ? ` (default ${String(s.default)})` : ''),
    ...(s.valueName ? { valueName: s.valueName } : {}),
    ...(s.choices ? { choices: s.choices } : {}),
  };
}

/** The flags of these settings (those that have one), in the settings table's order. */
export function settingFlags(keys: readonly SettingKey[]): FlagSpec[] {
  const wanted = new Set<string>(keys);
  return (SETTINGS as readonly SettingSpec[]).filter((s) => s.flag !== undefined && wanted.has(s.key)).map(flagOf);
}

/** What every command takes besides its settings. */
export const OWN_FLAGS: readonly FlagSpec[] = [
  { name: 'config', type: 'string', valueName: 'FILE', description: 'config file (default $XDG_CONFIG_HOME/corral/config.json)' },
  { name: 'help', short: 'h', type: 'boolean', description: 'show help' },
  { name: 'version', short: 'V', type: 'boolean', description: 'print the version' },
];

/**
 * Every flag the command line knows before it knows the command: each setting's, then OWN_FLAGS.
 * A command refuses the settings it does not use (setting-flags.ts).
 */
export const GLOBAL_FLAGS: readonly FlagSpec[] = [...(SETTINGS as readonly SettingSpec[]).filter((s) => s.flag !== undefined).map(flagOf), ...OWN_FLAGS];
