// The one owner of process signals and of the shutdown order. A command that runs until stopped
// awaits untilStopped() (SIGINT, SIGTERM, SIGHUP, a crash, or stop()); whatever it starts goes on
// the shutdown stack, and the stack runs last in, first out, each step bounded in time, so
// viewers hear "corral is stopping" before the tmux connections go. A second signal while
// shutting down exits at once (a repeated SIGHUP does not: a closing terminal sends it twice),
// after the few synchronous exit steps that must run on every way out. Nothing below the CLI
// installs a signal handler.
//
// When the terminal goes away (the tmux pane closes with its server, or the program reading
// corral's output quits), writes fail with EIO or EPIPE. That is a stop, not a crash, and after it
// corral says nothing more: a message about a failed write would fail too, and loop.

export type StopReason =
  | { readonly kind: 'signal'; readonly signal: NodeJS.Signals }
  | { readonly kind: 'crash'; readonly error: unknown }
  | { readonly kind: 'request' }
  | { readonly kind: 'terminal-gone' };

/** The part of `process` the lifecycle uses (tests pass a stand-in). */
export interface LifecycleProcess {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  on(event: string, listener: (...args: any[]) => void): unknown;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  off(event: string, listener: (...args: any[]) => void): unknown;
  exit(code: number): void;
}

export interface Lifecycle {
  /** Resolves when corral should stop. The first call starts listening for signals and crashes. */
  untilStopped(): Promise<StopReason>;
  /** Asks for the stop (the dashboard's q does). */
  stop(reason?: StopReason): void;
  /** Why corral stops; null while it runs. */
  readonly reason: StopReason | null;
  /** Pushes a shutdown step; returns a function that takes it off again (it was done already). */
  onShutdown(name: string, step: () => unknown): () => void;
  /** Runs the steps, newest first; later calls wait for the same run. */
  shutdown(): Promise<void>;
  /**
   * A synchronous step for every way out: it runs once, at dispose() after the shutdown, or
   * instead of the shutdown when a second signal makes corral exit at once.
   */
  atExit(name: string, step: () => void): void;
  /** Stops listening for signals and crashes, and runs the exit steps. */
  dispose(): void;
}

export interface LifecycleOptions {
  readonly process?: LifecycleProcess;
  /** Longest a shutdown step may take before the next one runs anyway. */
  readonly stepTimeoutMs?: number;
  readonly stderr?: NodeJS.WritableStream;
  /** The terminal's streams: a write error on any of them that says the reader is gone stops corral. */
  readonly stdio?: readonly NodeJS.WritableStream[];
}

const GONE_CODES = new Set(['EIO', 'EPIPE', 'ENXIO', 'ECONNRESET', 'ERR_STREAM_DESTROYED', 'ERR_STREAM_WRITE_AFTER_END']);

/** Whether the error is a write to a terminal or pipe whose other end is gone. */
export function isTerminalGone(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && GONE_CODES.has(code);
}

export const STOP_SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

/** The exit code a shell reports for a process ended by the signal (128 + its number). */
export function signalExitCode(signal: NodeJS.Signals): number {
  const numbers: Partial<Record<NodeJS.Signals, number>> = { SIGHUP: 1, SIGINT: 2, SIGTERM: 15 };
  return 128 + (numbers[signal] ?? 15);
}

type Step<T> = { readonly name: string; readonly step: () => T };

/** Says a line on stderr until the terminal is gone; after that nothing more is written. */
class StopReporter {
  private quiet = false;

  constructor(private readonly stderr: NodeJS.WritableStream | undefined) {}

  say(text: string): void {
    if (this.quiet || !this.stderr) return;
    try {
      this.stderr.write(text);
    } catch (error) {
      if (isTerminalGone(error)) this.quiet = true;
    }
  }

  /** The terminal is gone: a message about a failed write would fail too, and loop. */
  silence(): void {
    this.quiet = true;
  }
}

/** The shutdown stack: steps run newest first, each bounded in time, the run shared by every caller. */
class ShutdownSteps {
  private readonly steps: Step<unknown>[] = [];
  private running: Promise<void> | null = null;

  constructor(
    private readonly stepTimeoutMs: number,
    private readonly report: StopReporter,
  ) {}

  push(name: string, step: () => unknown): () => void {
    const entry = { name, step };
    this.steps.push(entry);
    return () => {
      const index = this.steps.indexOf(entry);
      if (index !== -1) this.steps.splice(index, 1);
    };
  }

  run(): Promise<void> {
    this.running ??= (async () => {
      // Steps pushed while shutting down (rare) run too, still newest first.
      while (this.steps.length > 0) await this.runStep(this.steps.pop() as Step<unknown>);
    })();
    return this.running;
  }

