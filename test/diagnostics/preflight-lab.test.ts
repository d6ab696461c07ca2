import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DnsClient } from '../../src/dns/client.js';
import { validateChain } from '../../src/dns/validator.js';
import { caOfProducts, ProductsCa, REGISTRAR_CA } from '../../src/features/diagnostics/caa.js';
import type { ValidationKind } from '../../src/features/diagnostics/caa-property.js';
import { certificatePreflight } from '../../src/features/diagnostics/preflight.js';
import { type DiagnosticsDeps, diagnose } from '../../src/features/diagnostics/service.js';
import { RenewalLedger } from '../../src/features/tls/renewals.js';
import type { RegistrarClient } from '../../src/registrar/index.js';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { createRedis, KeySpace, type Redis, waitForReady } from '../../src/shared/redis.js';
import { type DnsLab, queryDns, startDnsLab } from '../helpers/dns-lab/index.js';
import { anchorsOf, clientFor } from '../helpers/live-check.js';
import { testRedisUrl } from '../helpers/provided-context.js';
import { sandboxClient } from '../helpers/registrar.js';
import { addLabDomains } from './support.js';

const WORKSPACE = { teamId: 'T0PREFLIGHT' };
/** RFC 8657's examples name the CA `example.net`: the products here say so too. */
const RFC_CA = caOfProducts([{ ca: 'example.net' }]);

/**
 * Issue #45 against real DNS servers: Knot signs zones with ECDSA P-256 (13), RSA/SHA-256 (8) and,
 * where the installed Knot can, RSA/SHA-1 (5); `de.` carries SHA-256 and SHA-1 DS records; Unbound
 * validates. What Regdesk makes of each (its own chain, `/dns check`'s deprecations) and what the
 * certificate preflight lets through, with RFC 8657's CAA examples and the critical flag.
 */
