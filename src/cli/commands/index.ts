// The table of corral's commands. `corral` with no command runs DEFAULT_COMMAND.

import type { Command } from '../command.js';
import { attachCommand } from './attach.js';
import { checkCommand } from './check.js';
import { completionCommand } from './completion.js';
import { dashboardCommand } from './dashboard.js';
import { hookCommand } from './hook.js';
import { hooksCommand } from './hooks.js';
import { demoCommand } from './demo.js';
import { linkCommand } from './link.js';
import { lsCommand } from './ls.js';
import { endCommand } from './end.js';
import { mcpCommand } from './mcp.js';
import { newCommand } from './new.js';
import { nextCommand } from './next.js';
import { sendCommand } from './send.js';
import { serveCommand } from './serve.js';
import { statusCommand } from './status.js';
import { watchCommand } from './watch.js';

export const COMMANDS: readonly Command[] = [
  dashboardCommand,
  demoCommand,
  watchCommand,
  lsCommand,
  statusCommand,
  nextCommand,
  sendCommand,
  newCommand,
  endCommand,
  checkCommand,
  serveCommand,
  mcpCommand,
  attachCommand,
  linkCommand,
  hooksCommand,
  hookCommand,
  completionCommand,
];

export const DEFAULT_COMMAND = 'dashboard';
