import { program } from './install.js';
import type { KnotServer } from './knot.js';
import { ATTEMPT_MS, run, waitFor } from './processes.js';
import { queryDns } from './query.js';

/** Absolute owner name with trailing dot; see DnsLab.setRecord. */
function absoluteOwner(zone: string, owner: string): string {
  const apex = zone.replace(/\.$/, '').toLowerCase();
  const name = owner.toLowerCase();
  if (name === '@' || name === '') return `${apex}.`;
  if (name.endsWith('.')) return name;
  if (name === apex || name.endsWith(`.${apex}`)) return `${name}.`;
  return `${name}.${apex}.`;
}

/** Replaces (with `set`) or removes the RRset `owner`/`type` of `zone`; resolves once it is served. */
export type RecordChange = (
  zone: string,
  owner: string,
  type: string,
  set?: { ttl: number; rdata: string },
) => Promise<void>;

/**
 * Record changes on the primary, through knotc transactions, one at a time (Knot allows one open
 * transaction per zone); each returns once every address in `addresses` serves the new serial.
 */
export function recordChanges(primary: KnotServer, addresses: readonly string[]): RecordChange {
  let changes: Promise<unknown> = Promise.resolve();
  // knotc prints notices about the configuration on stdout before its answer (Knot 3.2 warns that
  // the lab's RSA/SHA-1 policy is deprecated): only the answer counts here.
  const knotc = async (...args: string[]) =>
    (await run(program('knotc'), ['-c', primary.conf, ...args]))
      .split('\n')
      .filter((line) => !/^(notice|warning): /.test(line))
      .join('\n');
  return (zone, owner, type, set) => {
    const next = changes.then(async () => {
      const domain = `${zone.replace(/\.$/, '')}.`;
      const name = absoluteOwner(zone, owner);
      // zone-unset fails for an RRset that is not there; nothing to remove is not an error here.
      const exists = await knotc('zone-read', domain, name, type).then(
        (output) => output.trim() !== '',
        () => false,
      );
      if (!exists && set === undefined) return;
      await knotc('zone-begin', domain);
      try {
        if (exists) await knotc('zone-unset', domain, name, type);
        if (set !== undefined) await knotc('zone-set', domain, name, String(set.ttl), type, set.rdata);
        await knotc('zone-commit', domain);
      } catch (error) {
        await knotc('zone-abort', domain).catch(() => undefined);
        throw error;
      }
      // zone-commit returns once the new (re-signed) version is live; see it over the wire anyway.
      const serial = (await knotc('zone-read', domain, '@', 'SOA')).trim().split(/\s+/)[6];
      for (const address of addresses) {
        await waitFor(
          `primary ${address} to serve ${domain} serial ${serial}`,
          [primary.daemon],
          async () => {
            const answer = await queryDns(address, domain, 'SOA', {
              recurse: false,
              timeoutMs: ATTEMPT_MS,
            });
            return answer.answers.some((r) => r.type === 'SOA' && r.data.split(' ')[2] === serial);
          },
        );
      }
    });
    // A failed change must not block the ones after it.
    changes = next.catch(() => undefined);
    return next;
  };
}
