import { randomBytes } from 'node:crypto';
import { createSocket, type Socket } from 'node:dgram';
import * as wire from 'dns-packet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DnsClient } from '../../src/dns/client.js';
import { parseDnsServers } from '../../src/dns/servers.js';
import { reportCard } from '../../src/features/diagnostics/blocks.js';
import { ProductsCa } from '../../src/features/diagnostics/caa.js';
import { type DiagnosticsDeps, type DnsReport, diagnose } from '../../src/features/diagnostics/service.js';
import { RenewalLedger } from '../../src/features/tls/renewals.js';
import type { RegistrarClient } from '../../src/registrar/index.js';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { createRedis, KeySpace, type Redis, waitForReady } from '../../src/shared/redis.js';
import { workspaceId } from '../../src/shared/workspace.js';
import { type DnsLab, startDnsLab } from '../helpers/dns-lab/index.js';
import { anchorsOf, clientFor, LAB_ALLOWED } from '../helpers/live-check.js';
import { testRedisUrl } from '../helpers/provided-context.js';
import { sandboxClient } from '../helpers/registrar.js';
import { addLabDomains } from './support.js';

const WORKSPACE = { teamId: 'T0DIAG' };

/**
 * A forwarder that strips every RRSIG from what the lab's non-validating resolver answers, as some
 * home routers and container DNS proxies do: nobody on that path can validate anything.
 */
