import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DnsClient, type DnsRecord } from '../../src/dns/client.js';
import { dsMatches } from '../../src/dns/dnssec.js';
import { parseTrustAnchors, type TrustAnchor, validateChain } from '../../src/dns/validator.js';
import { ProductsCa } from '../../src/features/diagnostics/caa.js';
import { type DiagnosticsDeps, type DnsReport, diagnose } from '../../src/features/diagnostics/service.js';
import { RenewalLedger } from '../../src/features/tls/renewals.js';
import { type PlaygroundDns, startPlaygroundDns } from '../../src/playground/dns/index.js';
import type { RegistrarClient } from '../../src/registrar/index.js';
import { createSandbox, type Sandbox, type SandboxDomain } from '../../src/sandbox/index.js';
import { createLogger } from '../../src/shared/logger.js';
import { createRedis, KeySpace, type Redis, waitForReady } from '../../src/shared/redis.js';
import { testRedisUrl } from '../helpers/provided-context.js';
import { sandboxClient } from '../helpers/registrar.js';

const WORKSPACE = { teamId: 'T0PLAYDNS' };
const dataOf = (record: DnsRecord) => (record as { data?: unknown }).data;
const problems = (report: DnsReport) =>
  report.findings.filter((finding) => finding.severity !== 'advice').map((finding) => finding.code);

/**
 * The playground's DNS answers from the sandbox's state, so `/dns check`, publishing and record
 * changes mean something in the playground: the real checks, run against it, find the sandbox's
 * zones as the sandbox has them, and see a change at once.
 */
