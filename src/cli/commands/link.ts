// `corral link`: asks the running corral server for a new browser link to the attach page. The
// link carries a login code that works once, for 10 minutes, and signs the browser in; the
// long-lived token stays out of URLs, logs and shell history.

import { UsageError } from '../args.js';
import type { Command } from '../command.js';
import { settingsOf } from '../command-settings.js';
import { configDir } from '../config-file.js';
import { findToken } from '../token.js';
import { serverBase } from './attach.js';

export const linkCommand: Command = {
  name: 'link',
  summary: 'print a new browser link to the attach page (works once, for 10 minutes)',
  usage: 'link [--read-only] [--url URL]',
  details: [
    'Needs a running server with the attach server on (corral serve --attach, or w in the dashboard).',
    'The link signs one browser in for 30 days; --read-only makes a link that can look but not answer.',
    'The token comes from --token, $CORRAL_TOKEN, or the token file in the config folder.',
  ].join('\n'),
  settings: settingsOf('address'),
  flags: [
    { name: 'read-only', type: 'boolean', description: 'the browser may look but not answer or type' },
    { name: 'url', type: 'string', valueName: 'URL', description: 'corral server address (default http://HOST:PORT from the settings)' },
    { name: 'token', type: 'string', valueName: 'TOKEN', description: 'the server token (default $CORRAL_TOKEN, then the token file)' },
  ],
  async run({ settings, flags, positionals, stdout, stderr, env }) {
    if (positionals.length > 0) throw new UsageError('usage: corral link [--read-only] [--url URL]');
    const base = serverBase(settings, flags);
    let endpoint: URL;
    try {
      endpoint = new URL('/api/login-codes', base);
    } catch {
      throw new UsageError(`--url is not a URL: ${JSON.stringify(base)}`);
    }
    const token = findToken({ flag: typeof flags.token === 'string' ? flags.token : undefined, env, configDir: configDir(env) });
    if (!token) {
      stderr.write('corral: no token: pass --token, set CORRAL_TOKEN, or start the server once (corral serve) so it writes its token file\n');
      return 2;
    }
    let res: Response;
    try {
      res = await fetch(endpoint, {
        method: 'POST',
        headers: { authorization: `Bearer ${token.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ write: flags['read-only'] !== true }),
      });
    } catch {
      stderr.write(`corral: no corral server at ${base}: start it with corral serve --attach\n`);
      return 1;
    }
    const body = (await res.json().catch(() => null)) as { url?: string; expires_at?: number; write?: boolean } | null;
    if (res.status === 401) {
      stderr.write(`corral: the server at ${base} refused the token (401): use the token corral serve printed (--token or CORRAL_TOKEN)\n`);
      return 1;
    }
    if (res.status === 404) {
      stderr.write(`corral: the attach server is off at ${base}: start it with corral serve --attach (or w in the dashboard)\n`);
      return 1;
    }
    if (!res.ok || typeof body?.url !== 'string') {
      stderr.write(`corral: the server at ${base} could not make a link (HTTP ${res.status})\n`);
      return 1;
    }
    const until = new Date(body.expires_at ?? Date.now()).toLocaleTimeString();
    stdout.write(`${body.url}\n`);
    stderr.write(`corral: ${body.write ? 'a writing' : 'a read-only'} link; it works once, until ${until}\n`);
    return 0;
  },
};
