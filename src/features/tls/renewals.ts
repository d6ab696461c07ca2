import { z } from 'zod';
import type { KeySpace, Redis } from '../../shared/redis.js';
import { type WorkspaceRef, workspaceId } from '../../shared/workspace.js';

/** One certificate order Regdesk placed: what a watched certificate's renewal is recognised by. */
export const PlacedOrder = z.object({
  id: z.string(),
  commonName: z.string(),
  /** The certificate the order renews, when the order said so (`renewal_of_certificate_id`). */
  renewalOf: z.string().optional(),
  placedAt: z.number(),
});
export type PlacedOrder = z.infer<typeof PlacedOrder>;

/** Orders kept per common name: renewals of one name are yearly, so a few cover any certificate. */
const MAX_PER_NAME = 10;
/**
 * A name's orders are kept this long after its latest order: longer than the one-year terms renewals
 * are ordered for, so a renewal ordered early still counts when the old certificate nears its end.
 */
const LEDGER_TTL_S = 400 * 86_400;

const commonNameKey = (name: string) => name.toLowerCase().replace(/\.$/, '');

/**
 * The certificate orders Regdesk placed, per workspace and common name. The registrar cannot say
 * whether a certificate's renewal was ordered (docs/registrar-api.md §2.2), but every order goes
 * through Regdesk (order-service.ts), so watches read this instead (docs/requirements.md R37). Under
 * the workspace's hash tag: an uninstall's purge removes it.
 */
export class RenewalLedger {
  constructor(
    private readonly redis: Redis,
    private readonly keys: KeySpace,
  ) {}

  #key(workspace: WorkspaceRef, commonName: string): string {
    return this.keys.key(`ws:${workspaceId(workspace)}`, 'tls', 'orders', commonNameKey(commonName));
  }

  async record(workspace: WorkspaceRef, order: PlacedOrder): Promise<void> {
    const key = this.#key(workspace, order.commonName);
    await this.redis
      .multi()
      .zadd(key, order.placedAt, JSON.stringify({ ...order, commonName: commonNameKey(order.commonName) }))
      .zremrangebyrank(key, 0, -(MAX_PER_NAME + 1))
      .expire(key, LEDGER_TTL_S)
      .exec();
  }

  /** Orders placed for `commonName`, newest first. */
  async ordersFor(workspace: WorkspaceRef, commonName: string): Promise<PlacedOrder[]> {
    const raw = await this.redis.zrevrange(this.#key(workspace, commonName), 0, MAX_PER_NAME - 1);
    return raw.flatMap((json) => {
      try {
        const parsed = PlacedOrder.safeParse(JSON.parse(json));
        return parsed.success ? [parsed.data] : [];
      } catch {
        return [];
      }
    });
  }
}
