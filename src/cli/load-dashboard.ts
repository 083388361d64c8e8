// Loads the dashboard (Ink, React) only when a command needs it, in React's production mode: the
// development build costs several times the CPU per render. The bundle (dist/bin) has production
// mode built in; the module tree (dist/cli) honours a NODE_ENV that is set, for work on corral.

export function loadDashboard(): Promise<typeof import('./dashboard-session.js')> {
  const env = process.env;
  env.NODE_ENV ??= 'production';
  // Ink draws no live frames when it believes it runs in CI (CI=true). The dashboard only starts on
  // a terminal, so it is interactive whatever CI says.
  for (const key of ['CI', 'CONTINUOUS_INTEGRATION']) if (key in env) env[key] = 'false';
  // yoga-layout (Ink's layout engine) reads its inlined WebAssembly through fetch() when there is
  // one, and Node's fetch costs ~75 ms to load on first use. Without fetch it decodes the bytes
  // directly. Nothing else runs fetch while this module loads.
  const { fetch } = globalThis;
  Reflect.deleteProperty(globalThis, 'fetch');
  return import('./dashboard-session.js').finally(() => {
    if (fetch !== undefined) globalThis.fetch = fetch;
  });
}
