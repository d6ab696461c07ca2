// What each part of the playground's DNS answers, from the world the sandbox makes (world.ts).
import * as wire from 'dns-packet';
import { canonicalName } from '../../dns/client.js';
import { type Answer, type Role, type World, within } from './world.js';

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

const tldOf = (name: string) => canonicalName(name).split('.').at(-1) ?? '';

/** What one of the registrar's nameservers says: with authority, for zones it hosts; else REFUSED. */
function answerAsNameserver(world: World, name: string, type: string): Reply {
  const domain = world.zoneOf(name);
  if (domain === undefined || !world.hosted(domain)) return { rcode: 'REFUSED', authoritative: false };
  const records = world.records(domain);
  const qname = canonicalName(name);
  const here = records.filter((record) => canonicalName(record.name) === qname);
  const soa = [world.soa(domain)];
  // Below the apex, an NS set is a delegation: a referral, without authority.
  const cut = here.filter((record) => record.type === 'NS');
  if (qname !== domain.domain && cut.length > 0 && type !== 'DS')
    return { rcode: 'NOERROR', authoritative: false, authorities: cut };
  const exact = here.filter((record) => record.type === type);
  if (exact.length > 0) return { rcode: 'NOERROR', authoritative: true, answers: exact };
  const alias = here.find((record) => record.type === 'CNAME');
  if (alias !== undefined) return { rcode: 'NOERROR', authoritative: true, answers: [alias] };
  const exists = records.some((record) => within(canonicalName(record.name), qname));
  return { rcode: exists ? 'NOERROR' : 'NXDOMAIN', authoritative: true, authorities: soa };
}

/** What a TLD's server says: referrals to the sandbox's domains, their DS, NXDOMAIN for the rest. */
function answerAsTld(world: World, name: string, type: string): Reply {
  const tld = tldOf(name);
  const qname = canonicalName(name);
  const tldSoa = {
    type: 'SOA',
    name: tld,
    ttl: 900,
    data: {
      mname: `a.nic.${tld}`,
      rname: `hostmaster.nic.${tld}`,
      serial: 1,
      refresh: 3600,
      retry: 900,
      expire: 604_800,
      minimum: 900,
    },
  } as Answer;
  if (qname === tld) {
    if (type === 'NS')
      return {
        rcode: 'NOERROR',
        authoritative: true,
        answers: [{ type: 'NS', name: tld, ttl: 86_400, data: `a.nic.${tld}` } as Answer],
      };
    return type === 'SOA'
      ? { rcode: 'NOERROR', authoritative: true, answers: [tldSoa] }
      : { rcode: 'NOERROR', authoritative: true, authorities: [tldSoa] };
  }
  const domain = world.zoneOf(name);
  if (domain === undefined) return { rcode: 'NXDOMAIN', authoritative: true, authorities: [tldSoa] };
  if (type === 'DS' && qname === domain.domain) {
    const ds = world.ds(domain);
    return ds.length > 0
      ? { rcode: 'NOERROR', authoritative: true, answers: ds }
      : { rcode: 'NOERROR', authoritative: true, authorities: [tldSoa] };
  }
  const hosts = world.delegation(domain);
  return {
    rcode: 'NOERROR',
    authoritative: false,
    authorities: hosts.map(
      (host) => ({ type: 'NS', name: domain.domain, ttl: 86_400, data: host }) as Answer,
    ),
    // Glue for nameservers inside the delegated zone (a vanity set's names).
    additionals: hosts.flatMap((host) => {
      const address = world.addressOf(host);
      return within(host, domain.domain) && address !== undefined
        ? [{ type: 'A', name: host, ttl: 86_400, data: address } as Answer]
        : [];
    }),
  };
}

/** The recursive resolver: what the servers above would say, followed through CNAMEs. */
function answerAsResolver(world: World, name: string, type: string): Reply {
  const qname = canonicalName(name);
  if (qname === '' || !qname.includes('.')) {
    const asked = answerAsTld(world, qname === '' ? 'invalid' : qname, type);
    return qname === '' ? { rcode: 'NOERROR', authoritative: false } : { ...asked, authoritative: false };
  }
  const address = world.addressOf(qname);
  if (address !== undefined && (type === 'A' || type === 'AAAA'))
    return {
      rcode: 'NOERROR',
      authoritative: false,
      answers: type === 'A' ? [{ type: 'A', name: qname, ttl: 86_400, data: address } as Answer] : [],
    };
  const domain = world.zoneOf(qname);
  if (domain === undefined) return { rcode: 'NXDOMAIN', authoritative: false };
  if (type === 'DS') return { ...answerAsTld(world, qname, type), authoritative: false };
  if (!world.hosted(domain)) return { rcode: 'SERVFAIL', authoritative: false };
  const answers: Answer[] = [];
  let reply = answerAsNameserver(world, qname, type);
  // Through CNAMEs, as a resolver follows them (within the sandbox's zones; eight links at most).
  for (let hops = 0; type !== 'CNAME' && hops < 8; hops++) {
    const alias =
      reply.answers?.length === 1 && reply.answers[0]?.type === 'CNAME' ? reply.answers[0] : undefined;
    if (alias === undefined) break;
    answers.push(alias);
    const target = canonicalName(String(alias.data));
    const next = world.zoneOf(target);
    reply =
      next !== undefined && world.hosted(next)
        ? answerAsNameserver(world, target, type)
        : { rcode: 'NOERROR', authoritative: false };
  }
  answers.push(...(reply.answers ?? []));
  return {
    rcode: answers.length > 0 ? 'NOERROR' : reply.rcode,
    authoritative: false,
    authenticated: world.signed(domain),
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
  let reply: Reply;
  if (question === undefined) reply = { rcode: 'REFUSED', authoritative: false };
  else if (role === 'resolver')
    reply = recursion
      ? answerAsResolver(world, question.name, question.type)
      : { rcode: 'REFUSED', authoritative: false };
  else if (role === 'tld') reply = answerAsTld(world, question.name, question.type);
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
    answers: truncated ? [] : (reply.answers ?? []),
    authorities: truncated ? [] : (reply.authorities ?? []),
    additionals: [
      ...(truncated ? [] : (reply.additionals ?? [])),
      ...(edns === undefined ? [] : [{ type: 'OPT', name: '.', udpPayloadSize: 1232 } as Answer]),
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
