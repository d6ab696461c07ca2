import { randomBytes } from 'node:crypto';
import { CHECK_LIMITS } from '../../dns/bounds.js';
import { AppError } from '../../shared/app-error.js';
import { Limiter } from '../../shared/limiter.js';
import { releaseOwn } from '../../shared/lua.js';
import type { KeySpace, Redis } from '../../shared/redis.js';
import { text } from '../../text/index.js';

/** One person's live checks (contract §3): one at a time, ten a minute. */
const CHECKS_PER_MINUTE = 10;
const MINUTE_MS = 60_000;
/**
 * How long a running check holds its person's lock when its process dies before releasing it: the
 * check's own deadline plus the registrar reads beside it (their client gives up after 15 s).
 */
const RUNNING_LEASE_MS = CHECK_LIMITS.deadlineMs + 15_000;

/** A check refused before its ack; the message says when to try again. */
export class CheckRefused extends AppError {
  constructor(message: () => string) {
    super('regdesk_dns_check_refused', message);
  }
}

/**
 * Admits a person's `/dns check` before its ack, or refuses it with when to retry: a live check asks
 * other people's servers, so one Slack member must not be able to turn Regdesk into a scanner by
 * typing fast. Shared by every process through Redis (the sliding window of shared/limiter.ts).
 */
export class CheckGate {
  readonly #limiter: Limiter;

  constructor(
    private readonly redis: Redis,
    private readonly keys: KeySpace,
  ) {
    this.#limiter = new Limiter(redis);
  }

  /** The release of the person's running-check lock; throws CheckRefused when they may not check now. */
  async admit(team: string, user: string): Promise<() => Promise<void>> {
    const tag = `ws:${team}`;
    const lock = this.keys.key(tag, 'dns-check-running', user);
    const token = randomBytes(8).toString('hex');
    if ((await this.redis.set(lock, token, 'PX', RUNNING_LEASE_MS, 'NX')) === null)
      throw new CheckRefused(() => text.diagnostics.checkRunning);
    const release = () => releaseOwn(this.redis, lock, token);
    const quota = await this.#limiter.acquire([
      { key: this.keys.key(tag, 'dns-checks', user), max: CHECKS_PER_MINUTE, windowMs: MINUTE_MS },
    ]);
    if (!quota.ok) {
      await release();
      const seconds = Math.max(1, Math.ceil(quota.retryAfterMs / 1000));
      throw new CheckRefused(() => text.diagnostics.checkTooMany({ seconds }));
    }
    return release;
  }
}
