import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync, chmodSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  processControlDir,
  HostAuthError,
  HostSpecError,
  HostUnreachableError,
  TmuxMissingError,
  checkSshDestination,
  classifySshFailure,
  ensureControlDir,
  localTransport,
  quoteShellWord,
  remoteCommandLine,
  sshTransport,
} from '../../../src/engine/tmux/transport.js';
import { localSupervisorArgs, remoteSupervisorArgs } from '../../../src/engine/tmux/control-supervisor.js';

/** What a POSIX shell makes of `printf '%s\0' LINE`: the words it sees. */
function wordsSeenByShell(line: string): string[] {
  const out = execFileSync('/bin/sh', ['-c', `printf '%s\\0' ${line}`], { encoding: 'utf8' });
  return out.split('\0').slice(0, -1);
}

describe('quoting for the remote shell', () => {
  const nasty = [
    'plain',
    '',
    "it's",
    "''",
    '$(touch /tmp/corral-pwned)',
    '`id`',
    'a; rm -rf /',
    'two\nlines',
    '"double" \\back\\slash',
    '* ? [a] ~ #x %1 ! &',
    'tab\there',
    'ünïcødé ✓',
  ];

  it('gives the shell back every word exactly', () => {
    expect(wordsSeenByShell(remoteCommandLine(nasty))).toEqual(nasty);
  });

  it('quotes every word, even plain ones', () => {
    expect(quoteShellWord('tmux')).toBe("'tmux'");
    expect(quoteShellWord("it's")).toBe("'it'\\''s'");
    expect(remoteCommandLine(['tmux', '-L', 'x y'])).toBe("'tmux' '-L' 'x y'");
  });
});

describe('classifying ssh failures', () => {
  it.each([
    ['root@127.0.0.1: Permission denied (publickey).'],
    ['Host key verification failed.'],
    ['@@@@@\n@    WARNING: REMOTE HOST IDENTIFICATION HAS CHANGED!     @\n@@@@@\nHost key verification failed.'],
    ['Received disconnect from 10.0.0.5 port 22:2: Too many authentication failures'],
  ])('refused credentials are HostAuthError: %s', (stderr) => {
    const error = classifySshFailure('build-box', 255, `${stderr}\n`);
    expect(error).toBeInstanceOf(HostAuthError);
    const last = stderr.split('\n').at(-1)!;
    expect((error as HostAuthError).sshMessage).toBe(last);
    expect(error!.message).toBe(`build-box: ${last}`);
    expect((error as HostAuthError).host).toBe('build-box');
  });

  it.each([
    ['ssh: connect to host 127.0.0.1 port 2222: Connection refused'],
    ['ssh: connect to host 10.9.9.9 port 22: Connection timed out'],
    ['Connection timed out during banner exchange'],
    ['ssh: connect to host 10.0.0.1 port 22: No route to host'],
    ['ssh: Could not resolve hostname nowhere.invalid: Name or service not known'],
    ['Connection closed by 127.0.0.1 port 2222'],
  ])('anything else from ssh is HostUnreachableError: %s', (stderr) => {
    const error = classifySshFailure('build-box', 255, `${stderr}\r\n`);
    expect(error).toBeInstanceOf(HostUnreachableError);
    expect(error!.message).toBe(`build-box: ${stderr}`);
  });

  it('says something when ssh failed silently', () => {
    expect(classifySshFailure('b', 255, '')!.message).toMatch(/^b: ssh failed/);
  });

  it('a remote shell without tmux is TmuxMissingError naming the host', () => {
    const error = classifySshFailure('build-box', 127, 'bash: line 1: tmux: command not found\n');
    expect(error).toBeInstanceOf(TmuxMissingError);
    expect(error!.message).toContain('not installed on build-box');
    expect(classifySshFailure('b', 127, 'sh: 1: tmux: not found')).toBeInstanceOf(TmuxMissingError);
  });

  it("tmux's own failures are left to the caller", () => {
    expect(classifySshFailure('b', 1, "can't find pane: %99")).toBeNull();
    expect(classifySshFailure('b', 1, 'no server running on /tmp/tmux-0/x')).toBeNull();
  });

  it('a local transport classifies only a missing tmux (the supervisor shell says "not found")', () => {
    const local = localTransport({ kind: 'default' });
    expect(local.classify(255, 'Permission denied')).toBeNull();
    expect(local.classify(1, "can't find session: x")).toBeNull();
    expect(local.classify(127, 'corral-control: 1: tmux: not found')).toBeInstanceOf(TmuxMissingError);
  });
});

describe('ssh destinations', () => {
  it('refuses what ssh would read as an option, blanks and empty ones', () => {
    expect(() => checkSshDestination('-oProxyCommand=touch /tmp/x')).toThrow(HostSpecError);
    expect(() => checkSshDestination('')).toThrow(HostSpecError);
    expect(() => checkSshDestination('a b')).toThrow(HostSpecError);
    expect(() => checkSshDestination('a\nb')).toThrow(HostSpecError);
    expect(() => checkSshDestination('me@build-box')).not.toThrow();
  });
});

