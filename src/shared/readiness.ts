import type { Incident } from './integrity.js';
import { pingRedis, type Redis } from './redis.js';

export interface ReadinessReport {
  ok: boolean;
  /** Why not ready (absent when ready): a stable word for scripts, then details. */
  reason?: 'shutting_down' | 'redis_unavailable' | 'data_lost' | 'data_rolled_back' | 'workers_not_running';
  [detail: string]: unknown;
}

export interface ReadinessSources {
  redis: Redis;
  /** The open data incident this process knows of (src/shared/integrity.ts). */
  incident: () => Incident | undefined;
  /** A worker process's queues: whether each is being worked (absent for `web`). */
  workers?: () => Array<{ name: string; running: boolean }>;
}

/**
 * `/readyz` (docs/requirements.md C1, R39): ready only while this process can serve — not while it shuts
 * down, while Redis does not answer, while Regdesk's data is known lost or rolled back, or (for a
 * worker) while its queues are not being worked. `/livez` asks nothing: a live process that is not
 * ready must not be restarted for it (a restart would not bring data back).
 */
export class Readiness {
  #stopping = false;

  constructor(private readonly sources: ReadinessSources) {}

  stopping(): void {
    this.#stopping = true;
  }

  async report(): Promise<ReadinessReport> {
    if (this.#stopping) return { ok: false, reason: 'shutting_down' };
    const redis = await pingRedis(this.sources.redis);
    if (!redis.ok) return { ok: false, reason: 'redis_unavailable', redis: { ok: false } };
    const incident = this.sources.incident();
    if (incident !== undefined) {
      return {
        ok: false,
        reason: incident.kind === 'lost' ? 'data_lost' : 'data_rolled_back',
        detectedAt: new Date(incident.detectedAt).toISOString(),
        detail: incident.detail,
        resolve:
          'Check the data (docs/data.md "Backup and restore"), then run `regdesk data accept` with the same environment.',
      };
    }
    const idle = (this.sources.workers?.() ?? []).filter((worker) => !worker.running);
    if (idle.length > 0) {
      return { ok: false, reason: 'workers_not_running', queues: idle.map((worker) => worker.name) };
    }
    return { ok: true, redis: { ok: true } };
  }
}
