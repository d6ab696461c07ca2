import type { Sandbox } from '../../src/sandbox/index.js';
import type { DnsLab } from '../helpers/dns-lab/index.js';

/** The lab's zones the registrar would call signed (DS published by the registry). */
const UNSIGNED = new Set(['lame', 'serial']);

/**
 * Puts every lab zone into the sandbox account as a registrar would hold it: delegated to the lab's
 * nameservers, DNSSEC enabled where the lab signed the zone (external mode: keys the customer runs).
 */
export function addLabDomains(sandbox: Sandbox, lab: DnsLab): void {
  const now = Date.now();
  for (const [role, zone] of Object.entries(lab.zones)) {
    const signed = !UNSIGNED.has(role);
    sandbox.state.addDomain(zone, now, {
      usingServiceNameservers: false,
      externalNameservers: lab.nameservers(zone),
      dnssec: {
        mode: signed ? 'external' : 'none',
        desired: signed ? 'enabled' : 'disabled',
        live: signed ? 'enabled' : 'disabled',
        settleAt: null,
        records: [],
        jobId: null,
      },
    });
  }
}
