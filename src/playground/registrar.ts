import type { Queue } from 'bullmq';
import type { Sandbox } from '../sandbox/index.js';
import type { Logger } from '../shared/logger.js';
import type { RegistrarSnapshot } from './web/protocol.js';

/** How often at most the panel is re-sent while requests stream in. */
const COALESCE_MS = 150;

/**
 * The registrar panel: what the embedded simulator received and holds, and its clock. Moving the
 * clock also wakes Regdesk's followers (their next look is a delayed BullMQ job, up to ten minutes
 * away): the delayed jobs of the follow queue are promoted through BullMQ's own Queue API, from here,
 * outside the features, so no feature knows the playground exists.
 */
export class RegistrarPanel {
  #listeners = new Set<(snapshot: RegistrarSnapshot) => void>();
  #timer: NodeJS.Timeout | undefined;
  #unsubscribe: (() => void) | undefined;

  constructor(
    private readonly sandbox: Sandbox | undefined,
    private readonly followQueue: Pick<Queue, 'getDelayed'> | undefined,
    private readonly logger: Logger,
  ) {
    this.#unsubscribe = sandbox?.onRequest(() => this.#schedule());
  }

  snapshot(): RegistrarSnapshot {
    if (this.sandbox === undefined) {
      return {
        requests: [],
        account: { domains: [], certificates: [], organizations: [] },
        clockOffsetMs: 0,
      };
    }
    return {
      requests: this.sandbox.requests(),
      account: this.sandbox.account(),
      clockOffsetMs: this.sandbox.clockOffsetMs,
    };
  }

  onChange(listener: (snapshot: RegistrarSnapshot) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Fast-forward the simulator; false when the registrar is not the embedded simulator. */
  async advance(ms: number): Promise<boolean> {
    if (this.sandbox === undefined) return false;
    this.sandbox.advanceClock(ms);
    await this.#wakeFollowers();
    this.#publish();
    return true;
  }

  close(): void {
    this.#unsubscribe?.();
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#listeners.clear();
  }

  async #wakeFollowers(): Promise<void> {
    if (this.followQueue === undefined) return;
    const delayed = await this.followQueue.getDelayed();
    let woken = 0;
    for (const job of delayed) {
      // A job a worker picked up meanwhile is no longer delayed; that is fine.
      if (
        await job.promote().then(
          () => true,
          () => false,
        )
      )
        woken++;
    }
    this.logger.debug({ woken }, 'playground clock moved; followers promoted');
  }

  #schedule(): void {
    if (this.#timer !== undefined) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#publish();
    }, COALESCE_MS);
    this.#timer.unref();
  }

  #publish(): void {
    const snapshot = this.snapshot();
    for (const listener of this.#listeners) listener(snapshot);
  }
}
