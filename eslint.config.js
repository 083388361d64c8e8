// Lint rules, including the import boundaries between engine, ui and server.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', 'src/server/attach/web/vendor/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  { ignores: ['src/page/**'], languageOptions: { globals: { ...globals.node } } },
  {
    // The attach page's script runs in a browser (bundled by scripts/page-script.mjs): browser globals,
    // its own modules, and xterm.js's types (the page loads xterm.js itself); no Node, no server code.
    files: ['src/page/**'],
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: '^(?!\\./|@xterm/xterm$)', message: 'the page runs in a browser: it imports only its own modules (./name.js)' },
            { regex: '^@xterm/xterm$', allowTypeImports: true, message: 'the page loads xterm.js at run time (window.Terminal): import its types only' },
          ],
        },
      ],
    },
  },
  {
    // Small parts: a function that needs more is split along its seams.
    files: ['src/**'],
    rules: {
      'max-lines-per-function': ['error', { max: 80, skipBlankLines: true, skipComments: true, IIFEs: true }],
    },
  },
  {
    files: ['src/engine/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: ['ink', 'ink/*', 'react', 'react/*', 'ws', '**/ui/**', '**/server/**', '**/cli/**'] },
      ],
      // Time is injected: timers come through Timers.
      'no-restricted-globals': ['error', 'setTimeout', 'setInterval', 'setImmediate'],
    },
  },
  {
    // The tmux layer is the bottom of the engine: it imports nothing from above it but the shared
    // clock (time.ts) and plain shared types (types.ts). Formats and option names of corral's own
    // records are passed down to it (src/engine/records/tmux-formats.ts), never imported.
    files: ['src/engine/tmux/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['ink', 'ink/*', 'react', 'react/*', 'ws', '**/ui/**', '**/server/**', '**/cli/**'] },
            {
              regex: '^\\.\\./(?!(time/time|types)\\.js$)',
              message: 'src/engine/tmux imports nothing from above it but ../time/time.js and ../types.js: take formats and option names as parameters',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/ui/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: ['ws', 'execa', 'node:child_process', '**/server/**', '**/cli/**', '**/engine/tmux/**'],
          // Text that panes and hosts control reaches the terminal only through src/ui/Text.tsx.
          paths: [{ name: 'ink', importNames: ['Text'], message: "draw text with src/ui/Text.tsx, which makes it terminal-safe" }],
        },
      ],
    },
  },
  {
    // Notification channels: engine data in, processes and HTTP out; no UI, no servers.
    files: ['src/notify/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: ['ink', 'ink/*', 'react', 'react/*', 'ws', '**/ui/**', '**/server/**', '**/cli/**'] }],
    },
  },
  {
    // `corral hook` runs on every agent hook event: it must stay a small entry point.
    files: ['src/hook/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: ['ink', 'ink/*', 'react', 'react/*', 'ws', 'execa', '**/ui/**', '**/server/**', '**/cli/**', '**/engine/engine*', '**/engine/tmux/**'] }],
    },
  },
  {
    // Servers reach panes through the pane port only (engine/port/pane-port-api.ts): no tmux client,
    // no tmux types, nothing of the pane streams or the conversation pipeline behind the port.
    files: ['src/server/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: ['ink', 'ink/*', 'react', 'react/*', '**/ui/**', '**/cli/**', '**/engine/tmux/**', '**/engine/pane-stream/**', '**/engine/conversation/**', '**/engine/port/pane-port.js'] }],
    },
  },
  {
    // Signals and the shutdown order belong to src/cli/lifecycle.ts alone.
    files: ['src/engine/**', 'src/server/**', 'src/ui/**'],
    rules: {
      'no-restricted-properties': [
        'error',
        ...['on', 'once', 'addListener', 'prependListener', 'prependOnceListener'].map((property) => ({
          object: 'process',
          property,
          message: 'process events (signals, exit, crashes) are handled in src/cli/lifecycle.ts only',
        })),
      ],
    },
  },
);
