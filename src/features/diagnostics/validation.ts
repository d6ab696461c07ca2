import { canonicalName, type DnsClient, sameName } from '../../dns/client.js';
import type { ZoneServer } from './delegation.js';
import { type CheckResult, finding, reasonOf } from './findings.js';

export interface PendingValidation {
  /** The certificate waiting for its records. */
  id: string;
  records: ReadonlyArray<{ name: string; type: string; value: string }>;
}

export interface ValidationView extends CheckResult {
  /** Certificates whose records every authoritative nameserver serves. */
  visible: Array<{ id: string; count: number }>;
}

/**
 * The validation records of certificates still pending, asked of every nameserver that answers for
 * the zone with authority (RD off: what the CA's own lookup will reach, not a resolver's cache). A
 * record counts as visible only when all of them serve it with the expected value.
 */
export async function checkValidation(
  dns: DnsClient,
  servers: readonly ZoneServer[],
  pending: readonly PendingValidation[],
): Promise<ValidationView> {
  const view: ValidationView = { findings: [], notChecked: [], visible: [] };
  if (servers.length === 0) return view;
  for (const order of pending) {
    let served = 0;
    for (const record of order.records) {
      const seen = new Set<string>();
      let missing = false;
      let unreachable = false;
      for (const server of servers) {
        try {
          // dns-cname-token records are CNAMEs (docs/registrar-api.md §2.2 validation.dns_records).
          const answer = await dns.ask(dns.nameserver(server.address), record.name, 'CNAME');
          const values = answer.answers.flatMap((found) =>
            found.type === 'CNAME' && sameName(found.name, record.name) ? [canonicalName(found.data)] : [],
          );
          if (!values.includes(canonicalName(record.value))) missing = true;
          for (const value of values) seen.add(value);
        } catch (error) {
          view.notChecked.push({ what: { code: 'validation', id: order.id }, why: reasonOf(error) });
          unreachable = true;
        }
      }
      // A server that did not answer is "could not check", never evidence that the record is missing.
      if (!missing && !unreachable) served++;
      if (!missing) continue;
      const other = [...seen].filter((value) => value !== canonicalName(record.value));
      const name = canonicalName(record.name);
      const fix = [{ name, type: record.type, value: record.value, where: 'zone' as const }];
      view.findings.push(
        other.length > 0
          ? finding(
              'broken',
              'validation',
              'validationWrong',
              { id: order.id, name, found: other.join(', ') },
              `${order.id}/${name}`,
              fix,
            )
          : finding(
              'broken',
              'validation',
              'validationMissing',
              { id: order.id, name },
              `${order.id}/${name}`,
              fix,
            ),
      );
    }
    if (served === order.records.length && served > 0) view.visible.push({ id: order.id, count: served });
  }
  return view;
}