async function startStrippingForwarder(upstream: string): Promise<{ address: string; stop: () => void }> {
  const [host = '', port = '53'] = upstream.split(':');
  const socket = createSocket('udp4');
  socket.on('message', (message, peer) => {
    const forward = createSocket('udp4');
    forward.on('message', (answer) => {
      forward.close();
      const packet = wire.decode(answer);
      const kept = (records: wire.Answer[] | undefined) => (records ?? []).filter((r) => r.type !== 'RRSIG');
      const stripped = wire.encode({
        ...packet,
        answers: kept(packet.answers),
        authorities: kept(packet.authorities),
        additionals: kept(packet.additionals),
      });
      socket.send(stripped, peer.port, peer.address);
    });
    forward.send(message, Number(port), host);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  return { address: `127.0.0.1:${socket.address().port}`, stop: () => socket.close() };
}

/** Broken and risky findings by code (advice is checked where it matters). */
const problems = (report: DnsReport) =>
  report.findings.filter((finding) => finding.severity !== 'advice').map((finding) => finding.code);

describe('/dns check against real DNS servers (knot authoritative, unbound validating)', () => {
  let lab: DnsLab;
  let sandbox: Sandbox;
  let registrar: RegistrarClient;
  let redis: Redis;
  let deps: DiagnosticsDeps;
  let ledger: RenewalLedger;

  beforeAll(async () => {
    lab = await startDnsLab();
    sandbox = await createSandbox({});
    addLabDomains(sandbox, lab);
    registrar = sandboxClient(sandbox);
    redis = createRedis(testRedisUrl(), 'request', 'diagnostics-test');
    await waitForReady(redis);
    ledger = new RenewalLedger(redis, new KeySpace(`t-${randomBytes(5).toString('hex')}`));
    const parsed = parseDnsServers(lab.resolver);
    if (!('servers' in parsed)) throw new Error(parsed.problem);
    deps = {
      dns: new DnsClient({ resolvers: parsed.servers, allowed: LAB_ALLOWED }),
      ledger,
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

  const check = (domain: string, client: DnsClient = deps.dns) =>
    diagnose({ ...deps, dns: client }, { registrar, workspace: WORKSPACE }, domain);

  it('finds nothing wrong with the healthy control zone, and says what it saw', async () => {
    const report = await check(lab.zones.healthy);
    expect(report.findings).toEqual([]);
    expect(report.notChecked).toEqual([]);
    expect(report.delegation.parentNs).toEqual(lab.nameservers(lab.zones.healthy));
    expect(report.delegation.zoneNs).toEqual(lab.nameservers(lab.zones.healthy));
    expect(report.dnssec).toMatchObject({ verdict: 'secure', basis: 'chain', resolversValidate: 'yes' });
    expect(report.dnssec.ds).toHaveLength(1);
    expect(report.dnssec.registrar).toEqual({ desired: 'enabled', live: 'enabled' });
  });

  it('names the lame nameserver, and only it', async () => {
    const report = await check(lab.zones.lame);
    expect(problems(report)).toEqual(['lame']);
    expect(report.findings[0]?.params).toMatchObject({ host: `ns2.${lab.zones.lame}`, answer: 'REFUSED' });
    // Unsigned at the registrar and in the DNS: advice, not a problem.
    expect(report.findings.map((finding) => finding.code)).toContain('dnssecOff');
  });

  it('sees the SOA serials disagree between the two servers', async () => {
    const report = await check(lab.zones.serial);
    expect(problems(report)).toEqual(['serialMismatch']);
    const serials = JSON.stringify(report.findings[0]?.params);
    expect(serials).toContain('2026112701');
    expect(serials).toContain('2026112601');
  });

  it('computes that the DS at the parent matches no key, and gives the DS to set instead', async () => {
    const report = await check(lab.zones.badDs);
    expect(problems(report)[0]).toBe('dsMatchesNoKey');
    expect(report.dnssec).toMatchObject({ verdict: 'bogus', basis: 'chain' });
    const fix = report.findings[0]?.fix?.[0];
    expect(fix).toMatchObject({ name: lab.zones.badDs, type: 'DS', where: 'registrar' });
    // The right DS has the parent's key tag and algorithm (only the digest was planted wrong).
    const [tag, algorithm] = report.dnssec.ds[0]?.split(' ') ?? [];
    expect(fix?.value.startsWith(`${tag} ${algorithm} 2 `)).toBe(true);
    expect(report.dnssec.ds[0]).not.toContain(fix?.value.split(' ')[3] ?? '-');
    // Resolvers answer SERVFAIL for a bogus zone: mail and CAA could not be checked, and say so.
    expect(report.notChecked.map((entry) => entry.what.code)).toEqual(
      expect.arrayContaining(['mail', 'caa']),
    );
    expect(problems(report)).not.toContain('noSpf');
  });

  it('warns of signatures that expire within 7 days', async () => {
    const report = await check(lab.zones.expiring);
    expect(problems(report)).toEqual(['signaturesExpiring']);
    expect(report.dnssec.verdict).toBe('secure');
  });

  it('finds the CAA record that forbids the registrar’s CA, with the record to add', async () => {
    const report = await check(lab.zones.caa);
    expect(problems(report)).toEqual(['caaForbids']);
    expect(report.findings[0]?.params).toMatchObject({ ca: 'DigiCert', issuers: 'letsencrypt.org' });
    expect(report.findings[0]?.fix).toEqual([
      { name: lab.zones.caa, type: 'CAA', value: '0 issue "digicert.com"', where: 'zone' },
    ]);
  });

  it('judges CAA by the CA the registrar’s products name (GET /tls/products), or DigiCert without it', async () => {
    expect(sandbox.calls.some((call) => call.operation === 'tls.products' && call.status === 200)).toBe(true);
    // A registrar whose products are Let's Encrypt's (read before, so within the hour it is not read again).
    const letsEncrypt = new ProductsCa();
    await letsEncrypt.for(workspaceId(WORKSPACE), async () => [{ ca: "Let's Encrypt" }]);
    const allowed = await diagnose(
      { ...deps, productsCa: letsEncrypt },
      { registrar, workspace: WORKSPACE },
      lab.zones.caa,
    );
    expect(problems(allowed)).toEqual([]);
    // A registrar without the endpoint (404): the v1.6.2 products' CA, DigiCert, which CAA forbids.
    sandbox.faults.inject('tls.products', { status: 404 });
    try {
      const report = await diagnose(
        { ...deps, productsCa: new ProductsCa() },
        { registrar, workspace: WORKSPACE },
        lab.zones.caa,
      );
      expect(problems(report)).toEqual(['caaForbids']);
    } finally {
      sandbox.faults.clear();
    }
  });

  it('finds two SPF records (and DMARC p=reject beside them) and a missing DMARC record', async () => {
    const spf = await check(lab.zones.spf);
    expect(problems(spf)).toEqual(['manySpf', 'rejectWithBrokenSpf']);
    expect(spf.findings[0]?.fix?.[0]).toMatchObject({ action: 'remove', type: 'TXT' });
    const dmarc = await check(lab.zones.noDmarc);
    expect(problems(dmarc)).toEqual(['noDmarc']);
    expect(dmarc.findings[0]?.fix?.[0]).toMatchObject({ name: `_dmarc.${lab.zones.noDmarc}`, type: 'TXT' });
  });

  it('compares the registrar’s nameservers and DNSSEC state with what the parent serves', async () => {
    const domain = sandbox.state.domains.get(lab.zones.serial);
    if (domain === undefined) throw new Error('no serial.de in the sandbox');
    domain.externalNameservers = [`ns1.${lab.zones.serial}`, 'ns9.elsewhere.de'];
    domain.dnssec = { ...domain.dnssec, mode: 'external', desired: 'enabled', live: 'enabled' };
    try {
      const report = await check(lab.zones.serial);
      expect(problems(report)).toEqual(expect.arrayContaining(['registrarMismatch', 'registryActiveNoDs']));
      expect(report.findings.map((finding) => finding.code)).not.toContain('dnssecOff');
    } finally {
      domain.externalNameservers = lab.nameservers(lab.zones.serial);
      domain.dnssec = { ...domain.dnssec, mode: 'none', desired: 'disabled', live: 'disabled' };
    }
  });

  it('shows whether a pending order’s validation record is served by every authoritative nameserver', async () => {
    const name = `_token1.www.${lab.zones.healthy}.`;
    const value = 'token1.dcv.digicert.example.';
    sandbox.state.certificates.set('cert-diag-pending', {
      id: 'cert-diag-pending',
      status: 'pending',
      common_name: `www.${lab.zones.healthy}`,
      product: 'RapidSSL',
      dns_names: [`www.${lab.zones.healthy}`],
      order_state: 'PENDING',
      organization_id: null,
      validity_days: 365,
      orderedAt: Date.now(),
      issueAt: Date.now() + 3_600_000,
      dcv_method: 'dns-cname-token',
      action_required: false,
    } as Parameters<typeof sandbox.state.certificates.set>[1]);
    await ledger.record(WORKSPACE, {
      id: 'cert-diag-pending',
      commonName: `www.${lab.zones.healthy}`,
      placedAt: Date.now(),
      validation: [{ name, type: 'CNAME', value }],
    });
    const before = await check(lab.zones.healthy);
    expect(problems(before)).toEqual(['validationMissing']);
    expect(before.findings[0]?.fix).toEqual([
      { name: name.replace(/\.$/, ''), type: 'CNAME', value, where: 'zone' },
    ]);

    await lab.setRecord(lab.zones.healthy, name, 'CNAME', 'token0.dcv.digicert.example.');
    expect(problems(await check(lab.zones.healthy))).toEqual(['validationWrong']);

    await lab.setRecord(lab.zones.healthy, name, 'CNAME', value);
    const after = await check(lab.zones.healthy);
    expect(after.findings).toEqual([]);
    expect(after.validationVisible).toEqual([{ id: 'cert-diag-pending', count: 1 }]);

    // Issued: nothing is waiting any more.
    const certificate = sandbox.state.certificates.get('cert-diag-pending');
    if (certificate !== undefined) certificate.status = 'issued';
    await lab.removeRecord(lab.zones.healthy, name, 'CNAME');
    const issued = await check(lab.zones.healthy);
    expect(issued.findings).toEqual([]);
    expect(issued.validationVisible).toEqual([]);
  });

  it('reads an answer too big for UDP over TCP (the truncation bit)', async () => {
    // Six strings of 251 bytes: past the 1232 bytes the client offers over UDP, so the server truncates.
    const rdata = Array.from({ length: 6 }, (_, i) => `"${i}${'x'.repeat(250)}"`).join(' ');
    await lab.setRecord(lab.zones.healthy, 'big', 'TXT', rdata);
    try {
      const answer = await deps.dns.ask(
        { host: lab.addresses.primary[0], port: 53 },
        `big.${lab.zones.healthy}`,
        'TXT',
        {
          dnssec: true,
        },
      );
      const txt = answer.answers.find((record) => record.type === 'TXT');
      // Only the TCP answer holds the record: the truncated UDP one has no answer section.
      expect(txt?.type === 'TXT' && Array.isArray(txt.data) ? txt.data.length : 0).toBe(6);
      expect(answer.authoritative).toBe(true);
    } finally {
      await lab.removeRecord(lab.zones.healthy, 'big', 'TXT');
    }
  });

  describe('when the resolvers do not validate DNSSEC', () => {
    it('still finds a signed zone secure, validating the chain itself, and says the resolvers do not validate', async () => {
      const report = await check(lab.zones.healthy, clientFor(lab.plainResolver));
      expect(report.dnssec).toMatchObject({ verdict: 'secure', basis: 'chain', resolversValidate: 'no' });
      expect(report.findings).toEqual([]);
      expect(JSON.stringify(reportCard(report).blocks)).toContain(
        'secure, validated by Regdesk from the root; the configured resolvers do not validate DNSSEC',
      );
    });

    it('finds a bogus zone bogus, though the resolvers answer it as if nothing were wrong', async () => {
      const plain = clientFor(lab.plainResolver);
      expect((await plain.resolve(lab.zones.badDs, 'SOA')).rcode).toBe('NOERROR');
      const report = await check(lab.zones.badDs, plain);
      expect(report.dnssec).toMatchObject({ verdict: 'bogus', basis: 'chain', resolversValidate: 'no' });
      expect(problems(report)).toContain('dsMatchesNoKey');
      // Unlike the validating resolver, this one still answers: mail and CAA are checked.
      expect(report.notChecked.map((entry) => entry.what.code)).not.toContain('mail');
    });

    it('calls an unsigned zone insecure from the proof the parent signed', async () => {
      const report = await check(lab.zones.lame, clientFor(lab.plainResolver));
      expect(report.dnssec).toMatchObject({ verdict: 'insecure', basis: 'chain' });
    });

    it('says "not verified" instead of "insecure" when it cannot read the chain and the resolvers do not validate', async () => {
      const forwarder = await startStrippingForwarder(lab.plainResolver);
      try {
        const report = await check(lab.zones.healthy, clientFor(forwarder.address));
        // The DS at the parent and the zone's keys are asked directly: the zone is visibly signed.
        expect(report.dnssec.ds).toHaveLength(1);
        expect(report.dnssec).toMatchObject({
          verdict: 'unvalidated',
          basis: 'resolvers',
          resolversValidate: 'no',
        });
        const card = JSON.stringify(reportCard(report).blocks);
        expect(card).toContain('not verified: signed, but the resolvers do not validate DNSSEC');
        expect(card).not.toContain('insecure');
      } finally {
        forwarder.stop();
      }
    });

    it('finds the root bogus when the trust anchor is not the root’s (IANA’s anchor against the lab)', async () => {
      const report = await diagnose(
        {
          ...deps,
          trustAnchors: anchorsOf(
            '. IN DS 20326 8 2 E06D44B80B8F1D39A95C0B0D7C65D08458E880409BBC683457104237C7F8EC8D',
          ),
        },
        { registrar, workspace: WORKSPACE },
        lab.zones.healthy,
      );
      expect(report.dnssec.verdict).toBe('bogus');
      expect(report.findings.find((finding) => finding.code === 'bogus')?.params).toMatchObject({
        at: '.',
        reason: 'noMatchingKey',
      });
    });
  });

  describe('when the DNS does not answer', () => {
    let silent: Socket;
    beforeAll(async () => {
      // A resolver that takes every question and never answers.
      silent = createSocket('udp4');
      await new Promise<void>((resolve) => silent.bind(0, '127.0.0.1', resolve));
    });
    afterAll(() => silent.close());

    it('says "could not check" for every area and raises no finding', async () => {
      const client = new DnsClient({
        resolvers: [{ host: '127.0.0.1', port: silent.address().port }],
        timeoutMs: 150,
      });
      const report = await check(lab.zones.caa, client);
      expect(report.findings).toEqual([]);
      const areas = report.notChecked.map((entry) => entry.what.code);
      expect(areas).toEqual(expect.arrayContaining(['resolver', 'caa', 'mail']));
      expect(report.notChecked.every((entry) => entry.why.code === 'timeout')).toBe(true);
    });

    it('treats a refusing resolver the same way', async () => {
      const closed = createSocket('udp4');
      await new Promise<void>((resolve) => closed.bind(0, '127.0.0.1', resolve));
      const port = closed.address().port;
      await new Promise<void>((resolve) => closed.close(() => resolve()));
      const client = new DnsClient({ resolvers: [{ host: '127.0.0.1', port }], timeoutMs: 2_000 });
      const report = await check(lab.zones.spf, client);
      expect(report.findings).toEqual([]);
      // Refused by ICMP ("network"), not waited out ("timeout").
      expect(report.notChecked.length).toBeGreaterThan(0);
      expect(report.notChecked.every((entry) => entry.why.code === 'network')).toBe(true);
    });
  });
});
