import { NotFoundError, type TlsCertificate } from '../../registrar/index.js';
import type { WorkspaceRef } from '../../shared/workspace.js';
import { orderedAt } from '../tls/blocks.js';
import type { RenewalLedger } from '../tls/renewals.js';
import { certificateThreshold } from './checks.js';
import type { RenewalSeen } from './store.js';

/** Statuses in which an order still becomes (or is) the new certificate; any other ends it. */
const COUNTING = new Set(['pending', 'issued']);
/** Orders whose status is read per look, newest first: a name rarely has more than one in flight. */
const MAX_CANDIDATES = 3;

/**
 * The renewal of `cert`, if Regdesk placed one: a later order for the same common name (placed after
 * the certificate's own order date, or naming it in `renewal_of_certificate_id`), whose current status
 * the registrar reports as pending or issued. Asked only once the certificate is within a threshold,
 * so the extra reads are few; `read` is the look's paced read. A renewal the registrar no longer
 * knows (404) does not count; any other failed read fails the look, which then raises nothing.
 */
export async function findRenewal(
  ledger: Pick<RenewalLedger, 'ordersFor'>,
  workspace: WorkspaceRef,
  cert: TlsCertificate,
  now: number,
  read: (id: string) => Promise<TlsCertificate>,
): Promise<RenewalSeen | undefined> {
  if (certificateThreshold(cert, now) === undefined) return undefined;
  const since = orderedAt(cert);
  // Without the certificate's own order date only an order naming it is known to be later.
  const candidates = (await ledger.ordersFor(workspace, cert.common_name))
    .filter(
      (order) =>
        order.id !== cert.id &&
        (order.renewalOf === cert.id || (since !== undefined && order.placedAt > since)),
    )
    .slice(0, MAX_CANDIDATES);
  for (const order of candidates) {
    const status = await read(order.id).then(
      (current) => current.status,
      (error: unknown) => {
        if (error instanceof NotFoundError) return undefined;
        throw error;
      },
    );
    if (status !== undefined && COUNTING.has(status))
      return { id: order.id, placedAt: order.placedAt, status };
  }
  return undefined;
}
