import { randomBytes } from 'node:crypto';
import { LuaScript, releaseOwn } from './lua.js';
import type { Redis } from './redis.js';

const RENEW_OWN = new LuaScript(
  `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end return 0`,
);

/**
 * One holder at a time across processes, for work that must not run twice at once (the audit
 * deliverer): taken with SET NX PX, kept by renewing well before it lapses, released only by its
 * holder. A holder that dies frees it after `ttlMs`; one that stalls longer than that loses it, and
 * learns so at its next renewal.
 */
export class Lease {
  readonly #token = randomBytes(12).toString('hex');

  constructor(
    private readonly redis: Redis,
    private readonly key: string,
    readonly ttlMs: number,
  ) {}

  /** Takes the lease, or renews it when this holder has it already; false while another holds it. */
  async acquire(): Promise<boolean> {
    if ((await this.redis.set(this.key, this.#token, 'PX', this.ttlMs, 'NX')) === 'OK') return true;
    return this.renew();
  }

  /** Extends this holder's lease by `ttlMs`; false when it is no longer this holder's. */
  async renew(): Promise<boolean> {
    return Number(await RENEW_OWN.run(this.redis, 1, this.key, this.#token, this.ttlMs)) === 1;
  }

  async release(): Promise<void> {
    await releaseOwn(this.redis, this.key, this.#token);
  }
}
