// `corral serve`: runs the HTTP services without the dashboard until SIGINT/SIGTERM. With no
// service named, the chat bridge runs.

import { UsageError } from '../args.js';
import type { Command } from '../command.js';
import { corralVersion, packageRoot } from '../package-root.js';
import { refreshHookLauncher } from '../hook-launcher.js';
import { ALL_SETTINGS } from '../command-settings.js';
import { configDir } from '../config-file.js';
import { checkDaemonUrl, connectDaemon } from '../daemon-sink.js';
import { remoteHosts, setupEngine } from '../setup.js';
import { resolveToken } from '../token.js';
import { notificationsWanted, notifyRules } from '../../notify/notifier.js';
import { lineLog } from '../log-lines.js';
import { backgroundTimers, clock } from '../time.js';

export const serveCommand: Command = {
  name: 'serve',
  summary: 'run the chat bridge and/or the attach server without the dashboard',
  usage: 'serve [--bridge] [--attach] [--listen ADDR] [--port PORT] [--token TOKEN]',
  details: [
    '--bridge: an OpenAI-compatible API on http://HOST:PORT/v1 where every watched pane is a model.',
    'Only the person\'s new message is typed; chat UIs\' title and summary requests are answered by',
    'corral (one line each on stderr), and the model "corral" never types.',
    '--attach: live pane mirrors over WebSocket (/attach/N), a browser page at /, corral attach.',
    'With neither --bridge nor --attach, the bridge runs. Every request needs the token:',
    '--token, else $CORRAL_TOKEN, else the file token in the config folder (made on first use).',
    'The token is printed only with --show-token; otherwise its file is named.',
    'With --attach a browser link is printed at every start: it holds a login code that works once,',
    'for 10 minutes, and signs the browser in (the token itself never goes into a URL). corral link',
    'prints a new one while the server runs; corral link --list and --revoke manage the sessions, which',
    'end after --attach-session-idle unused, --attach-session-max after sign-in, or when corral stops.',
    'Agent hooks (corral hooks install) are received on /hooks unless --no-hooks. Notifications:',
    '--on-stuck CMD, --notify-desktop, --ntfy TOPIC_URL (answer buttons reach /answer; see --answer-url).',
  ].join('\n'),
  settings: ALL_SETTINGS.filter((key) => key !== 'bell'),
  flags: [
    { name: 'bridge', type: 'boolean', description: 'run the chat bridge (the default)' },
    { name: 'attach', type: 'boolean', description: 'run the WebSocket attach server' },
    { name: 'token', type: 'string', valueName: 'TOKEN', description: 'API token (default $CORRAL_TOKEN or the token file)' },
    { name: 'show-token', type: 'boolean', description: 'print the token even when it is not new' },
    { name: 'mcp', type: 'boolean', description: 'the MCP server at /mcp (Streamable HTTP, behind the token; see corral mcp --help)' },
  ],
  async run({ settings, flags, env, stdout, stderr, lifecycle }) {
    if (notificationsWanted(settings)) notifyRules(settings); // bad notification settings stop us before anything starts
    checkDaemonUrl(settings.daemonUrl);
    const wantMcp = flags.mcp === true;
    if (!wantMcp && settings.allowTyping.length > 0) throw new UsageError('--allow-typing says what MCP clients may type into: add --mcp to serve the MCP server');
    const wantAttach = flags.attach === true;
    const wantBridge = flags.bridge === true || !wantAttach;
    const token = resolveToken({ flag: typeof flags.token === 'string' ? flags.token : undefined, env, configDir: configDir(env) });
    // The servers (and ws) load only for the commands that serve: `corral` itself starts faster.
    const { createServices, ServiceError } = await import('../http-services.js');
    const { engine, tmux, hosts } = await setupEngine(settings, env, stderr, { persistent: true });
    // Stopped in reverse order: the servers (viewers hear 1001) before the engine and its tmux
    // connection, and the daemon queue's last delivery after both.
    connectDaemon(engine, settings, (line) => stderr.write(`${line}\n`), lifecycle);
    lifecycle.onShutdown('the engine', () => engine.stop());
    const services = createServices({ engine, tmux, remotes: remoteHosts(hosts), settings, token: token.token, log: lineLog(stderr), record: { configDir: configDir(env), tokenPath: token.path } });
    lifecycle.onShutdown('the HTTP services', () => services.close());
    engine.start();
    try {
      if (wantBridge) await services.startBridge();
      if (wantAttach) await services.startAttach();
      if (settings.hooks) {
        await services.startHooks();
        // Installed hooks reach this corral from now on, wherever the last one lived.
        if (refreshHookLauncher(env)) stderr.write(`corral: the agent hooks now run this corral (${packageRoot()})\n`);
      }
      if (wantMcp) {
        const [{ createMcpFeature }, { typingPolicy }] = await Promise.all([import('../../server/mcp/mcp-feature.js'), import('../../server/mcp/typing-policy.js')]);
        const log = lineLog(stderr);
        await services.enable(createMcpFeature({ port: services.panes(), token: token.token, policy: typingPolicy(settings.allowTyping), log, version: corralVersion(), clock, timers: backgroundTimers }));
      }
    } catch (error) {
      if (error instanceof ServiceError) {
        stderr.write(`corral: ${error.message}\n`);
        return 1;
      }
      throw error;
    }
    const { startNotifications } = await import('../notifications.js');
    const notifier = await startNotifications({ engine, settings, services, log: lineLog(stderr, '') });
    if (notifier) lifecycle.onShutdown('notifications', () => notifier.close());
    const url = services.status().url ?? '';
    const others = [...hosts.keys()].slice(1);
    const watched = `tmux server ${tmux.serverLabel}${others.length > 0 ? `, and ${others.join(', ')} over ssh` : ''}`;
    if (wantBridge) stdout.write(`corral: chat bridge on ${url}/v1 (${watched})\n`);
    const link = services.attachLink();
    if (wantAttach && link) {
      stdout.write(`corral: attach server on ${url}/ (terminal: corral attach PANE)\n`);
      stdout.write(`corral: open in a browser (works once, for 10 minutes; corral link makes another): ${link.url}\n`);
    }
    if (settings.hooks) stdout.write(`corral: agent hooks received on ${url}/hooks (corral hooks install --agent NAME)\n`);
    if (wantMcp) stdout.write(`corral: MCP server on ${url}/mcp (typing ${settings.allowTyping.length > 0 ? `allowed into ${settings.allowTyping.join(', ')}` : 'not allowed'})\n`);
    // The token goes to the screen only when asked: scrollback and logs keep what they are shown.
    if (flags['show-token'] === true) stdout.write(`corral: API token: ${token.token}\n`);
    else if (token.source === 'generated') stdout.write(`corral: new API token saved in ${token.path} (print it with --show-token)\n`);
    else if (token.source === 'file') stdout.write(`corral: API token in ${token.path} (print it with --show-token)\n`);
    else stdout.write(`corral: API token from ${token.source === 'flag' ? '--token' : 'CORRAL_TOKEN'}\n`);
    await lifecycle.untilStopped();
    return 0;
  },
};
