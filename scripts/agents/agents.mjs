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
function commonWalk(p) {
  const steps = [
    { state: 'idle-fresh', label: 'stopped', wait: p.idle },
    { send: 'hello there', wait: (s) => ANSWERED.test(s) && p.idle(s) },
    { state: 'idle-after-answer', label: 'stopped', wait: (s) => ANSWERED.test(s) && p.idle(s) },
    { send: ({ outside }) => `RUNCMD touch ${outside}/ran-1.txt`, wait: p.approval, state: 'shell-approval', label: 'permission' },
    { keys: p.reject, wait: p.rejected, state: 'shell-rejected', label: 'stopped' },
    // Some agents remember the folder of a command they asked about; then the second one runs at once.
    { send: ({ outside }) => `RUNCMD touch ${outside}/ran-2.txt`, wait: (s) => asTest(p.approval)(s) || TOOL_DONE.test(s) },
    { when: asTest(p.approval), keys: p.approve, wait: (s) => TOOL_DONE.test(s) },
    { wait: (s) => TOOL_DONE.test(s) && p.idle(s), state: 'idle-after-tool', label: 'stopped' },
    { send: ({ editPath }) => `EDITFILE ${editPath}`, wait: p.editApproval, state: 'edit-approval', label: 'permission' },
    { keys: p.reject, wait: p.idle },
    { send: 'ASKBACK', wait: p.question, state: 'question', label: 'permission', optional: p.questionOptional },
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
  );
  return steps;
}

const asTest = (wait) => (typeof wait === 'function' ? wait : (s) => wait.test(s));

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
        },
        args: [],
      };
    },
    steps() {
      const idle = (s) => /^❯\s*$/m.test(s) && /^─{10,}/m.test(s) && !/esc to interrupt/.test(s);
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
      const idle = (s) => /^› /m.test(bottom(s, 4)) && !/esc to interrupt/.test(s) && !/Press enter to confirm/.test(s);
      return [
        { state: 'first-run-trust', label: 'permission', wait: /Trust this folder\?/, optional: true },
        { keys: ['Enter'], wait: idle, optional: true },
        ...commonWalk({
          idle,
          approval: /Would you like to run the following command\?/,
          editApproval: /Would you like to (?:make the following edits|run the following command)\?/,
          question: /Which colour should the button be\?/,
          busy: /esc to interrupt/,
          rejected: idle,
          cancelled: idle,
          approve: ['y'],
          reject: ['Escape'],
          cancel: ['Escape'],
          questionOptional: true,
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
        general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
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
          busy: /esc to cancel/,
          rejected: idle,
          cancelled: idle,
          approve: ['Enter'],
          reject: ['Escape'],
          cancel: ['Escape'],
          questionOptional: true,
          planOptional: true,
        }),
      ];
    },
  },
  {
    tool: 'opencode',
    package: 'opencode-ai',
    bin: 'opencode',
    editOutside: true,
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
      return commonWalk({
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
      });
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
      return [
        { state: 'idle-fresh', label: 'stopped', wait: idle },
        { send: 'hello there', wait: (s) => ANSWERED.test(s) && idle(s) },
        { state: 'idle-after-answer', label: 'stopped', wait: (s) => ANSWERED.test(s) && idle(s) },
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
      ];
    },
  },
  // --- Kilo Code's CLI is a fork of opencode: the same provider config, under its own name. ---
  {
    tool: 'kilo',
    package: '@kilocode/cli',
    bin: 'kilo',
    editOutside: true,
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
      }),
      ];
    },
  },
];