  private async runStep({ name, step }: Step<unknown>): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), this.stepTimeoutMs);
      timer.unref();
    });
    try {
      const outcome = await Promise.race([Promise.resolve().then(step), timeout]);
      if (outcome === 'timeout')
        this.report.say(`corral: stopping ${name} took longer than ${this.stepTimeoutMs / 1000} s; going on\n`);
    } catch (error) {
      this.report.say(`corral: stopping ${name} failed: ${(error as Error)?.message ?? String(error)}\n`);
    } finally {
      clearTimeout(timer);
    }
  }
}

/** The synchronous steps for every way out; each runs once. */
class ExitSteps {
  private readonly steps: Step<void>[] = [];

  constructor(private readonly report: StopReporter) {}

  push(name: string, step: () => void): void {
    this.steps.push({ name, step });
  }

  run(): void {
    for (const { name, step } of this.steps.splice(0)) {
      try {
        step();
      } catch (error) {
        this.report.say(`corral: ${name} failed: ${(error as Error)?.message ?? String(error)}\n`);
      }
    }
  }
}

/** What is listened to while corral runs: the stop signals, crashes, and the terminal's write errors. */
class StopListeners {
  private listening = false;

  constructor(
    private readonly proc: LifecycleProcess,
    private readonly stdio: readonly NodeJS.WritableStream[],
    private readonly onSignal: (signal: NodeJS.Signals) => void,
    private readonly onCrash: (error: unknown) => void,
  ) {}

  start(): void {
    if (this.listening) return;
    this.listening = true;
    for (const signal of STOP_SIGNALS) this.proc.on(signal, this.onSignal);
    this.proc.on('uncaughtException', this.onCrash);
    this.proc.on('unhandledRejection', this.onCrash);
    for (const stream of this.stdio) stream.on('error', this.onCrash);
  }

  stop(): void {
    if (!this.listening) return;
    this.listening = false;
    for (const signal of STOP_SIGNALS) this.proc.off(signal, this.onSignal);
    this.proc.off('uncaughtException', this.onCrash);
    this.proc.off('unhandledRejection', this.onCrash);
    for (const stream of this.stdio) stream.off('error', this.onCrash);
  }
}

export function createLifecycle(options: LifecycleOptions = {}): Lifecycle {
  const proc: LifecycleProcess = options.process ?? process;
  const report = new StopReporter(options.stderr);
  const steps = new ShutdownSteps(options.stepTimeoutMs ?? 5_000, report);
  const exitSteps = new ExitSteps(report);
  let reason: StopReason | null = null;
  let resolveStopped: (reason: StopReason) => void = () => {};
  const stopped = new Promise<StopReason>((resolve) => {
    resolveStopped = resolve;
  });

  const stop = (why: StopReason = { kind: 'request' }) => {
    if (reason !== null) return;
    reason = why;
    resolveStopped(why);
  };
  const onSignal = (signal: NodeJS.Signals) => {
    // A second signal means "now": the person does not want to wait for the orderly stop. A
    // terminal that closes hangs up more than once (tmux's kill, then the pty's own hangup).
    if (reason !== null) {
      if (signal === 'SIGHUP') return;
      exitSteps.run();
      proc.exit(signalExitCode(signal));
      return;
    }
    stop({ kind: 'signal', signal });
  };
  // Also the terminal streams' error listener: a failed write there is a crash or the terminal gone.
  const onCrash = (error: unknown) => {
    if (isTerminalGone(error)) {
      report.silence();
      stop({ kind: 'terminal-gone' });
      return;
    }
    if (reason !== null && reason.kind === 'crash') return;
    if (reason !== null) {
      report.say(`corral: ${(error as Error)?.message ?? String(error)} while stopping\n`);
      return;
    }
    stop({ kind: 'crash', error });
  };
  const listeners = new StopListeners(proc, options.stdio ?? [], onSignal, onCrash);

  return {
    untilStopped() {
      listeners.start();
      return stopped;
    },
    stop,
    get reason() {
      return reason;
    },
    onShutdown: (name, step) => steps.push(name, step),
    atExit: (name, step) => exitSteps.push(name, step),
    shutdown: () => steps.run(),
    dispose() {
      exitSteps.run();
      listeners.stop();
    },
  };
}

/**
 * Waits for `work` at most `ms`: true when it finished (or failed) in time. What did not finish is
 * left to the caller, who ends it another way (quitting does: killChildren).
 */
export async function finishesWithin(work: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([work.then(() => true, () => true), late]);
  } finally {
    clearTimeout(timer);
  }
}
