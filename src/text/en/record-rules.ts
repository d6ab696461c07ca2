import type { TextArea } from './area.js';
import { n } from './numbers.js';

/**
 * Why a DNS record change is refused (features/records/rules.ts and record-data.ts): shown under the
 * modal field it concerns, or above the form when it concerns the record as a whole. Each sentence
 * names the value and says what to do. Names arrive without their trailing dot.
 */
export const recordRules = {
  /** One record on one line, as the sentences below quote it. */
  record: (p: { name: string; type: string; data: string }) => `${p.name} ${p.type} ${p.data}`,

  // The type
  typeMissing: (p: { types: string }) => `Choose a record type: ${p.types}.`,
  typeUnknown: (p: { type: string; types: string }) =>
    `${p.type} is not a record type Regdesk can write: choose one of ${p.types}.`,
  typeChanged: (p: { from: string; to: string }) =>
    `The type of a record cannot change (${p.from} → ${p.to}): delete this record and add a ${p.to} record instead.`,

  // The name
  nameInvalid: (p: { name: string }) =>
    `${p.name} is not a valid name: use letters, digits, hyphens and underscores in labels separated by dots, with * only as the first label (a wildcard).`,
  nameTooLong: (p: { name: string }) =>
    `${p.name} is too long: a full name has at most 253 characters. Use a shorter name.`,
  nameOutside: (p: { name: string; zone: string }) =>
    `Must be in ${p.zone}: ${p.name} is not. Write a name such as www or www.${p.zone}, or @ (or nothing) for ${p.zone} itself.`,
  nameElsewhere: (p: { name: string; zone: string; tld: string }) =>
    `Must be in ${p.zone}: ${p.name} ends in the top-level domain .${p.tld}, so it reads as a name outside ${p.zone}. If you mean ${p.name}.${p.zone}, write that in full.`,

  // The TTL
  ttlInvalid: (p: { value: string; min: number; max: number; fallback: number }) =>
    `${p.value} is not a TTL: enter whole seconds from ${n(p.min)} to ${n(p.max)} (1 minute to 1 week), or leave it empty for ${n(p.fallback)}.`,
  ttlRange: (p: { value: string; min: number; max: number }) =>
    `A TTL of ${p.value} seconds is out of range: enter ${n(p.min)} to ${n(p.max)} seconds (1 minute to 1 week).`,

  // The priority (MX and SRV)
  priorityRequired: (p: { type: string }) =>
    `A ${p.type} record needs a priority: enter a whole number from 0 to 65535 (lower is tried first).`,
  priorityInvalid: (p: { value: string }) =>
    `${p.value} is not a priority: enter a whole number from 0 to 65535 (lower is tried first).`,
  priorityNotUsed: (p: { type: string }) =>
    `A ${p.type} record has no priority: leave the field empty (only MX and SRV records have one).`,

  // The data, per type
  dataEmpty: (p: { type: string }) => `Enter the data of the ${p.type} record.`,
  notIpv4: (p: { value: string }) =>
    `${p.value} is not an IPv4 address: an A record holds one, such as 192.0.2.1 (an IPv6 address goes in an AAAA record).`,
  notIpv6: (p: { value: string }) =>
    `${p.value} is not an IPv6 address: an AAAA record holds one, such as 2001:db8::1 (an IPv4 address goes in an A record).`,
  ipNotHost: (p: { value: string; type: string }) =>
    `${p.value} is an IP address, but a ${p.type} record points to a host name, such as host.example.de: put the address in an A or AAAA record of that host.`,
  notHost: (p: { value: string }) =>
    `${p.value} is not a host name: write a full name, such as host.example.de.`,
  txtControl:
    'The text holds a control character (a line break, a tab …): write it on one line without them.',
  invisible: (p: { characters: string }) =>
    `The value holds invisible characters (${p.characters}) that reorder or hide text when shown: remove them, so everyone reads what is written.`,
  txtTooLong: (p: { length: number; max: number }) =>
    `The text has ${n(p.length)} characters, more than ${n(p.max)}: shorten it.`,
  srvFormat: (p: { value: string }) =>
    `${p.value} is not "weight port target": write three values, such as 5 5060 sip.example.de (the priority has its own field).`,
  srvWeight: (p: { value: string }) => `The SRV weight ${p.value} is out of range: use 0 to 65535.`,
  srvPort: (p: { value: string }) => `The SRV port ${p.value} is out of range: use 0 to 65535.`,
  caaFormat: (p: { value: string }) =>
    `${p.value} is not "flags tag value": write three values, such as 0 issue "letsencrypt.org".`,
  caaFlags: (p: { value: string }) =>
    `The CAA flags ${p.value} are out of range: use 0 to 255 (0, or 128 for "critical").`,
  caaTag: (p: { tag: string; tags: string }) => `${p.tag} is not a CAA tag: use one of ${p.tags}.`,
  caaValue: (p: { value: string }) =>
    `The CAA value ${p.value} may not hold a double quote or a control character: remove them.`,

  // The change against the zone's records
  noRecord: (p: { id: number; zone: string }) =>
    `No record with ID ${p.id} in ${p.zone}: it may have been deleted meanwhile. List the zone's records again and pick it there.`,
  autoRecord: (p: { record: string }) =>
    `${p.record} is managed by the registrar (an automatic record): Regdesk never changes it.`,
  unchanged: 'Nothing changed: the record already is exactly this. Change a field, or cancel.',
  apexNs: (p: { zone: string }) =>
    `The NS records of ${p.zone} itself are its delegation and are not changed here: use \`/domain ns\`.`,
  apexCname: (p: { zone: string }) =>
    `A CNAME cannot be at ${p.zone} itself (the zone's own SOA and NS records are there): use ALIAS, the registrar's stand-in for a CNAME at the apex.`,
  twoCnames: (p: { name: string; record: string }) =>
    `${p.name} already has a CNAME (${p.record}), and a name has only one: edit that record instead.`,
  cnameBeside: (p: { name: string; records: string }) =>
    `${p.name} already has other records (${p.records}), and a CNAME must be alone at its name: pick another name, or delete those records first.`,
  besideCname: (p: { name: string; record: string; type: string }) =>
    `${p.name} is a CNAME (${p.record}), and nothing may sit beside a CNAME: pick another name for the ${p.type} record, or delete the CNAME first.`,
  spfTwice: (p: { name: string; record: string }) =>
    `${p.name} already has an SPF record (${p.record}), and two make SPF fail (RFC 7208 §4.5): merge the two into that record instead.`,
  dmarcTwice: (p: { name: string; record: string }) =>
    `${p.name} already has a DMARC record (${p.record}), and receivers ignore a name with two (RFC 7489 §6.6.3): edit that record instead.`,
  dmarcName: (p: { name: string }) =>
    `A DMARC record belongs at _dmarc. followed by the domain (such as _dmarc.${p.name}), not at ${p.name}: change the name.`,
  duplicate: (p: { record: string }) =>
    `${p.record} already exists: the zone has this very record, there is nothing to add.`,
} satisfies TextArea;
