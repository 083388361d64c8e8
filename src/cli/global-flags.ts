// The options every command takes: one flag per setting that has one (from the settings table),
// plus --config, --help and --version. `--help` and the shell completions both read this list.

import { SETTINGS, type SettingSpec } from '../engine/config.js';
import type { FlagSpec } from './args.js';

const settingFlags: FlagSpec[] = (SETTINGS as readonly SettingSpec[])
  .filter((s) => s.flag !== undefined)
  .map((s) => ({
    name: s.flag as string,
    ...(s.short ? { short: s.short } : {}),
    type: s.type === 'boolean' ? 'boolean' : s.type === 'string-list' ? 'string-list' : 'string',
    description: s.description + (s.default !== null && s.default !== false && !Array.isArray(s.default) ? ` (default ${String(s.default)})` : ''),
    ...(s.valueName ? { valueName: s.valueName } : {}),
    ...(s.choices ? { choices: s.choices } : {}),
  }));

export const GLOBAL_FLAGS: readonly FlagSpec[] = [
  ...settingFlags,
  { name: 'config', type: 'string', valueName: 'FILE', description: 'config file (default $XDG_CONFIG_HOME/corral/config.json)' },
  { name: 'help', short: 'h', type: 'boolean', description: 'show help' },
  { name: 'version', short: 'V', type: 'boolean', description: 'print the version' },
];
