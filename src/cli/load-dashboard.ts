// Loads the dashboard (Ink, React) only when a command needs it, in React's production mode
// unless NODE_ENV says otherwise: the development build costs several times the CPU per render.

export function loadDashboard(): Promise<typeof import('./dashboard-session.js')> {
  process.env.NODE_ENV ??= 'production';
  return import('./dashboard-session.js');
}
