// Loads the dashboard (Ink, React) only when a command needs it, in React's production mode
// unless NODE_ENV says otherwise: the development build costs several times the CPU per render.

export function loadDashboard(): Promise<typeof import('./dashboard-session.js')> {
  process.env.NODE_ENV ??= 'production';
  // Ink draws no live frames when it believes it runs in CI (CI=true). The dashboard only starts on
  // a terminal, so it is interactive whatever CI says.
  for (const key of ['CI', 'CONTINUOUS_INTEGRATION']) if (key in process.env) process.env[key] = 'false';
  return import('./dashboard-session.js');
}
