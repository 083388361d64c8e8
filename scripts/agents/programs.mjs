// Everyday programs the recorder captures next to the agents: git's interactive prompts, rm -i,
// shells with two-line and λ prompts, pagers on their first page, the Python REPL, an apt-style
// [Y/n] question, ssh's host-key question, and screens that only look like prompts.

import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const sh = (script) => ['bash', '--norc', '--noprofile', '-c', script];
/** The version a program prints for `argv` (on stdout or, as ssh does, on stderr). */
const versionOf =
  (argv, pattern = /(\d+(?:\.\d+)+)/) =>
  () => {
    const run = spawnSync(argv[0], argv.slice(1), { encoding: 'utf8' });
    if (run.error) return 'not installed';
    return pattern.exec(`${run.stdout}${run.stderr}`)?.[1] ?? 'unknown';
  };

/** A program profile records one screen: it starts `argv`, waits for `wait`, records `state`. */
function program({ tool, program, version, state, label, argv, wait, prepare, delayMs, settle, before, cleanup }) {
  return {
    tool,
    program,
    version,
    cleanup,
    setup: (ctx) => {
      prepare?.(ctx);
      return { vars: {}, argv: typeof argv === 'function' ? argv(ctx) : argv };
    },
    steps: () => [...(before ?? []), { state, label, wait, delayMs, settle }],
  };
}

const bashVersion = versionOf(['bash', '--version']);

/** A fresh bash showing PS1 (no rc files), as a user with that prompt would see it after a command. */
const shellWith =
  (ps1, before = 'ls') =>
  ({ work }) => ['bash', '--norc', '--noprofile', '-c', `cd ${shellQuote(work)}; ${before}; PS1=${shellQuote(ps1)} exec bash --norc --noprofile -i`];

const zshVersion = versionOf(['zsh', '--version']);
const fishVersion = versionOf(['fish', '--version']);

/** zsh without rc files showing PS1 (the default prompt when null), after a command. */
const zshWith =
  (ps1, before = 'ls') =>
  ({ work }) => ['bash', '--norc', '--noprofile', '-c', `cd ${shellQuote(work)}; ${before}; ${ps1 === null ? '' : `PS1=${shellQuote(ps1)} `}exec zsh -f -i`];

/** fish without config files, with its own prompt function (the default prompt when null), after a command. */
const fishWith =
  (prompt, before = 'ls') =>
  ({ work }) => [
    'bash',
    '--norc',
    '--noprofile',
    '-c',
    `cd ${shellQuote(work)}; ${before}; exec fish --no-config -i -C ${shellQuote(`set -g fish_greeting${prompt === null ? '' : `; function fish_prompt; ${prompt}; end`}`)}`,
  ];

/** One everyday shell prompt, recorded as `stopped` once the prompt's last character shows. */
const shellPrompt = ({ program: name, version, state, argv, last }) =>
  program({ tool: 'programs', program: name, version, state, label: 'stopped', argv, wait: lastLine(last) });

