import { z } from 'zod';
import { registrableDomain } from '../../shared/domain-names.js';
import type { KeySpace, Redis } from '../../shared/redis.js';
import { type WorkspaceRef, workspaceId } from '../../shared/workspace.js';

/** One certificate order Regdesk placed: what a watched certificate's renewal is recognised by. */
export const PlacedOrder = z.lazy(() =>
  z.object({
    id: z.string(),
    commonName: z.string(),
    /** The certificate the order renews, when the order said so (`renewal_of_certificate_id`). */
    renewalOf: z.string().optional(),
    placedAt: z.number(),
    /** The DNS records the order validates by (dns-cname-token): the registrar shows them only once. */
    validation: z.array(z.object({ name: z.string(), type: z.string(), value: z.string() })).optional(),
  }),
);
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

  /** The same orders by registrable domain, for `/dns check` (its pending validation records). */
  #domainKey(workspace: WorkspaceRef, domain: string): string {
    return this.keys.key(`ws:${workspaceId(workspace)}`, 'tls', 'orders-under', commonNameKey(domain));
  }

  async record(workspace: WorkspaceRef, order: PlacedOrder): Promise<void> {
    const key = this.#key(workspace, order.commonName);
    const json = JSON.stringify({ ...order, commonName: commonNameKey(order.commonName) });
    const transaction = this.redis
      .multi()
      .zadd(key, order.placedAt, json)
      .zremrangebyrank(key, 0, -(MAX_PER_NAME + 1))
      .expire(key, LEDGER_TTL_S);
    const domain = registrableDomain(commonNameKey(order.commonName).replace(/^\*\./, ''));
    if (domain !== null) {
      const under = this.#domainKey(workspace, domain);
      transaction
        .zadd(under, order.placedAt, json)
        .zremrangebyrank(under, 0, -(MAX_PER_NAME + 1))
        .expire(under, LEDGER_TTL_S);
    }
    await transaction.exec();
  }

  /** Orders placed for names under the registrable `domain`, newest first. */
  async ordersUnder(workspace: WorkspaceRef, domain: string): Promise<PlacedOrder[]> {
    return parsedOrders(await this.redis.zrevrange(this.#domainKey(workspace, domain), 0, MAX_PER_NAME - 1));
  }

  /** Orders placed for `commonName`, newest first. */
  async ordersFor(workspace: WorkspaceRef, commonName: string): Promise<PlacedOrder[]> {
    return parsedOrders(await this.redis.zrevrange(this.#key(workspace, commonName), 0, MAX_PER_NAME - 1));
  }
}

function parsedOrders(raw: readonly string[]): PlacedOrder[] {
  return raw.flatMap((json) => {
    try {
      const parsed = PlacedOrder.safeParse(JSON.parse(json));
      return parsed.success ? [parsed.data] : [];
    } catch {
      return [];
    }
  });
}
