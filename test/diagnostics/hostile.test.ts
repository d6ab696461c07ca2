import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DnsClient } from '../../src/dns/client.js';
import { IANA_ROOT_ANCHORS, parseTrustAnchors } from '../../src/dns/validator.js';
import { ProductsCa } from '../../src/features/diagnostics/caa.js';
import { type DiagnosticsDeps, diagnose } from '../../src/features/diagnostics/service.js';
import { RenewalLedger } from '../../src/features/tls/renewals.js';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { createRedis, KeySpace, type Redis, waitForReady } from '../../src/shared/redis.js';
import {
  HOSTILE_ALLOWED,
  type HostileWorld,
  type HostileZone,
  RESOLVER_ADDRESS,
  startHostileWorld,
} from '../helpers/hostile-dns.js';
import { testRedisUrl } from '../helpers/provided-context.js';
import { sandboxClient } from '../helpers/registrar.js';

const WORKSPACE = { teamId: 'T0HOSTILE' };
const parsedIana = parseTrustAnchors(IANA_ROOT_ANCHORS);
const IANA = 'anchors' in parsedIana ? parsedIana.anchors : [];

/** 13 nameservers inside the zone, 40 glue addresses each, none of which ever answers: 520 in all. */
const SILENT_HOSTS = 13;
const SILENT_PER_HOST = 40;
const silentAddress = (host: number, index: number) => `127.55.${host + 1}.${index + 1}`;
const silentZone: HostileZone = {
  name: 'silent.test',
  nameservers: Array.from({ length: SILENT_HOSTS }, (_, host) => ({
    host: `ns${host + 1}.silent.test`,
    addresses: Array.from({ length: SILENT_PER_HOST }, (_, index) => silentAddress(host, index)),
  })),
};
/** Glue an attacker writes to make Regdesk probe the inside: loopback, private, cloud metadata, link-local. */
const PRIVATE_GLUE = ['127.0.0.1', '10.0.0.1', '169.254.169.254', '::1', '::ffff:127.0.0.1', 'fe80::1'];
const privateZone: HostileZone = {
  name: 'inside.test',
  nameservers: [
    { host: 'ns1.inside.test', addresses: PRIVATE_GLUE.slice(0, 3) },
    { host: 'ns2.inside.test', addresses: PRIVATE_GLUE.slice(3) },
  ],
};

describe('/dns check of zones whose nameservers an attacker chose', () => {
  let world: HostileWorld;
  let sandbox: Sandbox;
  let redis: Redis;
  let deps: DiagnosticsDeps;
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);

  beforeAll(async () => {
    const silent = silentZone.nameservers.flatMap((server) => server.addresses);
    world = await startHostileWorld([silentZone, privateZone], {
      silent,
      forbidden: ['127.0.0.1', '::1'],
    });
    sandbox = await createSandbox({});
    redis = createRedis(testRedisUrl(), 'request', 'hostile-dns-test');
    await waitForReady(redis);
    deps = {
      dns: new DnsClient({
        resolvers: [{ host: RESOLVER_ADDRESS, port: world.port }],
        nameserverPort: world.port,
        allowed: HOSTILE_ALLOWED,
      }),
      ledger: new RenewalLedger(redis, new KeySpace(`t-${randomBytes(5).toString('hex')}`)),
      now: Date.now,
      productsCa: new ProductsCa(),
      trustAnchors: IANA,
    };
    process.on('unhandledRejection', onUnhandled);
  }, 60_000);
  afterEach(() => expect(unhandled).toEqual([]));
  afterAll(async () => {
    process.off('unhandledRejection', onUnhandled);
    await world?.stop();
    await sandbox?.close();
    redis?.disconnect();
  });

  const check = (domain: string, dns = deps.dns) =>
    diagnose({ ...deps, dns }, { registrar: sandboxClient(sandbox), workspace: WORKSPACE }, domain);

  it('answers a zone with 520 silent addresses within the deadline, having asked at most 16', async () => {
    const started = Date.now();
    const report = await check(silentZone.name);
    // 20 s is the contract's deadline; a little on top for the answer's own assembly on a busy machine.
    expect(Date.now() - started).toBeLessThan(25_000);
    const asked = world.asked();
    // The TLD's server counts as one of the 16; every other asked address is a silent one.
    expect(asked.size).toBeLessThanOrEqual(15);
    expect(asked.size).toBeGreaterThan(0);
    for (let host = 0; host < SILENT_HOSTS; host++) {
      const ofHost = [...asked.keys()].filter((address) => address.startsWith(`127.55.${host + 1}.`));
      expect(ofHost.length).toBeLessThanOrEqual(4);
    }
    // Each asked address heard one question and its one retry, nothing more.
    for (const count of asked.values()) expect(count).toBeLessThanOrEqual(2);
    expect(report.notChecked).toContainEqual({
      what: { code: 'unasked', count: SILENT_HOSTS * SILENT_PER_HOST - asked.size },
      why: { code: 'limit' },
    });
    const silent = report.notChecked.filter((entry) => entry.what.code === 'server');
    expect(silent).toHaveLength(asked.size);
    expect(silent.every((entry) => entry.why.code === 'timeout' || entry.why.code === 'limit')).toBe(true);
    // Silence is not evidence: no server answered, so no finding says one is lame.
    expect(report.findings.map((finding) => finding.code)).not.toContain('lame');
  }, 60_000);

  it('stops at its deadline, listing what is left under "could not check"', async () => {
    const hurried = new DnsClient({
      resolvers: [{ host: RESOLVER_ADDRESS, port: world.port }],
      nameserverPort: world.port,
      allowed: HOSTILE_ALLOWED,
      limits: { perHost: 4, direct: 16, concurrent: 2, deadlineMs: 3_000 },
    });
    const before = world.asked();
    const started = Date.now();
    const report = await check(silentZone.name, hurried);
    expect(Date.now() - started).toBeLessThan(3_000 + 5_000);
    const newlyAsked = [...world.asked()].filter(([address, count]) => count > (before.get(address) ?? 0));
    // Two at a time, each waited for 2 × 2 s at most: after 3 s nothing new was sent.
    expect(newlyAsked.length).toBeLessThanOrEqual(4);
    expect(report.notChecked.some((entry) => entry.why.code === 'limit')).toBe(true);
  }, 60_000);

  it('never sends a packet to private, loopback or link-local glue, and names each address', async () => {
    const report = await check(privateZone.name);
    expect(world.forbiddenHits()).toBe(0);
    const named = report.findings
      .filter((finding) => finding.code === 'notPublic')
      .map((finding) => (finding.params as { address: string }).address);
    // As the wire gave them: the mapped address comes back in IPv6 notation.
    const expected = PRIVATE_GLUE.map((address) =>
      address === '::ffff:127.0.0.1' ? '::ffff:7f00:1' : address,
    );
    expect(named.sort()).toEqual(expected.sort());
    const kinds = report.findings
      .filter((finding) => finding.code === 'notPublic')
      .map((finding) => (finding.params as { kind: string }).kind);
    expect(new Set(kinds)).toEqual(new Set(['loopback', 'private', 'link-local']));
  });
});
