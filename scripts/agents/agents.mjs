// How to run each agent CLI offline against the scripted model (scripts/agents/fake-model.mjs), and
// the walk the recorder takes it through. A profile says which package and binary it is, writes the
// agent's config into a throwaway HOME (telemetry and update checks off, the asking approval mode),
// and lists steps: what to type or press, what the screen must show, and, for the steps worth a
// fixture, the state's name and the verdict a person would give that screen (its label).
//
// Labels: permission (waits for an approval, a choice or a secret), stopped (idle at its input),
// busy (working), none (neither).
//
// To add an agent: a profile here, its package in manifest.json, and (if it names its tools
// differently) its tool names in fake-model.mjs's TOOLS.

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const json = (path, value) => {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, `${JSON.stringify(value, null, 2)}\n`);
};

/** What a turn's reply looks like on every agent: the scripted model's greeting. */
const ANSWERED = /Hello! I am a scripted model/;
const TOOL_DONE = /Done: the tool finished/;
/** The first words of a stalled reply (the model sends them, then nothing). */
const STALLED = /Let me look into that/;

/**
 * The part of a walk every agent shares once it is idle. `p` holds the agent's own screens:
 * idle (its input, idle), approval / editApproval / question / plan (the dialogs), busy (its
 * working indicator), and the keys that reject, cancel and answer.
 */
function commonWalk(walk) {
  // Dialogs are looked for near the bottom: a long answer above may quote their questions.
  const p = { ...walk };
  for (const key of ['approval', 'editApproval', 'question', 'plan']) if (walk[key]) p[key] = nearBottom(walk[key]);
  const steps = [
    { state: 'idle-fresh', label: 'stopped', wait: p.idle },
    // Filmed: the answer streams in, then the idle input, for a few seconds.
    { film: { start: 'idle', label: 'stopped' } },
    { send: 'hello there', wait: (s) => ANSWERED.test(s) && p.idle(s), mark: 'drawn' },
    { state: 'idle-after-answer', label: 'stopped', wait: (s) => ANSWERED.test(s) && p.idle(s) },
    { film: { stop: 'idle', holdMs: FILM_HOLD_MS } },
    // Filmed: the turn works, then its dialog waits (and animates, for some agents).
    { film: { start: 'permission', label: 'permission' } },
    { send: ({ outside }) => `RUNCMD touch ${outside}/ran-1.txt`, wait: p.approval, state: 'shell-approval', label: 'permission', mark: 'drawn' },
    { film: { stop: 'permission', holdMs: FILM_HOLD_MS } },
    { keys: p.reject, wait: p.rejected, state: 'shell-rejected', label: 'stopped' },
    // Some agents remember the folder of a command they asked about; then the second one runs at once.
    { send: ({ outside }) => `RUNCMD touch ${outside}/ran-2.txt`, wait: (s) => asTest(p.approval)(s) || TOOL_DONE.test(s) },
    { when: asTest(p.approval), keys: p.approve, wait: (s) => TOOL_DONE.test(s) },
    { wait: (s) => TOOL_DONE.test(s) && p.idle(s), state: 'idle-after-tool', label: 'stopped' },
    { send: ({ editPath }) => `EDITFILE ${editPath}`, wait: p.editApproval, state: 'edit-approval', label: 'permission' },
    { keys: p.reject, wait: p.idle },
    { film: { start: 'question', label: 'permission' } },
    { send: 'ASKBACK', wait: p.question, state: 'question', label: 'permission', optional: p.questionOptional, mark: 'drawn' },
    { film: { stop: 'question', holdMs: FILM_HOLD_MS } },
    { keys: p.dismissQuestion ?? p.reject, wait: p.idle, optional: p.questionOptional },
  ];
  if (p.plan) {
    steps.push(
      ...(p.enterPlanMode ?? []),
      { ...(p.planSend === null ? {} : { send: 'PLANNOW' }), wait: p.plan, state: 'plan-approval', label: 'permission', optional: p.planOptional },
      { keys: p.dismissPlan ?? p.reject, wait: p.idle, optional: p.planOptional },
      ...(p.leavePlanMode ?? []),
    );
  }
  steps.push(
    { send: 'THINKLONG', wait: p.busy, delayMs: 2500, state: 'thinking', label: 'busy', settle: false },
    { keys: p.cancel, wait: p.cancelled, state: 'cancelled', label: 'stopped' },
    // Some agents put the interrupted message back into their input.
    ...(p.clearInput ? [{ keys: p.clearInput, wait: p.idle }] : []),
    // Some agents draw a line only when it is complete; then their spinner is all there is to see.
    { send: 'STALL', wait: (s) => STALLED.test(s) || asTest(p.busy)(s), delayMs: 4000, state: 'stalled-stream', label: 'busy', settle: false },
    { keys: p.cancel, wait: p.cancelled },
    ...(p.clearInput ? [{ keys: p.clearInput, wait: p.idle }] : []),
    ...toolRun(p),
    ...moreScreens(p),
  );
  return steps;
}

