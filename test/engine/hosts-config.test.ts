import { describe, expect, it } from 'vitest';
import { ConfigError, resolveSettings } from '../../src/engine/settings/config.js';
import { defaultHostName, parseHostEntry, parseHostText, splitHostsEnv } from '../../src/engine/hosts/hosts-config.js';

const resolve = (sources: { flags?: Record<string, unknown>; env?: Record<string, string>; file?: unknown; machineName?: string }) =>
  resolveSettings({ flags: sources.flags ?? {}, env: sources.env ?? {}, file: sources.file ?? null, ...(sources.machineName ? { machineName: sources.machineName } : {}) });

const fails = (run: () => unknown, message: RegExp) => {
  expect(run).toThrow(ConfigError);
  expect(run).toThrow(message);
};

describe('host entries', () => {
  it('names a host after the host part of its destination', () => {
    expect(defaultHostName('build-box')).toBe('build-box');
    expect(defaultHostName('me@10.0.0.5')).toBe('10.0.0.5');
    expect(defaultHostName('me@box.example.com:2222')).toBe('box.example.com');
    expect(defaultHostName('ssh://me@box:2222')).toBe('box');
    expect(defaultHostName('[fe80::1]:22')).toBe('fe80-1');
    expect(defaultHostName('fe80::1')).toBe('fe80-1');
    expect(defaultHostName('we!rd host')).toBe('we-rd-host');
  });

  it('reads DEST, DEST=NAME and a tmux server after a comma', () => {
    expect(parseHostText('build-box', 'x')).toEqual({ name: 'build-box', ssh: 'build-box', socket: { kind: 'default' } });
    expect(parseHostText('me@10.0.0.5=vm1', 'x')).toEqual({ name: 'vm1', ssh: 'me@10.0.0.5', socket: { kind: 'default' } });
    expect(parseHostText('build-box,-L work', 'x')).toEqual({ name: 'build-box', ssh: 'build-box', socket: { kind: 'name', name: 'work' } });
    expect(parseHostText(' b=bee,-S/tmp/t s ', 'x')).toEqual({ name: 'bee', ssh: 'b', socket: { kind: 'path', path: '/tmp/t s' } });
  });

  it('refuses what ssh would misread, reserved and unusable names, bad servers', () => {
    fails(() => parseHostText('-oProxyCommand=sh', '--host'), /--host: .*starts with "-"/);
    fails(() => parseHostText('', '--host'), /--host: the ssh destination is empty/);
    fails(() => parseHostText('=vm1', '--host'), /destination is empty/);
    fails(() => parseHostText('box=', '--host'), /name after "=" is empty/);
    fails(() => parseHostText('box=a/b', '--host'), /may only use letters/);
    fails(() => parseHostText('local', '--host'), /"local" is reserved/);
    fails(() => parseHostText('box=LOCAL', '--host'), /"local" is reserved/);
    fails(() => parseHostText('@@@', '--host'), /no usable name/);
    fails(() => parseHostText('box,-X 1', '--host'), /"-L NAME" or "-S PATH"/);
    fails(() => parseHostText('box,-L', '--host'), /"-L NAME" or "-S PATH"/);
  });

  it('reads config entries as objects or as text', () => {
    expect(parseHostEntry({ ssh: 'me@vm', socket: { path: '/s' } }, 'h')).toEqual({ name: 'vm', ssh: 'me@vm', socket: { kind: 'path', path: '/s' } });
    expect(parseHostEntry({ ssh: 'vm', name: 'v', socket: '-L w' }, 'h')).toEqual({ name: 'v', ssh: 'vm', socket: { kind: 'name', name: 'w' } });
    expect(parseHostEntry('vm,-L w', 'h')).toEqual({ name: 'vm', ssh: 'vm', socket: { kind: 'name', name: 'w' } });
    fails(() => parseHostEntry({ name: 'v' }, 'h'), /"ssh" .* is required/);
    fails(() => parseHostEntry({ ssh: 'vm', user: 'me' }, 'h'), /unknown key "user"/);
    fails(() => parseHostEntry({ ssh: 'vm', socket: { name: 'a', path: '/b' } }, 'h'), /"socket" must be/);
    fails(() => parseHostEntry(3, 'h'), /expected/);
  });

  it('splits CORRAL_HOSTS on semicolons and newlines, never on commas', () => {
    expect(splitHostsEnv('a;b,-L x\nc ; ')).toEqual(['a', 'b,-L x', 'c']);
  });
});

describe('hosts in the settings', () => {
  it('has none by default', () => {
    expect(resolve({}).hosts).toEqual([]);
  });

  it('takes the file, then the environment, then the flags, each replacing the one before', () => {
    const file = { hosts: ['a', { ssh: 'me@b', name: 'bee' }] };
    expect(resolve({ file }).hosts.map((h) => h.name)).toEqual(['a', 'bee']);
    expect(resolve({ file, env: { CORRAL_HOSTS: 'c;d=dee,-L w' } }).hosts).toEqual([
      { name: 'c', ssh: 'c', socket: { kind: 'default' } },
      { name: 'dee', ssh: 'd', socket: { kind: 'name', name: 'w' } },
    ]);
    expect(resolve({ file, env: { CORRAL_HOSTS: 'c' }, flags: { hosts: ['e'] } }).hosts.map((h) => h.name)).toEqual(['e']);
  });

  it('refuses two hosts with one name, wherever they come from', () => {
    fails(() => resolve({ flags: { hosts: ['me@box', 'you@box'] } }), /two hosts are named "box" \(me@box and you@box\)/);
    fails(() => resolve({ file: { hosts: ['a=x', 'b=X'] } }), /two hosts are named "X"/);
    fails(() => resolve({ env: { CORRAL_HOSTS: 'a;a' } }), /two hosts are named "a"/);
  });

  it('says where a bad entry is', () => {
    fails(() => resolve({ file: { hosts: ['ok', { ssh: '-x' }] }, }), /config file: "hosts"\[1\]: .*starts with "-"/);
    fails(() => resolve({ file: { hosts: 'a' } }), /config file: "hosts": expected a list/);
    fails(() => resolve({ env: { CORRAL_HOSTS: 'a;local' } }), /environment variable CORRAL_HOSTS: .*reserved/);
    fails(() => resolve({ flags: { hosts: ['x,-Q'] } }), /--host: /);
  });
});

describe('the listen address', () => {
  it('comes from --listen, CORRAL_LISTEN or "listen"', () => {
    expect(resolve({}).listen).toBe('127.0.0.1');
    expect(resolve({ file: { listen: '::1' } }).listen).toBe('::1');
    expect(resolve({ env: { CORRAL_LISTEN: '0.0.0.0' }, file: { listen: '::1' } }).listen).toBe('0.0.0.0');
    expect(resolve({ env: { CORRAL_LISTEN: '0.0.0.0' }, flags: { listen: '10.0.0.1' } }).listen).toBe('10.0.0.1');
  });

  it('tells whoever still sets CORRAL_HOST or "host" what they are called now', () => {
    fails(() => resolve({ env: { CORRAL_HOST: '0.0.0.0' } }), /CORRAL_HOST is no longer read: set CORRAL_LISTEN=0\.0\.0\.0/);
    fails(() => resolve({ file: { host: '0.0.0.0' } }), /"host" is now "listen"/);
  });

  it('lets an --on-stuck command, which gets CORRAL_HOST set to the machine name, run corral', () => {
    expect(resolve({ env: { CORRAL_HOST: 'laptop' }, machineName: 'laptop' }).listen).toBe('127.0.0.1');
  });
});
