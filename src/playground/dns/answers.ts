// What each part of the playground's DNS answers, from the world the sandbox makes (world.ts).
import * as wire from 'dns-packet';
import { canonicalName } from '../../dns/client.js';
import { isWithin } from '../../dns/denial.js';
import { canonicalOwner, labelsOf } from '../../dns/signatures.js';
import { cutsOf, denialOf, signed, type Zone } from './signer.js';
import type { Answer, Role, World } from './world.js';

const RCODE = { NOERROR: 0, SERVFAIL: 2, NXDOMAIN: 3, REFUSED: 5 } as const;
/** A DNS message over UDP without EDNS0 (RFC 1035); beyond it the client comes back over TCP. */
const PLAIN_UDP = 512;

interface Reply {
  rcode: keyof typeof RCODE;
  authoritative: boolean;
  authenticated?: boolean;
  answers?: Answer[];
  authorities?: Answer[];
  additionals?: Answer[];
}

/**
 * What an authoritative server of `zone` says (RFC 1034 §4.3.2), with the RRSIGs and NSEC records of
 * RFC 4035 §3.1 when the zone is signed: a referral at a delegation (its DS, or the NSEC proving none),
 * the RRset asked or a CNAME, else the SOA and the proof that nothing is there.
 */
function authoritative(zone: Zone, name: string, type: string): Reply {
  const qname = canonicalOwner(name);
  const at = (owner: string, wanted: string) =>
    zone.records.filter((record) => record.type === wanted && canonicalOwner(record.name) === owner);
  // The delegation nearest the apex above the name: below it the zone has only glue. A DS is the
  // parent's side of its cut, so the parent answers it.
  const [cut] = cutsOf(zone)
    .filter((owner) => isWithin(qname, owner) && !(owner === qname && type === 'DS'))
    .sort((a, b) => labelsOf(a).length - labelsOf(b).length);
  if (cut !== undefined) {
    const ns = at(cut, 'NS');
    const hosts = ns.flatMap((record) => (record.type === 'NS' ? [canonicalOwner(record.data)] : []));
    const ds = at(cut, 'DS');
    return {
      rcode: 'NOERROR',
      authoritative: false,
      authorities: [...ns, ...(ds.length > 0 ? signed(zone, ds) : denialOf(zone, cut, false))],
      additionals: zone.records.filter(
        (record) =>
          (record.type === 'A' || record.type === 'AAAA') && hosts.includes(canonicalOwner(record.name)),
      ),
    };
  }
  const exact = at(qname, type);
  if (exact.length > 0) return { rcode: 'NOERROR', authoritative: true, answers: signed(zone, exact) };
  const alias = at(qname, 'CNAME');
  if (alias.length > 0) return { rcode: 'NOERROR', authoritative: true, answers: signed(zone, alias) };
  const exists = zone.records.some((record) => isWithin(record.name, qname));
  return {
    rcode: exists ? 'NOERROR' : 'NXDOMAIN',
    authoritative: true,
    authorities: [...signed(zone, at(zone.apex, 'SOA')), ...denialOf(zone, qname, !exists)],
  };
}

/** What one of the registrar's nameservers says: with authority, for zones it hosts; else REFUSED. */
function answerAsNameserver(world: World, name: string, type: string): Reply {
  const domain = world.zoneOf(name);
  if (domain === undefined || !world.hosted(domain)) return { rcode: 'REFUSED', authoritative: false };
  return authoritative(world.zone(domain), name, type);
}

/**
 * The recursive resolver: what the servers above would say, followed through CNAMEs, with their
 * RRSIGs. AD where the data comes from signed zones: the root's and the TLDs' always, a hosted zone's
 * when the sandbox signs it.
 */