/** How long a film goes on after its state arrived: long enough for a replay's threshold. */
const FILM_HOLD_MS = 10_000;

/**
 * The command of the filmed tool run: a minute of work that prints a line a second, as a test run
 * does (Claude Code refuses a plain `sleep 60`, telling the model to wait another way; Gemini CLI
 * refuses a command substitution).
 */
export const LONG_RUN = 'seq 1 60 | while read i; do echo "step $i of 60"; sleep 1; done';
/** The answer after the long run: the last answer on screen comes after the command. */
const ranLong = (s) => s.lastIndexOf('Done: the tool finished') > Math.max(s.lastIndexOf(LONG_RUN), s.lastIndexOf('step '));

/** A 60 s tool run, filmed from the request to the answer after it: busy all along, never a wait. */
function toolRun(p) {
  const approval = p.approval ? asTest(p.approval) : () => false;
  return [
    { film: { start: 'working', label: 'busy', sampleMs: 250 } },
    // An agent may show its spinner before its dialog: wait for the dialog or the first output.
    { send: `RUNCMD ${LONG_RUN}`, wait: (s) => approval(s) || /step \d+ of 60/.test(s) || ranLong(s), timeoutMs: 30_000, optional: true, filmOnly: true },
    { when: approval, keys: p.approve, wait: (s) => !approval(s), filmOnly: true },
    // From here the command runs (whatever the screen says about it) until its answer comes.
    { wait: (s) => !approval(s), mark: 'running', filmOnly: true },
    { wait: (s) => ranLong(s) && p.idle(s), timeoutMs: 120_000, mark: 'done', filmOnly: true },
    { film: { stop: 'working', holdMs: 3000 } },
  ];
}

/** The messages an API error shows once retries give up (the scripted model's words or the status). */
const RATE_ERROR = /Rate limited by the scripted model|\b429\b|Too Many Requests/;
const SERVER_ERROR = /scripted model failed|\b500\b|Internal Server Error/;

/**
 * Screens beyond the common walk: a typed draft, the agent's own menus, long answers and a
 * permission after one, a second permission after an approval, API errors once retries give up,
 * and the exit confirmation (last: some agents quit on the first Ctrl-C).
 */