describe('the 2026 rules against knot and unbound: algorithms, DS digests, CAA, the preflight', () => {
  let lab: DnsLab;
  let dns: DnsClient;
  let sandbox: Sandbox;
  let registrar: RegistrarClient;
  let redis: Redis;
  let deps: DiagnosticsDeps;

  beforeAll(async () => {
    lab = await startDnsLab();
    dns = clientFor(lab.resolver);
    sandbox = await createSandbox({});
    addLabDomains(sandbox, lab);
    registrar = sandboxClient(sandbox);
    redis = createRedis(testRedisUrl(), 'request', 'preflight-lab-test');
    await waitForReady(redis);
    deps = {
      dns,
      ledger: new RenewalLedger(redis, new KeySpace(`t-${randomBytes(5).toString('hex')}`)),
      now: Date.now,
      productsCa: new ProductsCa(),
      trustAnchors: anchorsOf(lab.trustAnchor),
    };
  }, 120_000);
  afterAll(async () => {
    await lab?.stop();
    await sandbox?.close();
    redis?.disconnect();
  });

  const chain = (zone: string) => validateChain(dns, zone, anchorsOf(lab.trustAnchor), Date.now());
  const check = (domain: string) => diagnose(deps, { registrar, workspace: WORKSPACE }, domain);
  const codes = async (domain: string) => (await check(domain)).findings.map((finding) => finding.code);
  const preflight = (names: string[], kinds: ValidationKind[] = ['dns'], ca = REGISTRAR_CA) =>
    certificatePreflight(dns, {
      names,
      ca,
      kinds,
      anchors: anchorsOf(lab.trustAnchor),
      now: Date.now(),
      // Generous: the lab answers in milliseconds, but a busy machine must not turn a refusal into "let through".
      budgetMs: 30_000,
    });
  /** The third field of each record of `type` (a DNSKEY's algorithm, a DS's digest type), as served. */
  const third = async (server: string, zone: string, type: 'DNSKEY' | 'DS') =>
    (await queryDns(server, zone, type, { recurse: false })).answers.flatMap((record) =>
      record.type === type ? [Number(record.data.split(' ')[2])] : [],
    );
  const algorithmsOf = (zone: string) => third(lab.addresses.primary[0], zone, 'DNSKEY');
  const dsDigestTypes = (zone: string) => third(lab.addresses.tld, zone, 'DS');

  it('validates algorithm 13 and 8 zones from the root, and neither is deprecated', async () => {
    expect(await algorithmsOf(lab.zones.healthy)).toEqual([13]);
    expect(await algorithmsOf(lab.zones.rsa)).toEqual([8]);
    expect(await chain(lab.zones.healthy)).toEqual({ state: 'secure' });
    expect(await chain(lab.zones.rsa)).toEqual({ state: 'secure' });
    expect(await codes(lab.zones.rsa)).toEqual([]);
    expect(await preflight([lab.zones.rsa, `www.${lab.zones.rsa}`, lab.zones.healthy])).toBeUndefined();
  });

  it('validates a zone whose DS has digest type 1 only, and says to move to type 2 with the record', async () => {
    expect(await dsDigestTypes(lab.zones.sha1Ds)).toEqual([1]);
    expect(await dsDigestTypes(lab.zones.healthy)).toEqual([2]);
    expect(await chain(lab.zones.sha1Ds)).toEqual({ state: 'secure' });
    const report = await check(lab.zones.sha1Ds);
    expect(report.findings.map((finding) => [finding.code, finding.severity])).toEqual([['sha1Ds', 'risky']]);
    expect(report.findings[0]?.fix?.[0]).toMatchObject({
      name: lab.zones.sha1Ds,
      type: 'DS',
      value: expect.stringMatching(/^\d+ 13 2 [0-9A-F]{64}$/),
    });
    // SHA-1 in the DS is deprecated, not broken: a certificate may still be ordered.
    expect(await preflight([`www.${lab.zones.sha1Ds}`])).toBeUndefined();
  });

  it('reports a zone signed with RSA/SHA-1 (algorithm 5) as deprecated, and lets its orders through', async (ctx) => {
    if ('missing' in lab.rsaSha1) {
      ctx.skip(`no RSA/SHA-1 zone in the lab: ${lab.rsaSha1.missing}`);
      return;
    }
    const { zone } = lab.rsaSha1;
    expect(await algorithmsOf(zone)).toEqual([5]);
    // Regdesk does not validate RSA/SHA-1 (RFC 9905): an algorithm it does not support leaves the
    // zone unsigned in its eyes (RFC 4035 §5.2), never bogus.
    expect(await chain(zone)).toEqual({ state: 'insecure', at: zone });
    expect(await codes(zone)).toContain('sha1Algorithm');
    expect(await preflight([zone])).toBeUndefined();
  });

  it('stops a certificate for a bogus zone, naming the DS in de. that matches no DNSKEY and the DS to set', async () => {
    const refusal = await preflight([`www.${lab.zones.healthy}`, `shop.${lab.zones.badDs}`]);
    expect(refusal).toMatchObject({
      check: 'dnssec',
      name: `shop.${lab.zones.badDs}`,
      link: { zone: lab.zones.badDs, parent: 'de.', reason: 'noMatchingKey' },
    });
    if (refusal?.check !== 'dnssec') throw new Error('a DNSSEC refusal');
    // The DS to set is the one /dns check computes from the zone's key, not the one in de.
    const report = await check(lab.zones.badDs);
    expect(refusal.link.ds).toEqual([report.findings[0]?.fix?.[0]?.value]);
    expect(report.dnssec.ds).not.toContain(refusal.link.ds[0]);
    // An unsigned zone is fine.
    expect(await preflight([lab.zones.lame])).toBeUndefined();
  });

  it('reads RFC 8657’s CAA examples and the critical flag by the order’s way of validation', async () => {
    const zone = lab.zones.healthy;
    const set = {
      account: '0 issue "example.net; accounturi=https://example.net/account/1234"',
      dnsOnly: '0 issue "example.net; validationmethods=dns-01"',
      httpOnly: '0 issue "example.net; validationmethods=http-01"',
      both: '0 issue "example.net; accounturi=https://example.net/account/2345; validationmethods=dns-01"',
      critical: '128 tbs "Unknown"',
    };
    for (const [label, value] of Object.entries(set))
      await lab.setRecord(zone, label.toLowerCase(), 'CAA', value);
    try {
      const at = (label: string) => `${label.toLowerCase()}.${zone}`;
      const rfc = (names: string[], kinds: ValidationKind[] = ['dns']) => preflight(names, kinds, RFC_CA);
      expect(await rfc([at('account')])).toMatchObject({ check: 'caa', verdict: { reason: 'account' } });
      expect(await rfc([at('both')])).toMatchObject({ check: 'caa', verdict: { reason: 'account' } });
      expect(await rfc([at('dnsOnly')])).toBeUndefined();
      // The same record stops an order validated by e-mail.
      expect(await rfc([at('dnsOnly')], ['email'])).toMatchObject({
        check: 'caa',
        verdict: { reason: 'methods', validation: 'email', record: { value: '0 issue "example.net"' } },
      });
      // While the way is not chosen yet (a Renew button), one that CAA allows is enough.
      expect(await rfc([at('dnsOnly')], ['dns', 'email'])).toBeUndefined();
      expect(await rfc([at('httpOnly')], ['dns', 'email'])).toMatchObject({
        verdict: {
          reason: 'methods',
          methods: 'http-01',
          record: { name: at('httpOnly'), value: '0 issue "example.net; validationmethods=http-01,dns-01"' },
        },
      });
      // An unknown critical tag forbids every CA, the registrar's too.
      expect(await preflight([`www.${zone}`, at('critical')])).toMatchObject({
        check: 'caa',
        name: at('critical'),
        verdict: { reason: 'critical', tag: 'tbs', record: { value: '128 tbs "Unknown"', action: 'remove' } },
      });
    } finally {
      for (const label of Object.keys(set)) await lab.removeRecord(zone, label.toLowerCase(), 'CAA');
    }
  });
});
