import { canonicalName } from '../../dns/client.js';
import { type DnsRecord, NotFoundError, type RegistrarClient } from '../../registrar/index.js';
import { registrableDomain } from '../../shared/domain-names.js';
import type { ValidationRecord } from './validation-ledger.js';

/**
 * What publishing one validation record takes: create it, nothing (already there), replace Regdesk's
 * own stale record at the name, or nothing at all because a record Regdesk did not create is in the
 * way (a CNAME stands alone at its name) or the zone is not hosted at the registrar.
 */
export type Step =
  | { action: 'create'; record: ValidationRecord; zone: string }
  | { action: 'present'; record: ValidationRecord; zone: string }
  | { action: 'replace'; record: ValidationRecord; zone: string; stale: DnsRecord & { id: number } }
  | { action: 'blocked'; record: ValidationRecord; zone: string; existing: DnsRecord[] }
  | { action: 'elsewhere'; record: ValidationRecord; zone: string };

/**
 * The zone of a validation record: its registrable domain. The registrar hosts zones by domain
 * (v1.6.2 reads records per domain); the reference CLI's label-by-label search ends at the same zone.
 */
export function zoneOf(name: string): string | undefined {
  return (
    registrableDomain(
      canonicalName(name)
        .replace(/^_[^.]*\./, '')
        .replace(/^\*\./, ''),
    ) ?? undefined
  );
}

/** The plan for `records`, read from the registrar's zones; `own` are the ids of records Regdesk created. */
export async function planFor(
  registrar: RegistrarClient,
  records: readonly ValidationRecord[],
  own: ReadonlySet<number>,
): Promise<Step[]> {
  const zones = new Map<string, DnsRecord[] | undefined>();
  const steps: Step[] = [];
  for (const record of records) {
    const zone = zoneOf(record.name) ?? canonicalName(record.name);
    if (!zones.has(zone)) {
      const existing = await registrar.dns.records(zone).catch((error: unknown) => {
        if (error instanceof NotFoundError) return undefined;
        throw error;
      });
      zones.set(zone, existing);
    }
    const existing = zones.get(zone);
    if (existing === undefined) {
      steps.push({ action: 'elsewhere', record, zone });
      continue;
    }
    const here = existing.filter((found) => canonicalName(found.name) === canonicalName(record.name));
    const expected = canonicalName(record.value);
    if (here.length === 0) steps.push({ action: 'create', record, zone });
    else if (here.every((found) => found.type === 'CNAME' && canonicalName(found.data ?? '') === expected))
      steps.push({ action: 'present', record, zone });
    else {
      const stale = here.find(
        (found): found is DnsRecord & { id: number } =>
          found.type === 'CNAME' && found.id !== undefined && own.has(found.id) && found.auto !== true,
      );
      if (stale !== undefined && here.length === 1) steps.push({ action: 'replace', record, zone, stale });
      else steps.push({ action: 'blocked', record, zone, existing: here });
    }
  }
  return steps;
}
