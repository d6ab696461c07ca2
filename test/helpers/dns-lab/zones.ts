import type { KnotPolicy } from './knot.js';
import { quote } from './query.js';
import { wrongDigest } from './signing.js';
import { HOSTS } from './subnet.js';
import type { DnsLab } from './types.js';

/** The lab's zone data: the child zones (one fault each), `de.` delegating to them, and the root. */

export const TTL = 60;
export const PRIMARY_SERIAL = 2026112701;
export const ALT_SERIAL = 2026112601;

/** The lab's child zones: every zone of `DnsLab.zones`, and the one signed with RSA/SHA-1 where Knot can. */
export type ChildKey = keyof DnsLab['zones'] | 'rsaSha1';

export interface ChildZone {
  name: string;
  signed: boolean;
  /** Knot DNSSEC policy id (for signed zones). */
  policy: KnotPolicy;
  /**
   * What `de.` says about the DS: the real one, one with a wrong digest, none (unsigned), or the real
   * one with digest type 1 (SHA-1) only.
   */
  ds: 'correct' | 'wrong-digest' | 'none' | 'sha1';
  /** Host part of ns2's address: 11 (primary), or 12 (alt) for the lame and serial zones. */
  ns2Host: number;
  caa: string;
  spf: readonly string[];
  dmarc: boolean;
  /** Whether the zone delegates `unsigned.<zone>` (no DS) to the primary, which serves it unsigned. */
  unsignedChild: boolean;
}

export function childZones(): Record<ChildKey, ChildZone> {
  const base = {
    signed: true,
    policy: 'lab',
    ds: 'correct',
    ns2Host: HOSTS.primary2,
    caa: '0 issue "digicert.com"',
    spf: ['v=spf1 mx -all'],
    dmarc: true,
    unsignedChild: false,
  } as const;
  return {
    healthy: { ...base, name: 'healthy.de' },
    lame: { ...base, name: 'lame.de', signed: false, ds: 'none', ns2Host: HOSTS.alt },
    serial: { ...base, name: 'serial.de', signed: false, ds: 'none', ns2Host: HOSTS.alt },
    badDs: { ...base, name: 'badds.de', ds: 'wrong-digest' },
    expiring: { ...base, name: 'expiring.de', policy: 'expiring' },
    caa: { ...base, name: 'caa.de', caa: '0 issue "letsencrypt.org"' },
    spf: { ...base, name: 'spf.de', spf: ['v=spf1 mx -all', 'v=spf1 include:_spf.example.net ~all'] },
    noDmarc: { ...base, name: 'nodmarc.de', dmarc: false },
    nsec3: { ...base, name: 'nsec3.de', policy: 'nsec3', unsignedChild: true },
    rsa: { ...base, name: 'rsa.de', policy: 'rsasha256' },
    sha1Ds: { ...base, name: 'sha1ds.de', ds: 'sha1' },
    rsaSha1: { ...base, name: 'rsasha1.de', policy: 'rsasha1' },
  };
}

export function childZoneText(zone: ChildZone, prefix: string, serial: number): string {
  const origin = `${zone.name}.`;
  return [
    `$ORIGIN ${origin}`,
    `$TTL ${TTL}`,
    `@ SOA ns1.${origin} hostmaster.${origin} ${serial} 3600 600 86400 ${TTL}`,
    '@ NS ns1',
    '@ NS ns2',
    `ns1 A ${prefix}.${HOSTS.primary1}`,
    `ns2 A ${prefix}.${zone.ns2Host}`,
    '@ A 192.0.2.1',
    'www A 192.0.2.1',
    `@ MX 10 mail.${origin}`,
    'mail A 192.0.2.25',
    ...zone.spf.map((spf) => `@ TXT ${quote(spf)}`),
    ...(zone.dmarc ? [`_dmarc TXT ${quote(`v=DMARC1; p=reject; rua=mailto:dmarc@${zone.name}`)}`] : []),
    `@ CAA ${zone.caa}`,
    ...(zone.unsignedChild ? ['unsigned NS ns1.unsigned', `ns1.unsigned A ${prefix}.${HOSTS.primary1}`] : []),
    '',
  ].join('\n');
}

/** The zones the primary also serves, unsigned and without DS, for the child zones that delegate one. */
export function unsignedChildren(children: Record<ChildKey, ChildZone>): ChildZone[] {
  return Object.values(children).flatMap((zone) =>
    zone.unsignedChild
      ? [
          {
            ...zone,
            name: `unsigned.${zone.name}`,
            signed: false,
            ds: 'none' as const,
            unsignedChild: false,
          },
        ]
      : [],
  );
}

/**
 * What `de.` holds for a child: its NS with glue and, when signed, its DS (`ds`, read from the primary:
 * SHA-256, or SHA-1 for a zone whose DS is SHA-1).
 */
export function delegation(zone: ChildZone, prefix: string, ds: string | undefined): string[] {
  const origin = `${zone.name}.`;
  return [
    `${origin} NS ns1.${origin}`,
    `${origin} NS ns2.${origin}`,
    `ns1.${origin} A ${prefix}.${HOSTS.primary1}`,
    `ns2.${origin} A ${prefix}.${zone.ns2Host}`,
    ...(ds === undefined ? [] : [`${origin} DS ${zone.ds === 'wrong-digest' ? wrongDigest(ds) : ds}`]),
  ];
}

export function tldZoneText(tldAddress: string, delegations: string[][]): string {
  return [
    '$ORIGIN de.',
    `$TTL ${TTL}`,
    `@ SOA a.nic.de. hostmaster.nic.de. ${PRIMARY_SERIAL} 3600 600 86400 ${TTL}`,
    '@ NS a.nic.de.',
    `a.nic.de. A ${tldAddress}`,
    ...delegations.flat(),
    '',
  ].join('\n');
}

/** The root: `de.` with its glue and DS; the root's own server name is data in the root zone. */
export function rootZoneText(rootAddress: string, tldAddress: string, deDs: string): string {
  return [
    '$ORIGIN .',
    `$TTL ${TTL}`,
    `@ SOA a.root-servers.lab. hostmaster.root-servers.lab. ${PRIMARY_SERIAL} 3600 600 86400 ${TTL}`,
    '@ NS a.root-servers.lab.',
    `a.root-servers.lab. A ${rootAddress}`,
    'de. NS a.nic.de.',
    `a.nic.de. A ${tldAddress}`,
    `de. DS ${deDs}`,
    '',
  ].join('\n');
}
