// The state of the optional servers (chat bridge, attach server) as the dashboard shows it, in a
// tiny store so the header re-renders when the CLI starts or stops one. No I/O here: the CLI owns
// the servers and calls `update`; the dashboard only reads and asks through DashboardActions.

export type ServiceStatus = 'unavailable' | 'off' | 'starting' | 'on' | 'error';

export interface ServiceState {
  readonly status: ServiceStatus;
  /** Where it listens, when on (e.g. `http://127.0.0.1:7878/v1`). */
  readonly url?: string;
  /** Error text, or any short note. */
  readonly detail?: string;
  /** A browser link to show once it is on (the attach page, with a single-use login code). */
  readonly link?: string;
}

export interface ServicesSnapshot {
  readonly bridge: ServiceState;
  readonly attach: ServiceState;
}

export type ServiceName = keyof ServicesSnapshot;

export interface ServicesStore {
  getSnapshot(): ServicesSnapshot;
  subscribe(listener: () => void): () => void;
}

export interface MutableServicesStore extends ServicesStore {
  update(name: ServiceName, state: ServiceState): void;
}

export const UNAVAILABLE_SERVICES: ServicesSnapshot = {
  bridge: { status: 'unavailable' },
  attach: { status: 'unavailable' },
};

export function createServicesStore(initial: ServicesSnapshot = UNAVAILABLE_SERVICES): MutableServicesStore {
  let snapshot = initial;
  const listeners = new Set<() => void>();
  return {
    getSnapshot: () => snapshot,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    update(name, state) {
      snapshot = { ...snapshot, [name]: state };
      for (const listener of [...listeners]) listener();
    },
  };
}

export const SERVICE_TITLES: Record<ServiceName, string> = { bridge: 'chat bridge', attach: 'attach server' };

/** `bridge off`, `bridge on 127.0.0.1:7878`, `attach error` ... for the header. */
export function describeService(name: ServiceName, state: ServiceState): string {
  const short = name === 'bridge' ? 'bridge' : 'attach';
  switch (state.status) {
    case 'unavailable':
      return `${short} n/a`;
    case 'on':
      return state.url ? `${short} on ${state.url.replace(/^\w+:\/\//, '')}` : `${short} on`;
    default:
      return `${short} ${state.status}`;
  }
}
