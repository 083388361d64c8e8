// `corral mcp`: corral's MCP server on stdin/stdout, for an agent that supervises other agents'
// panes (configure it in the agent as a stdio server running `corral mcp`). It watches the servers
// as the dashboard does and reaches panes through the same guarded pane port.

import type { Command } from '../command.js';
import { settingsOf } from '../command-settings.js';
import { corralVersion } from '../package-root.js';
import { remoteHosts, setupEngine } from '../setup.js';
import { lineLog } from '../log-lines.js';
import { backgroundTimers, clock } from '../time.js';

/** The longest message (one JSON line) read from stdin; what the client has sent and corral not yet read counts too. */
const MAX_MESSAGE_BYTES = 16 * 1024 * 1024;

export const mcpCommand: Command = {
  name: 'mcp',
  summary: 'an MCP server on stdin/stdout: agents list, read, wait for and answer panes',
  usage: 'mcp [--allow-typing PATTERN]...',
  details: [
    'Tools: list_panes (state, reason, agent, quiet time, the answers a prompt offers), read_pane (the',
    'screen with history), wait_for (a pane, or any pane, reaching a state, with a timeout), answer (one',
    "of the answers the pane's prompt offers, only on the screen it was chosen on) and type_line (a line",
    'into a pane at its prompt or an idle shell). Reading is always allowed; answer and type_line only for',
    'the panes --allow-typing names (a key, a target or HOST/*; * matches anything). Each call is logged',
    'on stderr with the client that made it. corral serve --mcp offers the same over HTTP at /mcp.',
    'Example (Claude Code): claude mcp add corral -- corral mcp --allow-typing "work:*"',
  ].join('\n'),
  settings: settingsOf('servers', 'engine', 'prompt', 'mcp', 'status'),
  flags: [],
  async run({ settings, env, stderr, lifecycle }) {
    const [{ StdioServerTransport }, { createMcpServer }, { typingPolicy }, { buildPanePorts }] = await Promise.all([
      import('@modelcontextprotocol/sdk/server/stdio.js'),
      import('../../server/mcp/mcp-tools.js'),
      import('../../server/mcp/typing-policy.js'),
      import('../pane-ports.js'),
    ]);
    const log = lineLog(stderr);
    const { engine, tmux, hosts } = await setupEngine(settings, env, stderr, { persistent: true });
    lifecycle.onShutdown('the engine', () => engine.stop());
    const { port } = buildPanePorts({ engine, tmux, remotes: remoteHosts(hosts), settings });
    lifecycle.onShutdown('the pane ports', () => port.close());
    engine.start();
    // The client may connect at once (agents start their MCP servers with themselves); the tools
    // answer once the first look at every pane is done.
    const ready = engine.pollNow().then(() => engine.pollNow());
    const server = createMcpServer({ port, policy: typingPolicy(settings.allowTyping), log, via: 'stdio', version: corralVersion(), ready, clock, timers: backgroundTimers });
    const transport = new StdioServerTransport(process.stdin, process.stdout, { maxBufferSize: MAX_MESSAGE_BYTES });
    // The client closing its end of the pipe ends corral.
    process.stdin.once('end', () => lifecycle.stop());
    transport.onclose = () => lifecycle.stop();
    // A message past the limit makes the transport close: that is a failure, and said so.
    let tooLong = false;
    transport.onerror = (error) => {
      if (tooLong || !/exceeded maximum size/i.test(error.message)) return;
      tooLong = true;
      log(`a message on stdin is longer than ${MAX_MESSAGE_BYTES / 1024 / 1024} MB (an MCP message is one JSON line); stopping`);
    };
    lifecycle.onShutdown('the MCP server', () => server.close());
    await server.connect(transport);
    log(`MCP server on stdio (${tmux.serverLabel}); typing ${settings.allowTyping.length > 0 ? `allowed into ${settings.allowTyping.join(', ')}` : 'not allowed'}`);
    await lifecycle.untilStopped();
    return tooLong ? 1 : 0;
  },
};