function shellQuote(s) {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

const lastLine = (pattern) => (screen) => {
  const lines = screen.split('\n').filter((l) => l.trim() !== '');
  return pattern.test(lines.at(-1) ?? '');
};

const SSH_PORT = 42000 + (process.pid % 2000);

export const PROGRAMS = [
  program({
    tool: 'programs',
    program: 'git',
    version: versionOf(['git', '--version']),
    state: 'git-add-patch',
    label: 'permission',
    prepare: ({ work }) => {
      writeFileSync(join(work, 'README.md'), '# demo\n\nA folder the agent works in, changed.\n');
    },
    argv: ({ work }) => ['git', '-C', work, '-c', 'core.pager=cat', '-c', 'color.ui=always', 'add', '-p'],
    wait: /Stage this hunk \[/,
  }),
  program({
    tool: 'programs',
    program: 'git',
    version: versionOf(['git', '--version']),
    state: 'git-clean-interactive',
    label: 'stopped',
    prepare: ({ work }) => {
      writeFileSync(join(work, 'scratch.log'), 'temporary\n');
    },
    argv: ({ work }) => ['git', '-C', work, 'clean', '-i'],
    wait: /What now>/,
  }),
  program({
    tool: 'programs',
    program: 'coreutils rm',
    version: versionOf(['rm', '--version']),
    state: 'rm-interactive',
    label: 'permission',
    prepare: ({ work }) => writeFileSync(join(work, 'old-report.csv'), 'a,b\n'),
    argv: ({ work }) => ['bash', '--norc', '--noprofile', '-c', `cd ${shellQuote(work)}; rm -i old-report.csv; sleep 600`],
    wait: /remove regular file/,
  }),
  program({
    tool: 'programs',
    program: 'bash',
    version: bashVersion,
    state: 'shell-two-line-parrot',
    label: 'stopped',
    argv: shellWith('┌─[\\u@\\h]─[\\w]\n└──╼ \\$ '),
    wait: lastLine(/╼/),
  }),
  program({
    tool: 'programs',
    program: 'bash',
    version: bashVersion,
    state: 'shell-two-line-box',
    label: 'stopped',
    argv: shellWith('╭─\\u@\\h \\w\n╰─\\$ '),
    wait: lastLine(/╰─/),
  }),
  program({
    tool: 'programs',
    program: 'bash',
    version: bashVersion,
    state: 'shell-lambda',
    label: 'stopped',
    argv: shellWith('\\W λ '),
    wait: lastLine(/λ/),
  }),
  program({
    tool: 'programs',
    program: 'bash',
    version: bashVersion,
    state: 'shell-bare-lambda',
    label: 'stopped',
    argv: shellWith('λ '),
    wait: lastLine(/λ/),
  }),
  program({
    tool: 'programs',
    program: 'bash',
    version: bashVersion,
    state: 'shell-user-host',
    label: 'stopped',
    argv: shellWith('\\u@\\h:\\w\\$ '),
    wait: lastLine(/[$#]$/),
  }),
  // The prompts people use every day, in real zsh and fish as well as bash: defaults, one-line
  // prompts in the style of starship and pure, oh-my-zsh's arrow and lambda themes, and
  // powerlevel10k's two-line prompt, with and without the trailing space (tmux drops it anyway).
  shellPrompt({ program: 'zsh', version: zshVersion, state: 'zsh-default', argv: zshWith(null), last: /[%#]$/ }),
  shellPrompt({ program: 'zsh', version: zshVersion, state: 'zsh-starship', argv: zshWith('%~ main* ❯ '), last: /❯$/ }),
  shellPrompt({ program: 'zsh', version: zshVersion, state: 'zsh-starship-no-space', argv: zshWith('%~ main* ❯'), last: /❯$/ }),
  shellPrompt({ program: 'zsh', version: zshVersion, state: 'zsh-oh-my-zsh-arrow', argv: zshWith('➜  %c git:(main) ✗ '), last: /✗$/ }),
  shellPrompt({ program: 'zsh', version: zshVersion, state: 'zsh-oh-my-zsh-lambda', argv: zshWith('λ %~/ git:(main) '), last: /\)$/ }),
  shellPrompt({ program: 'zsh', version: zshVersion, state: 'zsh-powerlevel10k', argv: zshWith('╭─ %~  main ✔\n╰─❯ '), last: /❯$/ }),
  shellPrompt({ program: 'zsh', version: zshVersion, state: 'zsh-powerlevel10k-lean', argv: zshWith('%~ main\n❯'), last: /❯$/ }),
  shellPrompt({ program: 'fish', version: fishVersion, state: 'fish-default', argv: fishWith(null), last: /[>#]$/ }),
  shellPrompt({ program: 'fish', version: fishVersion, state: 'fish-starship', argv: fishWith("echo -n (prompt_pwd)' main* ❯ '"), last: /❯$/ }),
  shellPrompt({ program: 'bash', version: bashVersion, state: 'shell-starship-no-space', argv: shellWith('\\w main* ❯'), last: /❯$/ }),
  shellPrompt({ program: 'bash', version: bashVersion, state: 'shell-lambda-first', argv: shellWith('λ \\w '), last: /λ/ }),
  program({
    tool: 'programs',
    program: 'less',
    version: versionOf(['less', '--version'], /less (\d+)/),
    state: 'less-first-page',
    label: 'stopped',
    prepare: ({ work }) => writeFileSync(join(work, 'server.log'), Array.from({ length: 200 }, (_, i) => `2026-12-01 04:${String(i % 60).padStart(2, '0')} INFO request ${i} served in ${i % 17} ms`).join('\n') + '\n'),
    argv: ({ work }) => ['less', join(work, 'server.log')],
    wait: /server\.log/,
  }),
  program({
    tool: 'programs',
    program: 'less',
    version: versionOf(['less', '--version'], /less (\d+)/),
    state: 'less-second-page',
    label: 'stopped',
    prepare: ({ work }) => writeFileSync(join(work, 'server.log'), Array.from({ length: 200 }, (_, i) => `2026-12-01 04:${String(i % 60).padStart(2, '0')} INFO request ${i} served in ${i % 17} ms`).join('\n') + '\n'),
    argv: ({ work }) => ['less', join(work, 'server.log')],
    before: [{ wait: /server\.log/ }, { keys: ['Space'], wait: lastLine(/^:$/) }],
    wait: lastLine(/^:$/),
  }),
  program({
    tool: 'programs',
    program: 'man-db',
    version: versionOf(['man', '--version']),
    state: 'man-first-page',
    label: 'stopped',
    argv: ['man', 'ls'],
    wait: /Manual page ls\(1\)/,
  }),
  program({
    tool: 'programs',
    program: 'python3',
    version: versionOf(['/usr/bin/python3', '--version']),
    state: 'python-repl',
    label: 'stopped',
    argv: ['/usr/bin/python3', '-q'],
    wait: lastLine(/^>>>/),
  }),
  program({
    tool: 'programs',
    program: 'apt-get',
    version: versionOf(['apt-get', '--version'], /apt (\S+)/),
    state: 'apt-continue',
    label: 'permission',
    // The session is killed at the question (the hang-up aborts apt-get): nothing is installed.
    argv: ['apt-get', 'install', 'cowsay'],
    wait: /\[Y\/n\]/,
  }),
  program({
    tool: 'programs',
    program: 'OpenSSH',
    version: versionOf(['ssh', '-V'], /OpenSSH_([^\s,]+)/),
    state: 'ssh-host-key',
    label: 'permission',
    // A throwaway sshd on a loopback port, its own config and host key; the client has never seen it.
    prepare: ({ outside }) => {
      spawnSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', join(outside, 'host_key')]);
      writeFileSync(
        join(outside, 'sshd_config'),
        [`Port ${SSH_PORT}`, 'ListenAddress 127.0.0.1', `HostKey ${join(outside, 'host_key')}`, `PidFile ${join(outside, 'sshd.pid')}`, 'StrictModes no', 'UsePAM no', 'PasswordAuthentication no', ''].join('\n'),
      );
    },
    argv: ({ outside }) => [
      'bash',
      '--norc',
      '--noprofile',
      '-c',
      `mkdir -p /run/sshd; /usr/sbin/sshd -f ${shellQuote(join(outside, 'sshd_config'))} -E ${shellQuote(join(outside, 'sshd.log'))}; ssh -p ${SSH_PORT} -o UserKnownHostsFile=${shellQuote(join(outside, 'known_hosts'))} -o GlobalKnownHostsFile=/dev/null dev@127.0.0.1`,
    ],
    wait: /continue connecting \(yes\/no/,
    // sshd leaves its environment behind when it starts, so it is ended by its pid file.
    cleanup: (ctx) => {
      try {
        process.kill(Number(readFileSync(join(ctx.outside, 'sshd.pid'), 'utf8')), 'SIGTERM');
      } catch {
        // not started, or gone
      }
    },
  }),
  program({
    tool: 'programs',
    program: 'bash',
    version: bashVersion,
    state: 'waiting-for-lock',
    label: 'none',
    argv: sh(`echo 'Updating crates.io index'; echo 'Waiting for lock on /home/dev/.cargo/registry/index ...'; exec sleep 600`),
    wait: /Waiting for lock/,
  }),
  program({
    tool: 'programs',
    program: 'python3',
    version: versionOf(['/usr/bin/python3', '--version']),
    state: 'training-log',
    label: 'none',
    argv: [
      '/usr/bin/python3',
      '-c',
      [
        'import time, sys',
        'for step in range(0, 1400, 100):',
        '    print(f"step {step:5d} | loss {2.9 - step/1000:.3f} | lr 3.0e-04 | sample: the cat sat on the <unk> >", flush=True)',
        'time.sleep(600)',
      ].join('\n'),
    ],
    wait: /step {2}1300/,
  }),
];
