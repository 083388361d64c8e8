// Resolves on the first SIGINT, SIGTERM or SIGHUP, so commands can shut down in order and exit 0.
// The handlers stay installed: a second signal while shutting down exits at once.

export function waitForSignal(signals: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP']): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    let received = false;
    const handler = (signal: NodeJS.Signals) => {
      if (received) process.exit(signal === 'SIGINT' ? 130 : 143);
      received = true;
      resolve(signal);
    };
    for (const s of signals) process.on(s, handler);
  });
}
