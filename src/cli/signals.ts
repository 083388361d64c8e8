// Resolves on the first SIGINT or SIGTERM, so commands can shut down in order and exit 0.

export function waitForSignal(signals: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP']): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const handler = (signal: NodeJS.Signals) => {
      for (const s of signals) process.off(s, handler);
      resolve(signal);
    };
    for (const s of signals) process.on(s, handler);
  });
}
