// The table of corral's commands. `corral` with no command runs DEFAULT_COMMAND.

import type { Command } from '../command.js';

export const COMMANDS: readonly Command[] = [];

export const DEFAULT_COMMAND = 'dashboard';