function moreScreens(p) {
  const approval = p.approval ? asTest(p.approval) : () => false;
  // This message's error is shown (below the message: the one before may still be on screen) and
  // the agent is idle again, no retry under way (some count them down).
  const gaveUp = (keyword, error) => (s) => {
    const shown = Math.max(...[...s.matchAll(new RegExp(error.source, 'gi'))].map((m) => m.index), -1);
    return shown > s.lastIndexOf(keyword) && p.idle(s) && !/\bRetrying\b|\bretrying\b|Trying to reach/.test(bottom(s, 10));
  };
  const steps = [
    // Compared without spaces: a narrow input wraps the draft.
    { type: DRAFT, wait: (s) => s.replace(/\s+/g, '').includes(DRAFT.replace(/\s+/g, '')), state: 'draft', label: 'stopped' },
    { erase: DRAFT.length + 4, wait: p.idle },
  ];
  for (const menu of p.menus ?? []) {
    steps.push(
      // Its own screen when the profile names one (an overlay may leave the input drawn), else any screen but the idle input.
      { ...(menu.keys ? { keys: menu.keys } : { send: menu.command }), wait: (s) => (menu.wait ? menu.wait.test(s) : !p.idle(s)), state: `menu-${menu.name}`, label: 'stopped', optional: true },
      { keys: menu.close ?? ['Escape'], wait: p.idle, repeat: 3, optional: true },
      // A command the agent did not take stays in its input.
      { when: (s) => !p.idle(s) || s.includes(menu.command ?? '\u0000'), erase: 30, wait: p.idle, optional: true },
    );
  }
  steps.push({ send: 'LONGANSWER', wait: (s) => /End of the checklist/.test(s) && p.idle(s), state: 'long-answer', label: 'stopped', timeoutMs: 60_000 });
  if (p.approval) {
    steps.push(
      { send: ({ outside }) => `LONGRUN touch ${outside}/ran-4.txt`, wait: approval, state: 'approval-after-long-output', label: 'permission', timeoutMs: 60_000 },
      { keys: p.reject, wait: p.idle },
      { send: ({ outside }) => `RUNTWICE touch ${outside}/ran-5.txt ;; touch ${outside}/ran-6.txt`, wait: (s) => approval(s) || TOOL_DONE.test(s) },
      // The model says so before it asks for the second command.
      { when: approval, keys: p.approve, wait: (s) => approval(s) && /Now the second command/.test(s), state: 'second-approval', label: 'permission', optional: true },
      { wait: (s) => approval(s) || p.idle(s) },
      { when: approval, keys: p.reject, wait: p.idle, repeat: 2 },
    );
  }
  steps.push(
    { send: 'FAILRATE', wait: gaveUp('FAILRATE', RATE_ERROR), state: 'api-error-429', label: 'stopped', optional: true, timeoutMs: 180_000 },
    { when: (s) => !p.idle(s), keys: p.cancel, wait: p.idle, optional: true },
    { send: 'FAILSERVER', wait: gaveUp('FAILSERVER', SERVER_ERROR), state: 'api-error-500', label: 'stopped', optional: true, timeoutMs: 180_000 },
    { when: (s) => !p.idle(s), keys: p.cancel, wait: p.idle, optional: true },
    { keys: p.exitKeys ?? ['C-c'], wait: p.exitConfirm ?? /again to (?:exit|quit)/i, state: 'exit-confirm', label: 'stopped', settle: false, optional: true, timeoutMs: 3000 },
  );
  return steps;
}

/** What the draft step types without sending it. */
const DRAFT = 'a draft I have not sent yet';

const asTest = (wait) => (typeof wait === 'function' ? wait : (s) => wait.test(s));

/** A regex tested against the bottom 25 non-empty lines only (a function stays as it is). */
const nearBottom = (wait) => (typeof wait === 'function' ? wait : (s) => wait.test(bottom(s, 25)));

/** The last `n` non-empty lines of a screen, joined. */
const bottom = (screen, n) =>
  screen
    .split('\n')
    .filter((l) => l.trim() !== '')
    .slice(-n)
    .join('\n');


/** opencode-style config (opencode, Kilo Code): one OpenAI-compatible provider, the scripted model. */
function scriptedProvider(model) {
  return {
    model: 'scripted/scripted-model',
    provider: {
      scripted: {
        npm: '@ai-sdk/openai-compatible',
        name: 'Scripted',
        options: { baseURL: `${model.url}/v1`, apiKey: 'scripted' },
        models: { 'scripted-model': { name: 'Scripted model' } },
      },
    },
  };
}

