import type { Logger } from '../shared/logger.js';
import type { Redis } from '../shared/redis.js';
import { withTimeout } from '../shared/timeout.js';

export type Role = 'start' | 'web' | 'worker';

/**
 * What start-up has made, closed in reverse on stop. Each step registers what it made here before
 * the next check, so a stop at any point closes exactly what exists (docs/requirements.md R20).
 */
export class Closers {
  readonly #closers: Array<{ name: string; close: () => Promise<unknown> }> = [];

  constructor(private readonly logger: Logger) {}

  push(name: string, close: () => Promise<unknown>): void {
    this.#closers.push({ name, close });
  }

  async closeAll(): Promise<void> {
    for (const { name, close } of this.#closers.reverse()) {
      try {
        await close();
      } catch (error) {
        this.logger.warn(
          { component: name, err: error instanceof Error ? error.message : String(error) },
          'close failed',
        );
      }
    }
    this.#closers.length = 0;
  }
}

/** What every start-up step is handed. */
export interface StartContext {
  role: Role;
  logger: Logger;
  /** Human-facing lines (start-up notes, next steps). */
  say: (line: string) => void;
  /** Marks the start of a step; throws when shutdown was asked for meanwhile. */
  step: (name: string) => void;
  closers: Closers;
}

export async function quit(redis: Redis): Promise<void> {
  try {
    await withTimeout(redis.quit(), 2_000);
  } finally {
    redis.disconnect();
  }
}
