// The other machines corral watches, from `--host`, CORRAL_HOSTS or the config file's `hosts`.
// Pure: text and JSON in, `HostSpec[]` or a ConfigError that says what to change out.
//
//   --host build-box                 ssh build-box, named build-box, its default tmux server
//   --host me@10.0.0.5=vm1           ssh me@10.0.0.5, named vm1
//   --host build-box,-L work         the tmux server `-L work` on build-box
//   --host build-box=b,-S /tmp/t.s   named b, the tmux server at that socket path
//   CORRAL_HOSTS='build-box;me@10.0.0.5=vm1,-L work'   the same entries, `;` or newline between them
//   "hosts": [{ "ssh": "me@10.0.0.5", "name": "vm1", "socket": { "name": "work" } }, "build-box"]

import { ConfigError } from '../settings/config-error.js';
import { LOCAL_HOST, type HostSpec, type TmuxSocket } from '../types.js';

const NAME = /^[A-Za-z0-9._-]+$/;

/** The usage line for one entry, shared by the flag's help text and the error messages. */
export const HOST_SYNTAX = 'DEST[=NAME][,-L SOCKET|,-S PATH]';

/**
 * The name a destination gets when none is given: the host part without `user@`, an `ssh://`
 * scheme, a `:port` or IPv6 brackets, every other character than [A-Za-z0-9._-] turned into `-`.
 */
export function defaultHostName(destination: string): string {
  let host = destination.replace(/^ssh:\/\//, '');
  host = host.slice(host.lastIndexOf('@') + 1);
  const bracketed = /^\[([^\]]*)\]/.exec(host);
  if (bracketed) host = bracketed[1] as string;
  else if ((host.match(/:/g) ?? []).length === 1) host = host.slice(0, host.indexOf(':'));
  return host
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/^[-.]+|[-.]+$/g, '');
}

/** `-L NAME`, `-LNAME`, `-S PATH` or `-SPATH`. */
export function parseSocketText(text: string, label: string): TmuxSocket {
  const match = /^\s*-([LS])\s*(.*?)\s*$/.exec(text);
  if (!match || match[2] === '') {
    throw new ConfigError(`${label}: the tmux server must be "-L NAME" or "-S PATH", got ${JSON.stringify(text)}`);
  }
  return match[1] === 'L' ? { kind: 'name', name: match[2] as string } : { kind: 'path', path: match[2] as string };
}

function parseSocketValue(value: unknown, label: string): TmuxSocket {
  if (value === undefined || value === null) return { kind: 'default' };
  if (typeof value === 'string') return parseSocketText(value, label);
  if (typeof value === 'object' && !Array.isArray(value)) {
    const keys = Object.keys(value);
    const { name, path } = value as { name?: unknown; path?: unknown };
    if (keys.length === 1 && typeof name === 'string' && name !== '') return { kind: 'name', name };
    if (keys.length === 1 && typeof path === 'string' && path !== '') return { kind: 'path', path };
  }
  throw new ConfigError(`${label}: "socket" must be { "name": NAME }, { "path": PATH }, "-L NAME" or "-S PATH", got ${JSON.stringify(value)}`);
}

function checkDestination(destination: string, label: string): string {
  if (destination === '') throw new ConfigError(`${label}: the ssh destination is empty (expected ${HOST_SYNTAX})`);
  if (destination.startsWith('-')) {
    throw new ConfigError(`${label}: the ssh destination ${JSON.stringify(destination)} starts with "-"; ssh options belong in ~/.ssh/config (a Host block), not here`);
  }
  if (/\s/.test(destination)) throw new ConfigError(`${label}: the ssh destination ${JSON.stringify(destination)} contains white space`);
  return destination;
}

function checkName(name: string, label: string, given: boolean): string {
  if (name === '') {
    throw new ConfigError(given ? `${label}: the host name after "=" is empty` : `${label}: no usable name in the destination; give one (${HOST_SYNTAX})`);
  }
  if (!NAME.test(name)) throw new ConfigError(`${label}: host name ${JSON.stringify(name)} may only use letters, digits, ".", "_" and "-"`);
  if (name.toLowerCase() === LOCAL_HOST) {
    throw new ConfigError(`${label}: the host name "${LOCAL_HOST}" is reserved for this machine; name it differently (${HOST_SYNTAX})`);
  }
  return name;
}

/** One `DEST[=NAME][,-L SOCKET|,-S PATH]` entry. */
export function parseHostText(text: string, label: string): HostSpec {
  const trimmed = text.trim();
  const comma = trimmed.indexOf(',');
  const head = comma === -1 ? trimmed : trimmed.slice(0, comma);
  const socket: TmuxSocket = comma === -1 ? { kind: 'default' } : parseSocketText(trimmed.slice(comma + 1), label);
  const eq = head.indexOf('=');
  const ssh = checkDestination(eq === -1 ? head : head.slice(0, eq), label);
  const name = checkName(eq === -1 ? defaultHostName(ssh) : head.slice(eq + 1), label, eq !== -1);
  return { name, ssh, socket };
}

/** One entry of the config file's `hosts`: the text form, or `{ ssh, name?, socket? }`. */
export function parseHostEntry(value: unknown, label: string): HostSpec {
  if (typeof value === 'string') return parseHostText(value, label);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ConfigError(`${label}: expected "${HOST_SYNTAX}" or { "ssh": DEST, "name": NAME, "socket": ... }`);
  }
  const entry = value as Record<string, unknown>;
  const unknownKey = Object.keys(entry).find((k) => k !== 'ssh' && k !== 'name' && k !== 'socket');
  if (unknownKey !== undefined) throw new ConfigError(`${label}: unknown key "${unknownKey}" (known: ssh, name, socket)`);
  if (typeof entry.ssh !== 'string') throw new ConfigError(`${label}: "ssh" (the ssh destination, like "me@build-box") is required`);
  const ssh = checkDestination(entry.ssh.trim(), label);
  if (entry.name !== undefined && typeof entry.name !== 'string') throw new ConfigError(`${label}: "name" must be a string`);
  const name = checkName(entry.name === undefined ? defaultHostName(ssh) : entry.name.trim(), label, entry.name !== undefined);
  return { name, ssh, socket: parseSocketValue(entry.socket, label) };
}

/** CORRAL_HOSTS: entries separated by `;` or newlines (a comma belongs to an entry). */
export function splitHostsEnv(raw: string): string[] {
  return raw.split(/[;\r\n]+/).map((s) => s.trim()).filter((s) => s !== '');
}

/** Rejects two hosts with one name (case-insensitively: the names end up in URLs and keys). */
export function checkUniqueHosts(hosts: readonly HostSpec[], label: string): HostSpec[] {
  const seen = new Map<string, HostSpec>();
  for (const host of hosts) {
    const other = seen.get(host.name.toLowerCase());
    if (other) {
      throw new ConfigError(`${label}: two hosts are named "${host.name}" (${other.ssh} and ${host.ssh}); give one another name with DEST=NAME`);
    }
    seen.set(host.name.toLowerCase(), host);
  }
  return [...hosts];
}