/** opencode's menus (Kilo Code's too): its command palette and the dialogs of its commands. */
const OPENCODE_DIALOG = /\S\s{3,}esc(?:\/enter)?\s*$/m;
const OPENCODE_MENUS = [
  { name: 'commands', keys: ['C-p'], wait: OPENCODE_DIALOG },
  { name: 'model', command: '/models', wait: OPENCODE_DIALOG },
  { name: 'help', command: '/help', wait: OPENCODE_DIALOG },
  { name: 'resume', command: '/sessions', wait: OPENCODE_DIALOG },
  { name: 'settings', command: '/themes', wait: OPENCODE_DIALOG },
];

export const AGENTS = [
  {
    tool: 'claude-code',
    package: '@anthropic-ai/claude-code',
    bin: 'claude',
    setup({ home, model }) {
      // The asking mode: newer releases default to "auto", which lets a classifier decide.
      json(join(home, '.claude', 'settings.json'), { permissions: { defaultMode: 'default' } });
      return {
        vars: {
          ANTHROPIC_BASE_URL: model.url,
          ANTHROPIC_AUTH_TOKEN: 'scripted',
          DISABLE_AUTOUPDATER: '1',
          DISABLE_TELEMETRY: '1',
          DISABLE_ERROR_REPORTING: '1',
          CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
          // An API error is retried once, not ten times over minutes.
          CLAUDE_CODE_MAX_RETRIES: '1',
        },
        args: [],
      };
    },
    steps() {
      // The empty input, or its placeholder after an API error.
      // (A long answer may quote "esc to interrupt": only the status lines at the bottom count.)
      // (After ❯ it draws a no-break space.)
      const idle = (s) => /^❯(?:\sResend your message to try again)?\s*$/m.test(s) && /^─{10,}/m.test(s) && !/esc to interrupt/.test(bottom(s, 6));
      return [
        { state: 'first-run-theme', label: 'permission', wait: /Choose the text style/, optional: true },
        { keys: ['Enter'], wait: /Press Enter to continue|Quick safety check|trust this folder|^❯\s*$/m },
        { state: 'first-run-security-notes', label: 'stopped', wait: /Press Enter to continue/, optional: true },
        { keys: ['Enter'], wait: /Quick safety check|trust this folder|^❯\s*$/m, optional: true },
        { state: 'first-run-trust', label: 'permission', wait: /Quick safety check|trust this folder/, optional: true },
        { keys: ['Down', 'Enter'], wait: /Make auto mode|^❯\s*$/m, optional: true },
        { state: 'first-run-auto-mode', label: 'permission', wait: /Make auto mode your default/, optional: true },
        { keys: ['Down', 'Enter'], wait: idle, optional: true },
        ...commonWalk({
          idle,
          approval: /Do you want to proceed\?/,
          editApproval: /Do you want to (?:create|make this edit|overwrite)/,
          question: /Which colour should the button be\?/,
          plan: /Would you like to proceed\?|Ready to code\?|Exit plan mode\?/,
          busy: /esc to interrupt/,
          rejected: (s) => /Interrupted/.test(s) && idle(s),
          // The interrupted message comes back as a draft in the input.
          cancelled: (s) => /^❯/m.test(s) && /^─{10,}/m.test(s) && !/esc to interrupt/.test(s),
          clearInput: ['C-u'],
          approve: ['Enter'],
          reject: ['Escape'],
          cancel: ['Escape'],
          // Plan mode is one of the modes shift+tab cycles through (manual → accept edits → plan).
          enterPlanMode: [{ keys: ['BTab', 'BTab'], wait: /plan mode on/ }],
          leavePlanMode: [{ keys: ['BTab', 'BTab'], wait: /manual mode on/ }],
          planOptional: true,
          menus: [
            { name: 'model', command: '/model', wait: /Select model/ },
            { name: 'help', command: '/help', wait: /Esc to close|to switch/ },
            { name: 'resume', command: '/resume', wait: /Resume session/ },
            { name: 'settings', command: '/config', wait: /Esc to (?:go back|close|clear)/ },
          ],
          exitConfirm: /Press Ctrl-C again to exit/,
        }),
      ];
    },
  },
  {
    tool: 'codex',
    package: '@openai/codex',
    bin: 'codex',
    // Inside the workspace Codex writes without asking.
    editOutside: true,
    setup({ home, model }) {
      const codexHome = join(home, '.codex');
      mkdirSync(codexHome, { recursive: true });
      writeFileSync(
        join(codexHome, 'config.toml'),
        [
          'model = "gpt-5-codex"',
          'model_provider = "scripted"',
          'check_for_update_on_startup = false',
          '',
          '[model_providers.scripted]',
          'name = "Scripted"',
          `base_url = "${model.url}/v1"`,
          'env_key = "SCRIPTED_API_KEY"',
          'wire_api = "responses"',
          // An API error is retried once, not over minutes.
          'request_max_retries = 1',
          'stream_max_retries = 1',
          '',
          // /tmp is writable in the sandbox by default; without it, a file outside the project needs an approval.
          '[sandbox_workspace_write]',
          'exclude_tmpdir_env_var = true',
          'exclude_slash_tmp = true',
          '',
          '[analytics]',
          'enabled = false',
          '',
          '[otel]',
          'exporter = "none"',
          '',
        ].join('\n'),
      );
      return { vars: { CODEX_HOME: codexHome, SCRIPTED_API_KEY: 'scripted' }, args: [] };
    },
    steps() {
      const idle = (s) => /^› /m.test(bottom(s, 4)) && !/esc to interrupt|\(\d+[smh]? • esc/.test(bottom(s, 8)) && !/Press enter to confirm/.test(s);
      return [
        { state: 'first-run-trust', label: 'permission', wait: /Trust this folder\?/, optional: true },
        { keys: ['Enter'], wait: idle, optional: true },
        ...commonWalk({
          idle,
          approval: /Would you like to run the following command\?/,
          editApproval: /Would you like to (?:make the following edits|run the following command)\?/,
          question: /Which colour should the button be\?/,
          // Cut short on a narrow pane: "(30s • esc to …".
          busy: /esc to interrupt|\(\d+[smh]? • esc/,
          rejected: idle,
          cancelled: idle,
          approve: ['y'],
          reject: ['Escape'],
          cancel: ['Escape'],
          questionOptional: true,
          menus: [
            { name: 'model', command: '/model', wait: /Select Model|enter select · esc back/i },
            // Its shortcuts overlay: `?` in the empty composer.
            { name: 'help', keys: ['?'], wait: /\? \/ esc close/ },
            { name: 'resume', command: '/resume', wait: /Resume a previous session/ },
            { name: 'settings', command: '/permissions', wait: /Update Model Permissions/ },
          ],
          // Ctrl-C in the empty composer quits at once: it asks nothing.
          exitConfirm: /again to (?:exit|quit)/i,
        }),
      ];
    },
  },
  {
    tool: 'gemini-cli',
    package: '@google/gemini-cli',
    bin: 'gemini',
    setup({ home, model }) {
      json(join(home, '.gemini', 'settings.json'), {
        // maxAttempts: an API error is not retried for minutes.
        general: { enableAutoUpdate: false, enableAutoUpdateNotification: false, maxAttempts: 1 },
        privacy: { usageStatisticsEnabled: false },
        telemetry: { enabled: false },
      });
      return { vars: { GEMINI_API_KEY: 'scripted', GOOGLE_GEMINI_BASE_URL: model.url }, args: [] };
    },
    steps() {
      const idle = (s) => /Type your message or @path\/to\/file/.test(s) && !/esc to cancel/.test(s);
      return [
        // It takes a while to start under load; its first screens are worth waiting for.
        { state: 'first-run-trust', label: 'permission', wait: /Do you trust the files in this folder\?/, optional: true, timeoutMs: 30000 },
        { keys: ['Enter'], wait: /How would you like to authenticate|Type your message/, optional: true, timeoutMs: 30000 },
        { state: 'first-run-auth', label: 'permission', wait: /How would you like to authenticate/, optional: true },
        { keys: ['Enter'], wait: /Please enter your Gemini API key|Type your message/, optional: true },
        { state: 'first-run-api-key', label: 'permission', wait: /Please enter your Gemini API key/, optional: true },
        { keys: ['Enter'], wait: idle, optional: true },
        ...commonWalk({
          idle,
          approval: /Allow execution of/,
          editApproval: /Apply this change\?|Allow execution of|Allow write/,
          question: /Which colour should the button be\?/,
          // The model first asks to enter plan mode (an approval of its own), then presents the plan.
          plan: /Ready to start implementation\?|Approve (?:the )?plan|Exit Plan Mode|implementation plan/i,
          enterPlanMode: [
            { send: 'PLANNOW', wait: /Enter Plan Mode/, state: 'plan-mode-approval', label: 'permission', optional: true },
            { keys: ['Enter'], wait: /Ready to start implementation\?|Approve (?:the )?plan|Exit Plan Mode|implementation plan/i, optional: true },
          ],
          planSend: null,
          // Back to the manual mode ("plan Shift+Tab to manual" in plan mode).
          leavePlanMode: [{ when: (s) => /Shift\+Tab to manual/.test(s), keys: ['BTab'], wait: /Shift\+Tab to accept edits/, optional: true, repeat: 2 }],
          busy: /esc to cancel/,
          rejected: idle,
          cancelled: idle,
          approve: ['Enter'],
          reject: ['Escape'],
          cancel: ['Escape'],
          questionOptional: true,
          planOptional: true,
          menus: [
            { name: 'model', command: '/model' },
            { name: 'help', command: '/help' },
            { name: 'resume', command: '/resume' },
            { name: 'settings', command: '/settings' },
          ],
        }),
      ];
    },
  },
  {
    tool: 'opencode',
    package: 'opencode-ai',
    bin: 'opencode',
    editOutside: true,
    // Its first turn waits for its snapshot and location services: up to a minute on a loaded machine.
    slowness: 3,
    setup({ home, model }) {
      json(join(home, '.config', 'opencode', 'opencode.json'), {
        $schema: 'https://opencode.ai/config.json',
        autoupdate: false,
        share: 'disabled',
        ...scriptedProvider(model),
      });
      return { vars: { OPENCODE_DISABLE_AUTOUPDATE: '1', OPENCODE_DISABLE_SHARE: '1' }, args: [] };
    },
    steps() {
      const idle = (s) => /ctrl\+p commands/.test(s) && !/esc interrupt/.test(s) && !/Permission required/.test(s);
      // A loaded machine can take a minute to draw its first screen.
      return [{ wait: idle, timeoutMs: 120_000 }, ...commonWalk({
        idle,
        approval: /Permission required/,
        editApproval: /Permission required/,
        question: /Which colour should the button be\?/,
        busy: /esc interrupt/,
        rejected: idle,
        cancelled: idle,
        approve: ['Enter'],
        reject: ['Escape'],
        cancel: ['Escape', 'Escape'],
        questionOptional: true,
        menus: OPENCODE_MENUS,
      })];
    },
  },
  {
    tool: 'qwen-code',
    package: '@qwen-code/qwen-code',
    bin: 'qwen',
    setup({ home, model }) {
      // Auto-update must be off before the first start, or it updates itself globally with npm.
      json(join(home, '.qwen', 'settings.json'), {
        general: { enableAutoUpdate: false },
        privacy: { usageStatisticsEnabled: false },
        telemetry: { enabled: false },
        // The asking mode (this release defaults to "auto", a classifier).
        tools: { approvalMode: 'default' },
      });
      return { vars: { OPENAI_BASE_URL: `${model.url}/v1`, OPENAI_API_KEY: 'scripted', OPENAI_MODEL: 'scripted-model' }, args: [] };
    },
    steps() {
      // Its working line ends "· esc to cancel)", wrapped on a narrow pane.
      const idle = (s) => /Type your message or @path\/to\/file/.test(s) && !/· esc to\b/.test(s);
      return [
        { state: 'first-run-trust', label: 'permission', wait: /Do you trust the files in this folder\?/, optional: true },
        { keys: ['Enter'], wait: idle, optional: true },
        ...commonWalk({
          idle,
          approval: /Allow execution|Do you want to proceed\?|Waiting for user confirmation/,
          editApproval: /Apply this change\?|Allow|Do you want to proceed\?/,
          question: /Which colour should the button be\?/,
          // On a narrow pane its working line wraps inside the brackets.
          busy: /· esc to\b|\(\d+s · [↑↓] /,
          rejected: idle,
          // The interrupted message comes back as a draft in the input.
          cancelled: (s) => /^>\s+\S/m.test(s) && !/· esc to\b/.test(s),
          clearInput: ['C-u'],
          approve: ['Enter'],
          reject: ['Escape'],
          cancel: ['Escape'],
          plan: /Would you like to proceed\?/,
          // Its approval-mode command, not shift+tab: the cycle passes through auto and YOLO modes.
          enterPlanMode: [{ send: '/approval-mode plan', wait: /Plan mode/i, optional: true }],
          leavePlanMode: [{ send: '/approval-mode default', wait: /Ask permissions/, optional: true }],
          planOptional: true,
          menus: [
            { name: 'model', command: '/model' },
            { name: 'help', command: '/help' },
            { name: 'resume', command: '/resume' },
            { name: 'settings', command: '/settings' },
          ],
        }),
      ];
    },
  },
  // --- Agents that need the vendor's service: only their first screens are reachable offline. ---
  {
    tool: 'copilot',
    package: '@github/copilot',
    bin: 'copilot',
    // GitHub Copilot CLI signs in to GitHub; with no account it stops at its input after the trust dialog.
    setup: () => ({ vars: { COPILOT_DISABLE_TELEMETRY: '1', NO_UPDATE_NOTIFIER: '1' }, args: [] }),
    steps: () => [
      { state: 'first-run-trust', label: 'permission', wait: /Do you trust the files in this folder\?/ },
      { keys: ['Enter'], wait: /Please use \/login/ },
      { state: 'login-needed', label: 'stopped', wait: (s) => /Please use \/login/.test(s) && /^❯\s*$/m.test(s) },
    ],
  },
  {
    tool: 'cline',
    package: 'cline',
    bin: 'cline',
    // Its first screen picks a provider (its own sign-in, ChatGPT, or a provider of your own).
    setup: () => ({ vars: { CLINE_TELEMETRY_DISABLED: '1' }, args: [] }),
    steps: () => [{ state: 'first-run-provider', label: 'permission', wait: /Bring your own provider/ }],
  },
  {
    tool: 'amp',
    package: '@ampcode/cli',
    bin: 'amp',
    setup: () => ({ vars: {}, args: [] }),
    steps: () => [{ state: 'first-run-login', label: 'permission', wait: /Would you like to log in to Amp\?/ }],
  },
  {
    tool: 'droid',
    package: 'droid',
    bin: 'droid',
    setup: () => ({ vars: {}, args: [] }),
    steps: () => [{ state: 'first-run-login', label: 'permission', wait: /Please login with your Factory account/ }],
  },
  {
    tool: 'continue',
    package: '@continuedev/cli',
    bin: 'cn',
    // With no Continue account and no key it asks for an Anthropic API key first.
    setup: () => ({ vars: {}, args: [] }),
    steps: () => [{ state: 'first-run-api-key', label: 'permission', wait: /Enter your Anthropic API key:/ }],
  },
  {
    tool: 'auggie',
    package: '@augmentcode/auggie',
    bin: 'auggie',
    setup: () => ({ vars: {}, args: [] }),
    steps: () => [{ state: 'first-run-login', label: 'permission', wait: /Press return to open your browser/ }],
  },
  // --- pi runs offline: a provider of its own in ~/.pi/agent/models.json. It asks no approvals. ---
  {
    tool: 'pi',
    package: '@mariozechner/pi-coding-agent',
    bin: 'pi',
    setup({ home, model }) {
      json(join(home, '.pi', 'agent', 'models.json'), {
        providers: {
          scripted: {
            baseUrl: `${model.url}/v1`,
            api: 'openai-completions',
            apiKey: 'scripted',
            compat: { supportsDeveloperRole: false, supportsReasoningEffort: false },
            models: [{ id: 'scripted-model' }],
          },
        },
      });
      return { vars: { PI_SKIP_VERSION_CHECK: '1' }, args: [] };
    },
    steps() {
      const working = /^\s*[⠁-⣿] Working\.\.\./m;
      // The empty editor: two rules with nothing between them, its footer below.
      const idle = (s) => /^─{10,}\n(?:[ \t]*\n)?─{10,}$/m.test(s) && /%\/\d+k \(auto\)/.test(s) && !working.test(s);
      const p = {
        idle,
        busy: working,
        cancel: ['Escape'],
        menus: [
          { name: 'model', command: '/model' },
          { name: 'settings', command: '/settings' },
          { name: 'resume', command: '/resume' },
          { name: 'help', command: '/hotkeys' },
        ],
      };
      return [
        { state: 'idle-fresh', label: 'stopped', wait: idle },
        { film: { start: 'idle', label: 'stopped' } },
        { send: 'hello there', wait: (s) => ANSWERED.test(s) && idle(s), mark: 'drawn' },
        { state: 'idle-after-answer', label: 'stopped', wait: (s) => ANSWERED.test(s) && idle(s) },
        { film: { stop: 'idle', holdMs: FILM_HOLD_MS } },
        { send: ({ outside }) => `RUNCMD touch ${outside}/ran-1.txt`, wait: (s) => TOOL_DONE.test(s) && idle(s) },
        { state: 'idle-after-tool', label: 'stopped', wait: (s) => TOOL_DONE.test(s) && idle(s) },
        { send: 'THINKLONG', wait: working, delayMs: 2500, state: 'thinking', label: 'busy', settle: false },
        { keys: ['Escape'], wait: /Operation aborted/, state: 'cancelled', label: 'stopped' },
        {
          send: 'STALL',
          wait: (s) => STALLED.test(s) || working.test(s),
          delayMs: 4000,
          state: 'stalled-stream',
          label: 'busy',
          settle: false,
        },
        { keys: ['Escape'], wait: /Operation aborted/ },
        ...toolRun(p),
        ...moreScreens(p),
      ];
    },
  },
  // --- Kilo Code's CLI is a fork of opencode: the same provider config, under its own name. ---
  {
    tool: 'kilo',
    package: '@kilocode/cli',
    bin: 'kilo',
    editOutside: true,
    slowness: 3,
    setup({ home, model }) {
      json(join(home, '.config', 'kilo', 'kilo.json'), {
        autoupdate: false,
        share: 'disabled',
        ...scriptedProvider(model),
      });
      return { vars: { KILO_DISABLE_AUTOUPDATE: '1', OPENCODE_DISABLE_AUTOUPDATE: '1' }, args: [] };
    },
    steps() {
      const idle = (s) => /ctrl\+p commands/.test(s) && !/esc interrupt/.test(s) && !/Permission required/.test(s);
      // It can take a minute to draw its first screen on a loaded machine.
      return [
        { wait: idle, timeoutMs: 120_000 },
        ...commonWalk({
        idle,
        approval: /Permission required/,
        editApproval: /Permission required/,
        question: /Which colour should the button be\?/,
        busy: /esc interrupt/,
        rejected: idle,
        cancelled: idle,
        approve: ['Enter'],
        // Esc opens "Reject permission" with a feedback box; Enter confirms it empty.
        reject: ['Escape', 'Enter'],
        cancel: ['Escape', 'Escape'],
        questionOptional: true,
        menus: OPENCODE_MENUS,
      }),
      ];
    },
  },
];
