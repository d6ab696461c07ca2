import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DnsClient } from '../../src/dns/client.js';
import { parseDnsServers } from '../../src/dns/servers.js';
import { leafFromPem } from '../../src/served/leaf.js';
import { SERVED_LIMITS, type ServedCheck, ServedProbe } from '../../src/served/probe.js';
import { makeCertificate } from './certificates.js';
import { type ServedWorld, startServedWorld } from './world.js';

const DAY = 86_400_000;
const cert = makeCertificate({
  names: ['www.served.test'],
  notBefore: new Date(Date.now() - DAY),
  notAfter: new Date(Date.now() + 40 * DAY),
});

describe('Asking a name which certificate it serves (src/served/probe.ts)', () => {
  let world: ServedWorld;
  let dns: DnsClient;

  beforeAll(async () => {
    world = await startServedWorld({
      names: {
        'www.served.test': ['127.56.1.1', '127.56.1.2'],
        'silent.served.test': ['127.56.1.3'],
        'closed.served.test': ['127.56.1.4'],
        'inside.served.test': ['10.1.2.3', '127.0.0.1'],
      },
      serving: { '127.56.1.1': cert, '127.56.1.2': cert },
      silent: ['127.56.1.3'],
    });
    const parsed = parseDnsServers(world.resolver);
    if (!('servers' in parsed)) throw new Error(parsed.problem);
    dns = new DnsClient({ resolvers: parsed.servers, allowed: [{ network: '127.56.0.0', prefix: 16 }] });
  });
  afterAll(async () => {
    await world?.stop();
  });

  const probe = (limits = SERVED_LIMITS) => new ServedProbe({ ports: [world.port], limits });
  const of = (checks: ServedCheck[], name: string) => checks.filter((check) => check.name === name);

  it('shakes hands with SNI at every address of the name and reads the leaf, trusted or not', async () => {
    const checks = await probe().look(dns, ['www.served.test', '*.served.test']);
    expect(checks).toHaveLength(2);
    const expected = leafFromPem(cert.pem);
    for (const check of checks) {
      expect(check.kind).toBe('served');
      if (check.kind === 'served') expect(check.leaf).toEqual(expected);
    }
    expect(new Set(checks.map((c) => ('address' in c ? c.address : '')))).toEqual(
      new Set(['127.56.1.1', '127.56.1.2']),
    );
  });

  it('calls a server that accepts and never answers "could not check" (timeout), not fine', async () => {
    const before = world.connections('127.56.1.3');
    const [check] = await probe({ ...SERVED_LIMITS, timeoutMs: 1_000 }).look(dns, ['silent.served.test']);
    expect(check).toMatchObject({ kind: 'unchecked', reason: 'timeout', address: '127.56.1.3' });
    expect(world.connections('127.56.1.3')).toBe(before + 1);
  });

  it('says a refused connection and an unknown name apart', async () => {
    const checks = await probe().look(dns, ['closed.served.test', 'nowhere.served.test']);
    expect(of(checks, 'closed.served.test')).toEqual([
      {
        name: 'closed.served.test',
        address: '127.56.1.4',
        port: world.port,
        kind: 'unchecked',
        reason: 'refused',
      },
    ]);
    expect(of(checks, 'nowhere.served.test')[0]?.kind).toBe('unresolved');
  });

  it('never shakes hands with a private or loopback address outside LIVE_CHECK_ALLOW', async () => {
    const checks = await probe().look(dns, ['inside.served.test']);
    expect(checks).toEqual([
      { name: 'inside.served.test', address: '10.1.2.3', kind: 'not-public', addressKind: 'private' },
      { name: 'inside.served.test', address: '127.0.0.1', kind: 'not-public', addressKind: 'loopback' },
    ]);
  });

  it('asks at most the handshakes of one look; the rest are "could not check" (limit)', async () => {
    const checks = await probe({ ...SERVED_LIMITS, handshakes: 1 }).look(dns, ['www.served.test']);
    expect(checks.map((check) => check.kind).sort()).toEqual(['served', 'unchecked']);
    expect(checks.find((check) => check.kind === 'unchecked')).toMatchObject({ reason: 'limit' });
    // Names beyond what a look may shake hands with are not even resolved.
    const names = await probe({ ...SERVED_LIMITS, handshakes: 1 }).look(dns, [
      'www.served.test',
      'closed.served.test',
    ]);
    expect(names.find((check) => check.name === 'closed.served.test')).toEqual({
      name: 'closed.served.test',
      kind: 'unresolved',
      reason: 'limit',
    });
  });
});