function answerAsResolver(world: World, name: string, type: string): Reply {
  const qname = canonicalName(name);
  const address = world.addressOf(qname);
  if (address !== undefined && (type === 'A' || type === 'AAAA'))
    return {
      rcode: 'NOERROR',
      authoritative: false,
      answers: type === 'A' ? [{ type: 'A', name: qname, ttl: 86_400, data: address }] : [],
    };
  const domain = world.zoneOf(qname);
  // A zone's DS is its parent's, and what is in no sandbox zone the root's or a TLD's to say.
  if (domain === undefined || (type === 'DS' && qname === domain.domain))
    return {
      ...authoritative(world.registryZone(qname, type), qname, type),
      authoritative: false,
      authenticated: true,
    };
  if (!world.hosted(domain)) return { rcode: 'SERVFAIL', authoritative: false };
  const answers: Answer[] = [];
  let zone = world.zone(domain);
  let secure = zone.key !== undefined;
  let reply = authoritative(zone, qname, type);
  // Through CNAMEs, as a resolver follows them (within the sandbox's zones; eight links at most).
  for (let hops = 0; type !== 'CNAME' && hops < 8; hops++) {
    const alias = reply.answers?.find((record) => record.type === 'CNAME');
    if (alias?.type !== 'CNAME') break;
    answers.push(...(reply.answers ?? []));
    const target = canonicalName(alias.data);
    const next = world.zoneOf(target);
    if (next === undefined || !world.hosted(next)) {
      reply = { rcode: 'NOERROR', authoritative: false };
      continue;
    }
    zone = world.zone(next);
    secure &&= zone.key !== undefined;
    reply = authoritative(zone, target, type);
  }
  answers.push(...(reply.answers ?? []));
  return {
    rcode: answers.length > 0 ? 'NOERROR' : reply.rcode,
    authoritative: false,
    authenticated: secure,
    answers,
    authorities: answers.length > 0 ? [] : (reply.authorities ?? []),
  };
}

/** The wire reply to `query` from the server at `role`. */
function respond(world: World, role: Role, query: wire.Packet, limit: number): Buffer {
  const question = query.questions?.[0];
  const flags = query.flags ?? 0;
  const recursion = (flags & wire.RECURSION_DESIRED) !== 0;
  const edns = (query.additionals ?? []).find((record) => record.type === 'OPT');
  const dnssec = (((edns as { flags?: number } | undefined)?.flags ?? 0) & wire.DNSSEC_OK) !== 0;
  // RRSIGs and NSEC only to a client that asked for them with DO (RFC 4035 §3.1, RFC 3225).
  const served = (records: Answer[] | undefined) =>
    (records ?? []).filter((record) => dnssec || (record.type !== 'RRSIG' && record.type !== 'NSEC'));
  let reply: Reply;
  if (question === undefined) reply = { rcode: 'REFUSED', authoritative: false };
  else if (role === 'resolver')
    reply = recursion
      ? answerAsResolver(world, question.name, question.type)
      : { rcode: 'REFUSED', authoritative: false };
  else if (role === 'tld')
    reply = authoritative(world.registryZone(question.name, question.type), question.name, question.type);
  else reply = answerAsNameserver(world, question.name, question.type);
  const packet = (truncated: boolean): wire.Packet => ({
    type: 'response',
    id: query.id ?? 0,
    flags:
      wire.RECURSION_DESIRED * (recursion ? 1 : 0) +
      (role === 'resolver' ? wire.RECURSION_AVAILABLE : 0) +
      (reply.authoritative ? wire.AUTHORITATIVE_ANSWER : 0) +
      (reply.authenticated === true ? wire.AUTHENTIC_DATA : 0) +
      (truncated ? wire.TRUNCATED_RESPONSE : 0) +
      RCODE[reply.rcode],
    questions: question === undefined ? [] : [question],
    answers: truncated ? [] : served(reply.answers),
    authorities: truncated ? [] : served(reply.authorities),
    additionals: [
      ...(truncated ? [] : served(reply.additionals)),
      ...(edns === undefined
        ? []
        : [{ type: 'OPT', name: '.', udpPayloadSize: 1232, flags: dnssec ? wire.DNSSEC_OK : 0 } as Answer]),
    ],
  });
  const whole = wire.encode(packet(false));
  const room =
    edns === undefined
      ? PLAIN_UDP
      : Math.max(PLAIN_UDP, (edns as { udpPayloadSize?: number }).udpPayloadSize ?? 0);
  return whole.length <= limit || whole.length <= room ? whole : wire.encode(packet(true));
}

/** `respond`, or SERVFAIL where the sandbox holds data it cannot put on the wire: never a crash. */
export function answer(world: World, role: Role, query: wire.Packet, limit: number): Buffer {
  try {
    return respond(world, role, query, limit);
  } catch {
    return wire.encode({
      type: 'response',
      id: query.id ?? 0,
      flags: RCODE.SERVFAIL,
      questions: query.questions ?? [],
    });
  }
}
