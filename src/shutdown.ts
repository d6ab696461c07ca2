/**
 * Signals are taken from the first line of the process on (docs/requirements.md R20): a SIGTERM or
 * SIGINT at any moment of start-up — while modules load, Redis connects or listeners are set up —
 * leads to the same graceful path as one after start-up, and exit code 0. A second signal exits at once.
 * This module imports nothing heavy so that `cli.ts` can install it before loading the rest.
 */
export interface Service {
  stop(): Promise<void>;
}

export interface Shutdown {
  /** Aborted by the first signal; start-up checks it between steps. */
  readonly signal: AbortSignal;
  /** Runs a long-lived service: started unless a signal came first, stopped on the first signal. */
  serve(start: (signal: AbortSignal) => Promise<Service>, report: (line: string) => void): Promise<void>;
  /** A one-shot command: a signal ends it at once, as by default. */
  oneShot(): void;
}

type Mode = 'undecided' | 'service' | 'one-shot';

const EXIT_CODES: Partial<Record<NodeJS.Signals, number>> = { SIGINT: 130, SIGTERM: 143 };

export function installShutdown(proc: NodeJS.Process = process): Shutdown {
  const controller = new AbortController();
  let mode: Mode = 'undecided';
  let service: Service | undefined;
  let report: (line: string) => void = (line) => proc.stderr.write(`${line}\n`);

  const stopService = (current: Service) => {
    current.stop().then(
      () => proc.exit(0),
      (error: unknown) => {
        report(`shutdown failed: ${error instanceof Error ? error.message : String(error)}`);
        proc.exit(1);
      },
    );
  };

  const onSignal = (signal: NodeJS.Signals) => {
    if (mode === 'one-shot') proc.exit(EXIT_CODES[signal] ?? 1);
    if (controller.signal.aborted) {
      report(`second ${signal}: exiting now`);
      proc.exit(1);
    }
    report(`${signal}: shutting down`);
    controller.abort(new ShutdownRequested(signal));
    // A service still starting sees the abort between steps, undoes what it made, and exits below.
    if (service !== undefined) stopService(service);
  };
  proc.on('SIGTERM', onSignal);
  proc.on('SIGINT', onSignal);

  return {
    signal: controller.signal,
    oneShot() {
      mode = 'one-shot';
      if (controller.signal.aborted) proc.exit(1);
    },
    async serve(start, reporter) {
      mode = 'service';
      report = reporter;
      if (controller.signal.aborted) proc.exit(0);
      try {
        const started = await start(controller.signal);
        if (controller.signal.aborted) stopService(started);
        else service = started;
      } catch (error) {
        if (controller.signal.aborted) proc.exit(0);
        throw error;
      }
    },
  };
}

export class ShutdownRequested extends Error {
  constructor(signal: NodeJS.Signals) {
    super(`start-up stopped by ${signal}`);
    this.name = 'ShutdownRequested';
  }
}

/** Between start-up steps: stop here when a signal has come (the caller undoes what it made). */
export function throwIfStopping(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw signal.reason instanceof Error ? signal.reason : new Error('stopped');
}