describe("the playground's DNS: the sandbox's zones as the internet would serve them", () => {
  let sandbox: Sandbox;
  let dns: PlaygroundDns;
  let client: DnsClient;
  let registrar: RegistrarClient;
  let redis: Redis;
  let deps: DiagnosticsDeps;
  let anchors: TrustAnchor[];

  beforeAll(async () => {
    sandbox = await createSandbox({});
    registrar = sandboxClient(sandbox);
    const started = await startPlaygroundDns(sandbox, createLogger({ level: 'silent' }));
    if (started === undefined) throw new Error('the playground DNS did not start on 127.53.0.0/24');
    dns = started;
    client = new DnsClient({
      resolvers: dns.resolvers,
      nameserverPort: dns.nameserverPort,
      allowed: dns.allowed,
    });
    const parsed = parseTrustAnchors(dns.trustAnchor);
    if (!('anchors' in parsed)) throw new Error(`the playground's trust anchor: ${parsed.problem}`);
    anchors = parsed.anchors;
    redis = createRedis(testRedisUrl(), 'request', 'playground-dns-test');
    await waitForReady(redis);
    deps = {
      dns: client,
      ledger: new RenewalLedger(redis, new KeySpace(`t-${randomBytes(5).toString('hex')}`)),
      now: Date.now,
      productsCa: new ProductsCa(),
      trustAnchors: anchors,
    };
  });
  afterAll(async () => {
    await dns?.close();
    await sandbox?.close();
    redis?.disconnect();
  });

  const check = (domain: string) => diagnose(deps, { registrar, workspace: WORKSPACE }, domain);

  it('resolves the zones the sandbox hosts, through CNAMEs, and nothing else', async () => {
    const apex = await client.records('example.com', 'A');
    expect(apex.map(dataOf)).toEqual(['192.0.2.10']);
    const www = await client.resolve('www.example.com', 'A');
    expect(www.answers.map((record) => [record.type, dataOf(record)])).toEqual([
      ['CNAME', 'example.com'],
      ['A', '192.0.2.10'],
    ]);
    expect((await client.resolve('nothing-here.example.com', 'A')).rcode).toBe('NXDOMAIN');
    expect((await client.resolve('google.com', 'A')).rcode).toBe('NXDOMAIN');
    // An inactive record is not served.
    expect((await client.resolve('old.example.com', 'A')).answers).toEqual([]);
  });

  it('finds nothing wrong with the delegation and DNSSEC of a signed zone on the registrar’s nameservers: DS and keys agree', async () => {
    const report = await check('regdesk-demo.de');
    // What the sandbox's seed zones really lack (their MX host has no address, no DMARC), and only that.
    expect(problems(report)).toEqual(['mxNoAddress', 'noDmarc']);
    expect(report.notChecked).toEqual([]);
    expect(report.delegation.parentNs).toEqual(['ns1.regfish.de', 'ns2.regfish.net']);
    expect(report.delegation.zoneNs).toEqual(report.delegation.parentNs);
    expect(report.dnssec.verdict).toBe('secure');
    expect(report.dnssec.basis).toBe('chain');
    expect(report.dnssec.ds).toHaveLength(1);

    const parent = (await client.resolve('de', 'NS')).answers[0];
    const [tld] = await client.addresses(String(parent === undefined ? '' : dataOf(parent)));
    const ds = await client.ask(client.nameserver(tld ?? ''), 'regdesk-demo.de', 'DS');
    const keys = await client.ask(client.nameserver('127.53.0.2'), 'regdesk-demo.de', 'DNSKEY');
    expect(ds.authoritative && keys.authoritative).toBe(true);
    const [dsData] = ds.answers.flatMap((record) => (record.type === 'DS' ? [record.data] : []));
    const [keyData] = keys.answers.flatMap((record) => (record.type === 'DNSKEY' ? [record.data] : []));
    expect(
      dsData !== undefined && keyData !== undefined && dsMatches('regdesk-demo.de', dsData, keyData),
    ).toBe(true);
  });

  /** Zones as the sandbox's state has them: hosted here, signed or not by the registrar. */
  const hostedZone = (signed: boolean): SandboxDomain => {
    const found = [...sandbox.state.domains.values()].find(
      (domain) =>
        domain.usingServiceNameservers &&
        (domain.dnssec.mode === 'regfish' && domain.dnssec.live === 'enabled') === signed,
    );
    if (found === undefined)
      throw new Error(`the sandbox's seed has no ${signed ? 'signed' : 'unsigned'} zone`);
    return found;
  };
  const validate = (name: string) => validateChain(client, name, anchors, Date.now());

  it("validates from its own root's trust anchor: a zone the sandbox signs is secure, an unsigned one insecure", async () => {
    expect(dns.trustAnchor).toMatch(/^\. IN DS \d+ 13 2 [0-9A-F]{64}$/);
    const signed = hostedZone(true).domain;
    const unsigned = hostedZone(false).domain;
    expect(await validate(signed)).toEqual({ state: 'secure' });
    expect(await validate(unsigned)).toEqual({ state: 'insecure', at: unsigned });
    // A name in no zone is proven absent by its TLD's signed NSEC, not left unproven (bogus).
    expect(await validate('google.com')).toEqual({ state: 'insecure', at: 'google.com' });
    // And so is a TLD no sandbox domain is in, by the root's.
    expect(await validate('nowhere.invalid')).toEqual({ state: 'insecure', at: 'nowhere.invalid' });
  });

  it('follows DNSSEC switched off and on in the sandbox: the verdict flips with the state', async () => {
    const zone = hostedZone(true);
    const other = hostedZone(false);
    const [was, otherWas] = [zone.dnssec, other.dnssec];
    try {
      zone.dnssec = { ...was, live: 'disabled', mode: 'none' };
      other.dnssec = { ...otherWas, mode: 'regfish', desired: 'enabled', live: 'enabled' };
      expect(await validate(zone.domain)).toEqual({ state: 'insecure', at: zone.domain });
      expect(await validate(other.domain)).toEqual({ state: 'secure' });
      const keys = await client.resolve(zone.domain, 'DNSKEY', { dnssec: true });
      expect(keys.answers).toEqual([]);
      expect(keys.authenticated).toBe(false);
    } finally {
      zone.dnssec = was;
      other.dnssec = otherWas;
    }
    expect(await validate(zone.domain)).toEqual({ state: 'secure' });
    expect(await validate(other.domain)).toEqual({ state: 'insecure', at: other.domain });
  });

  it('signs what it serves, with DO only: the TLD’s DS for the served key, the zone’s SOA for 30 days', async () => {
    const zone = hostedZone(true).domain;
    const tld = client.nameserver('127.53.0.1');
    const ds = await client.ask(tld, zone, 'DS', { dnssec: true });
    const keys = await client.ask(client.nameserver('127.53.0.2'), zone, 'DNSKEY', { dnssec: true });
    const signers = (answer: { answers: DnsRecord[] }) =>
      answer.answers.flatMap((record) => (record.type === 'RRSIG' ? [record.data.signersName] : []));
    expect(signers(ds)).toEqual([zone.split('.').at(-1)]);
    expect(signers(keys)).toEqual([zone]);
    const [dsData] = ds.answers.flatMap((record) => (record.type === 'DS' ? [record.data] : []));
    const [keyData] = keys.answers.flatMap((record) => (record.type === 'DNSKEY' ? [record.data] : []));
    expect(dsData !== undefined && keyData !== undefined && dsMatches(zone, dsData, keyData)).toBe(true);

    const soa = await client.resolve(zone, 'SOA', { dnssec: true, checkingDisabled: true });
    expect(soa.authenticated).toBe(true);
    const [expiration] = soa.answers.flatMap((record) =>
      record.type === 'RRSIG' ? [record.data.expiration] : [],
    );
    expect((expiration ?? 0) * 1000 - Date.now()).toBeGreaterThan(29 * 86_400_000);
    // Without DO, no DNSSEC records (RFC 4035 §3.1).
    const plain = await client.resolve(zone, 'SOA');
    expect(plain.answers.map((record) => record.type)).toEqual(['SOA']);
  });

  it('follows the delegation the registrar holds: a vanity set with glue, an unsigned zone, external servers nobody answers for', async () => {
    const vanity = await check('example.com');
    expect(vanity.delegation.parentNs).toEqual(['ns1.example.com', 'ns2.example.com']);
    expect(vanity.notChecked).toEqual([]);
    expect(problems(vanity)).toEqual(['mxNoAddress', 'noDmarc']);
    expect(vanity.dnssec.verdict).toBe('insecure');
    expect(vanity.dnssec.basis).toBe('chain');

    const external = await check('shop-example.org');
    expect(external.delegation.parentNs).toEqual(['ns1.external-dns.net', 'ns2.external-dns.net']);
    // Served by nobody here: could not check, never a finding about the zone's records.
    expect(external.notChecked.length).toBeGreaterThan(0);
  });

  it('serves a record written at the registrar at once, with authority, on both nameservers', async () => {
    const created = await registrar.dns.createRecord({
      type: 'TXT',
      name: 'hello.example.com.',
      data: 'served by the playground',
      ttl: 300,
    });
    for (const address of ['127.53.0.2', '127.53.0.3']) {
      const answer = await client.ask(client.nameserver(address), 'hello.example.com', 'TXT');
      expect(answer.authoritative).toBe(true);
      expect(answer.answers.map((record) => String(dataOf(record)))).toEqual(['served by the playground']);
    }
    await registrar.dns.deleteRecord(created.id ?? 0);
    const gone = await client.ask(client.nameserver('127.53.0.2'), 'hello.example.com', 'TXT');
    expect(gone.rcode).toBe('NXDOMAIN');
  });

  it('answers a large record set over TCP after a truncated UDP answer', async () => {
    sandbox.state.addRecords('xn--mller-kva.de', 0);
    const zone = sandbox.state.domains.get('xn--mller-kva.de');
    for (let i = 0; i < 30; i++)
      zone?.records.push({
        id: sandbox.state.newRecordId(),
        name: 'big.xn--mller-kva.de.',
        type: 'TXT',
        data: `"${String(i).padStart(2, '0')}${'x'.repeat(120)}"`,
        ttl: 300,
        auto: false,
        active: true,
      });
    const answer = await client.resolve('big.xn--mller-kva.de', 'TXT');
    expect(answer.answers).toHaveLength(30);
  });

  it('refuses questions about zones it does not serve, and recursion where it is not a resolver', async () => {
    const elsewhere = await client.ask(client.nameserver('127.53.0.2'), 'google.com', 'A');
    expect(elsewhere.rcode).toBe('REFUSED');
    const noRecursion = await client.ask(dns.resolvers[0] ?? { host: '', port: 0 }, 'example.com', 'A');
    expect(noRecursion.rcode).toBe('REFUSED');
  });
});
