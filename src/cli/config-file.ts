// Finds and reads the config file: --config FILE, else $XDG_CONFIG_HOME/corral/config.json.

import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '../engine/settings/config.js';
import { envValue } from '../engine/settings/env.js';

export function configDir(env: NodeJS.ProcessEnv): string {
  const base = envValue(env, 'XDG_CONFIG_HOME') ?? join(homedir(), '.config');
  return join(base, 'corral');
}

export function defaultConfigPath(env: NodeJS.ProcessEnv): string {
  return join(configDir(env), 'config.json');
}

/** Reads the file; a missing default file is fine (null), a missing explicit one is an error. */
export function loadConfigFile(path: string, explicit: boolean): unknown {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' && !explicit) return null;
    throw new ConfigError(`cannot read config file ${path}: ${(error as Error).message}`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new ConfigError(`config file ${path} is not valid JSON: ${(error as Error).message}`);
  }
}
