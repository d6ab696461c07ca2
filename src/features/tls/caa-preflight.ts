import { createHash } from 'node:crypto';
import type { DnsClient } from '../../dns/client.js';
import type { RegistrarClient } from '../../registrar/index.js';
import type { KeySpace, Redis } from '../../shared/redis.js';
import { withTimeout } from '../../shared/timeout.js';
import { type WorkspaceRef, workspaceId } from '../../shared/workspace.js';
import { text } from '../../text/index.js';
import { caaPreflight, PRODUCTS_BUDGET_MS, type ProductsCa, REGISTRAR_CA } from '../diagnostics/caa.js';

/** How long a refusal is remembered for the open modal: a second submission then orders anyway. */
const WARNED_TTL_S = 30 * 60;

/**
 * The `/tls order` modal's CAA preflight (issue #30): before anything is ordered, whether the CA
 * behind the registrar's products may issue for every name, in an order validated through DNS
 * (issue #45: RFC 8657's `validationmethods` and `accounturi`, and critical tags; diagnostics/caa.ts). A refusal is shown on the common name
 * with the record to add; submitting the same names again from the same modal orders anyway (the
 * person may be fixing CAA meanwhile, and a resolver may still hold the old records). A check that
 * cannot be made in time lets the order through.
 */
export class CaaPreflight {
  constructor(
    private readonly deps: {
      dnsClient: DnsClient;
      productsCa: ProductsCa;
      registrarFor(workspace: WorkspaceRef): RegistrarClient;
      redis: Redis;
      keys: KeySpace;
    },
  ) {}

  /** The field error to show, or undefined to go ahead. */
  async refusal(
    workspace: WorkspaceRef,
    viewId: string,
    names: readonly string[],
  ): Promise<string | undefined> {
    const registrar = this.deps.registrarFor(workspace);
    // Read within its budget; the read goes on and fills the cache for the next submission.
    const ca =
      (await withTimeout(
        this.deps.productsCa.for(workspaceId(workspace), () => registrar.tls.products()),
        PRODUCTS_BUDGET_MS,
      )) ?? REGISTRAR_CA;
    const found = await caaPreflight(this.deps.dnsClient, names, ca);
    if (found === undefined) return undefined;
    const fingerprint = createHash('sha256')
      .update([...names].sort().join(','))
      .digest('hex')
      .slice(0, 32);
    const key = this.deps.keys.key(`ws:${workspaceId(workspace)}`, 'tls', 'caa-warned', viewId);
    const before = await this.deps.redis.set(key, fingerprint, 'EX', WARNED_TTL_S, 'GET');
    if (before === fingerprint) return undefined;
    const { verdict } = found;
    const record = `${verdict.record.name}. CAA ${verdict.record.value}`;
    const { name } = found;
    switch (verdict.reason) {
      case 'issuer':
        return text.diagnostics.caaPreflightError({
          name,
          ca: ca.name,
          issuers: verdict.issuers.join(', '),
          record,
        });
      case 'methods':
        return text.diagnostics.caaPreflightMethods({ name, ca: ca.name, methods: verdict.methods, record });
      case 'account':
        return text.diagnostics.caaPreflightAccount({ name, ca: ca.name, record });
      case 'critical':
        return text.diagnostics.caaPreflightCritical({ name, tag: verdict.tag, record });
    }
  }
}
