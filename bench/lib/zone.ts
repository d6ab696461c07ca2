import type { RecordValue } from '../../src/features/records/changes.js';
import { DEFAULT_TTL } from '../../src/features/records/rules.js';
import type { DnsRecord } from '../../src/registrar/index.js';

/** Issue #44: a change set of this many records. */
export const SET_SIZE = 500;

/**
 * A master file of `count` records for `origin`, as an export or a hand-written zone looks: `$ORIGIN`
 * and `$TTL`, relative owners, and a mix of types (of every ten: four A, two AAAA, two TXT, one MX,
 * one CNAME to one of the A names). Owners are unique per type and no CNAME shares a name, so every
 * record is a create on a zone that has none of them. `tag` keeps two sets' names apart.
 */
export function masterFile(origin: string, count: number, tag = 'b'): string {
  const lines = [`$ORIGIN ${origin}.`, '$TTL 3600'];
  for (let i = 0; i < count; i++) {
    const octet = `${Math.floor(i / 250) % 250}.${(i % 250) + 1}`;
    switch (i % 10) {
      case 0:
      case 1:
      case 2:
      case 3:
        lines.push(`${tag}h${i} IN A 10.44.${octet}`);
        break;
      case 4:
      case 5:
        lines.push(`${tag}v${i} 600 IN AAAA 2001:db8:44::${i.toString(16)}`);
        break;
      case 6:
      case 7:
        lines.push(`${tag}t${i} IN TXT "bench=${i}; issue 44"`);
        break;
      case 8:
        lines.push(`${tag}m${i} IN MX 10 ${tag}h${i - 8}.${origin}.`);
        break;
      default:
        lines.push(`${tag}c${i} 300 IN CNAME ${tag}h${i - 9}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

/** Parsed records as the import modal's submission hands them to the planner (changesets/views.ts). */
export function wantedOf(
  records: readonly {
    name: string;
    type: RecordValue['type'];
    data: string;
    ttl?: number | undefined;
    priority?: number | undefined;
  }[],
): RecordValue[] {
  return records.map(({ name, type, data, ttl, priority }) => ({
    name,
    type,
    data,
    ttl: ttl ?? DEFAULT_TTL,
    ...(priority === undefined ? {} : { priority }),
  }));
}

/**
 * A zone as the registrar lists it, to plan against: the apex NS set and SOA (which a plan leaves
 * alone), then `wanted` as it stands before the import — the first half as they are (unchanged), the
 * next quarter with other data (edits), the last quarter absent (creates) — plus `extra` records the
 * text lacks (deleted in *replace*, kept in *merge*).
 */
export function zoneBefore(origin: string, wanted: readonly RecordValue[], extra: number): DnsRecord[] {
  const fqdn = `${origin}.`;
  const zone: DnsRecord[] = [
    { id: 1, name: fqdn, type: 'NS', data: 'ns1.example.net.', ttl: 86_400 },
    { id: 2, name: fqdn, type: 'NS', data: 'ns2.example.net.', ttl: 86_400 },
    {
      id: 3,
      name: fqdn,
      type: 'SOA',
      data: `ns1.example.net. hostmaster.${fqdn} 1 7200 3600 1209600 3600`,
      ttl: 86_400,
      auto: true,
    },
  ];
  let id = 100;
  wanted.forEach((value, i) => {
    const share = i / wanted.length;
    if (share >= 0.75) return;
    const changed = share < 0.5 ? value : { ...value, ttl: value.ttl === 3600 ? 7200 : 3600 };
    zone.push({ id: id++, ...changed });
  });
  for (let i = 0; i < extra; i++)
    zone.push({ id: id++, name: `old${i}.${fqdn}`, type: 'A', data: `10.45.0.${(i % 250) + 1}`, ttl: 3600 });
  return zone;
}
