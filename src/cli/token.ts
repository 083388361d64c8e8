// The API token that guards everything able to type into a pane. From --token, else
// $CORRAL_TOKEN, else the file <config dir>/token, created on first use (32 random bytes,
// base64url, mode 0600 in a 0700 folder). A token file others can read is refused.

import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, openSync, readFileSync, statSync, writeSync, closeSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from '../engine/settings/config.js';
import { envValue } from '../engine/settings/env.js';

export type TokenSource = 'flag' | 'env' | 'file' | 'generated';

export interface ResolvedToken {
  readonly token: string;
  readonly source: TokenSource;
  /** The token file, when the token came from (or went into) one. */
  readonly path: string | null;
}

const MIN_LENGTH = 16;

export function tokenPath(configDir: string): string {
  return join(configDir, 'token');
}

function checkToken(token: string, where: string): string {
  const trimmed = token.trim();
  if (trimmed.length < MIN_LENGTH)
    throw new ConfigError(`${where}: the token must be at least ${MIN_LENGTH} characters long`);
  if (/\s/.test(trimmed)) throw new ConfigError(`${where}: the token must not contain spaces`);
  return trimmed;
}

export interface TokenOptions {
  readonly flag?: string | undefined;
  readonly env: NodeJS.ProcessEnv;
  readonly configDir: string;
  /** The token file to read instead of the config folder's (a running server's, from its record). */
  readonly file?: string | null | undefined;
}

/** The token a server uses: an existing one, else a new token file. */
export function resolveToken(options: TokenOptions): ResolvedToken {
  return (
    findToken(options) ??
    (() => {
      const path = tokenPath(options.configDir);
      return { token: createTokenFile(options.configDir, path), source: 'generated' as const, path };
    })()
  );
}

/** The token a client presents: the same sources, but null instead of creating a file. */
export function findToken(options: TokenOptions): ResolvedToken | null {
  if (options.flag !== undefined) return { token: checkToken(options.flag, '--token'), source: 'flag', path: null };
  const fromEnv = envValue(options.env, 'CORRAL_TOKEN');
  if (fromEnv !== undefined)
    return { token: checkToken(fromEnv, 'CORRAL_TOKEN'), source: 'env', path: null };
  const path = options.file ?? tokenPath(options.configDir);
  let stat;
  try {
    stat = statSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT')
      throw new ConfigError(`cannot read the token file ${path}: ${(error as Error).message}`);
    return null;
  }
  if (!stat.isFile()) throw new ConfigError(`the token file ${path} is not a regular file`);
  if ((stat.mode & 0o077) !== 0) {
    throw new ConfigError(
      `the token file ${path} can be read by other users (mode ${(stat.mode & 0o777).toString(8)}); anyone who reads it can type into your panes. Run: chmod 600 ${path}`,
    );
  }
  return { token: checkToken(readFileSync(path, 'utf8'), path), source: 'file', path };
}

function createTokenFile(dir: string, path: string): string {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
  const token = randomBytes(32).toString('base64url');
  // 'wx': never overwrite a file that appeared in the meantime.
  const fd = openSync(path, 'wx', 0o600);
  try {
    writeSync(fd, `${token}\n`);
  } finally {
    closeSync(fd);
  }
  return token;
}