describe('transports build argv', () => {
  let dir = '';
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = '';
  });

  it('locally: the tmux program with the socket flags, no shell', () => {
    expect(localTransport({ kind: 'name', name: 'w' }, '/opt/tmux').command(['list-panes', '-a'])).toEqual({
      file: '/opt/tmux',
      args: ['-L', 'w', 'list-panes', '-a'],
    });
  });

  it('over ssh: options, -T, the destination, -- and one quoted remote line', () => {
    dir = mkdtempSync(join(tmpdir(), 'corral-cd-'));
    const controlDir = join(dir, 'cm');
    const transport = sshTransport({
      host: { name: 'box', ssh: 'me@box', socket: { kind: 'name', name: 'w' } },
      controlDir,
      ssh: '/usr/bin/ssh',
      connectTimeoutS: 3,
      extraOptions: ['-F', '/x/config'],
    });
    const { file, args } = transport.command(['send-keys', '-l', '-t', '%1', "it's $(id)"]);
    expect(file).toBe('/usr/bin/ssh');
    expect(args.slice(0, 2)).toEqual(['-F', '/x/config']);
    expect(args).toContain('BatchMode=yes');
    expect(args).toContain('ConnectTimeout=3');
    expect(args).toContain('ControlMaster=auto');
    expect(args).toContain('ControlPersist=10s');
    expect(args).toContain(`ControlPath=${controlDir}/%C`);
    expect(args.slice(-4)).toEqual(['-T', 'me@box', '--', "'tmux' '-L' 'w' 'send-keys' '-l' '-t' '%1' 'it'\\''s $(id)'"]);
    expect(transport.remote).toBe(true);
    expect(transport.host).toBe('box');
    expect(statSync(controlDir).mode & 0o777).toBe(0o700);
  });

  it('runs control clients under the supervisor: here, or over ssh on the remote shell', () => {
    const local = localTransport({ kind: 'name', name: 'w' }, '/opt/tmux').controlCommand(['-C', 'attach-session']);
    expect(local).toEqual({ file: '/bin/sh', args: localSupervisorArgs('/opt/tmux', ['-L', 'w', '-C', 'attach-session']), lifeline: true });
    dir = mkdtempSync(join(tmpdir(), 'corral-cd-'));
    const remote = sshTransport({ host: { name: 'box', ssh: 'me@box', socket: { kind: 'name', name: 'w' } }, controlDir: join(dir, 'cm') });
    const { args, lifeline } = remote.controlCommand(['-C', 'attach-session', '-t', "it's"]);
    expect(lifeline).toBe(false);
    expect(args.slice(-4, -1)).toEqual(['-T', 'me@box', '--']);
    // The remote shell sees sh, its script and tmux's words, each one intact.
    expect(wordsSeenByShell(args.at(-1)!)).toEqual(['sh', ...remoteSupervisorArgs('tmux', ['-L', 'w', '-C', 'attach-session', '-t', "it's"])]);
  });

  it('refuses a destination starting with "-" before building anything', () => {
    dir = mkdtempSync(join(tmpdir(), 'corral-cd-'));
    expect(() =>
      sshTransport({ host: { name: 'x', ssh: '-oProxyCommand=sh', socket: { kind: 'default' } }, controlDir: join(dir, 'cm') }),
    ).toThrow(HostSpecError);
  });

  it('tightens an existing control folder that others could read, and refuses a too long one', () => {
    dir = mkdtempSync(join(tmpdir(), 'corral-cd-'));
    const controlDir = join(dir, 'open');
    mkdirSync(controlDir);
    chmodSync(controlDir, 0o755);
    ensureControlDir(controlDir);
    expect(statSync(controlDir).mode & 0o777).toBe(0o700);
    expect(() => ensureControlDir(join(dir, 'x'.repeat(80)))).toThrow(/too long/);
  });
});

describe('each corral keeps its own master sockets', () => {
  it('uses a folder of its own under the user folder and removes those of processes that are gone', () => {
    const base = join(mkdtempSync(join(tmpdir(), 'cs-')), 'u');
    try {
      mkdirSync(join(base, '999999999'), { recursive: true }); // no such process
      mkdirSync(join(base, String(process.ppid)), { recursive: true }); // a live one
      const own = processControlDir(base, process.pid);
      expect(own).toBe(join(base, String(process.pid)));
      expect(statSync(own).mode & 0o777).toBe(0o700);
      expect(existsSync(join(base, '999999999'))).toBe(false);
      expect(existsSync(join(base, String(process.ppid)))).toBe(true);
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
  });
});
