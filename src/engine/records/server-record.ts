// Where a running corral server listens, for the commands that talk to it (link, attach, hooks
// doctor, the hook client): each server writes <config dir>/servers/<pid>.json when it starts
// listening and removes it when it stops. The record names the token file, never the token.

import { mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { processAlive } from '../tmux/process-alive.js';

export interface ServerRecord {
  /** Where a client on this machine reaches it: `http://127.0.0.1:7899`. */
  readonly url: string;
  readonly pid: number;
  /** The token file it checks requests against; null when its token came from --token or CORRAL_TOKEN. */
  readonly tokenPath: string | null;
  /** The socket of the tmux server it watches, when known. */
  readonly tmux: string | null;
  readonly startedAt: number;
}

export const serversDir = (configDir: string): string => join(configDir, 'servers');

/** Writes this process's record (replacing an older one); returns what removes it again. */
export function writeServerRecord(configDir: string, record: ServerRecord): () => void {
  const dir = serversDir(configDir);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const path = join(dir, `${record.pid}.json`);
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(record)}\n`, { mode: 0o600 });
  renameSync(temporary, path);
  return () => rmSync(path, { force: true });
}

function parseRecord(text: string): ServerRecord | null {
  try {
    const value = JSON.parse(text) as Partial<ServerRecord>;
    if (typeof value.url !== 'string' || !/^https?:\/\//.test(value.url) || typeof value.pid !== 'number') return null;
    return {
      url: value.url,
      pid: value.pid,
      tokenPath: typeof value.tokenPath === 'string' ? value.tokenPath : null,
      tmux: typeof value.tmux === 'string' ? value.tmux : null,
      startedAt: typeof value.startedAt === 'number' ? value.startedAt : 0,
    };
  } catch {
    return null;
  }
}

/** The records of servers still running, newest first (a record left by one that died is ignored). */
export function runningServers(configDir: string): ServerRecord[] {
  let names: string[];
  try {
    names = readdirSync(serversDir(configDir)).filter((name) => /^\d+\.json$/.test(name));
  } catch {
    return [];
  }
  const records: ServerRecord[] = [];
  for (const name of names) {
    let text: string;
    try {
      text = readFileSync(join(serversDir(configDir), name), 'utf8');
    } catch {
      continue;
    }
    const record = parseRecord(text);
    if (record !== null && processAlive(record.pid)) records.push(record);
  }
  return records.sort((a, b) => b.startedAt - a.startedAt);
}

/** What a client asks for: a port (given on its command line), a tmux server (-L / -S). */
export interface ServerWanted {
  readonly port: number | null;
  readonly tmux: string | null;
}

/** The newest running server that fits what is asked; null when none does. */
export function pickServer(records: readonly ServerRecord[], wanted: ServerWanted): ServerRecord | null {
  return (
    records.find((record) => {
      if (wanted.port !== null && portOf(record.url) !== wanted.port) return false;
      if (wanted.tmux !== null && record.tmux !== wanted.tmux) return false;
      return true;
    }) ?? null
  );
}

function portOf(url: string): number | null {
  try {
    const parsed = new URL(url);
    return parsed.port === '' ? (parsed.protocol === 'https:' ? 443 : 80) : Number(parsed.port);
  } catch {
    return null;
  }
}
