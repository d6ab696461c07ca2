import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AssistantBusyError,
  BadRequestError,
  ConflictError,
  createRegistrarClient,
  ForbiddenError,
  MalformedResponseError,
  NotFoundError,
  RateLimitedError,
  RecordSetInvalidError,
  type RegistrarClient,
  type RequestInfo,
  TimeoutError,
  UnauthorizedError,
  UpstreamFailedError,
} from '../../src/registrar/index.js';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { memoryLogger } from '../helpers/app-harness.js';

const CSR = '-----BEGIN CERTIFICATE REQUEST-----\nMIIB\n-----END CERTIFICATE REQUEST-----';
const CANARY_KEY = 'sbx_canary_key_4f2a9c81e6';

describe('registrar client against the sandbox (contract)', () => {
  let sandbox: Sandbox;
  let client: RegistrarClient;
  let now = Date.UTC(2026, 10, 22, 12);
  const requests: RequestInfo[] = [];
  const { logger, logs } = memoryLogger('debug');
  const sleeps: number[] = [];

  beforeAll(async () => {
    sandbox = await createSandbox({
      apiKey: CANARY_KEY,
      clock: { now: () => now },
      delays: { certificateIssueMs: 60_000, dnssecSettleMs: 30_000, assistantAnswerMs: 50 },
      limits: { availability: { max: 5, windowMs: 60_000 }, authcodeDomainPerDay: 2 },
    });
    client = createRegistrarClient({
      baseUrl: sandbox.url,
      apiKey: async () => CANARY_KEY,
      logger,
      timeoutMs: 1_000,
      onRequest: (info) => requests.push(info),
      sleep: async (ms) => {
        sleeps.push(ms);
      },
    });
  });
  afterAll(async () => {
    await sandbox.close();
  });

  describe('TLS certificates', () => {
    it('orders, follows pending → issued by the clock, downloads PEM and ZIP', async () => {
      const order = await client.tls.order({
        sku: 'RapidSSL',
        common_name: 'new.example.com',
        dns_names: ['alt.example.com'],
        csr: CSR,
        dcv_method: 'dns-cname-token',
      });
      expect(order).toMatchObject({
        status: 'pending',
        order_state: 'PENDING',
        pending_reason: 'validation_pending',
      });
      expect(order.validation?.dns_records.length).toBe(2);
      await expect(client.tls.download(order.id, 'pem')).rejects.toBeInstanceOf(ConflictError);
      now += 61_000;
      expect((await client.tls.get(order.id)).status).toBe('issued');
      const pem = await client.tls.download(order.id, 'pem');
      expect(pem.format === 'pem' && pem.text).toContain('-----BEGIN CERTIFICATE-----');
      const zip = await client.tls.download(order.id, 'zip');
      expect(zip.format === 'zip' && Buffer.from(zip.bytes).subarray(0, 2).toString()).toBe('PK');
    });

    it('answers action_required with a completion URL for OV products without an organization', async () => {
      const order = await client.tls.order({
        sku: 'SecureSite',
        common_name: 'ov.example.com',
        csr: CSR,
        dcv_method: 'email',
      });
      expect(order.action_required).toBe(true);
      expect(order.completion_url).toMatch(/^https:\/\//);
    });

    it('refuses bad products, CSRs, unknown renewals and unknown certificates with typed errors', async () => {
      await expect(
        client.tls.order({ sku: 'Nope', common_name: 'x.example.com', csr: CSR, dcv_method: 'email' }),
      ).rejects.toBeInstanceOf(BadRequestError);
      await expect(
        client.tls.order({
          sku: 'RapidSSL',
          common_name: 'x.example.com',
          csr: CSR,
          dcv_method: 'email',
          renewal_of_certificate_id: 'nope',
        }),
      ).rejects.toBeInstanceOf(NotFoundError);
      await expect(client.tls.get('does-not-exist')).rejects.toBeInstanceOf(NotFoundError);
    });

    it('revokes one certificate, then reissues with the same SANs only', async () => {
      await expect(
        client.tls.reissue('cert-issued-old', {
          csr: CSR,
          dcv_method: 'email',
          dns_names: ['other.example.com'],
        }),
      ).rejects.toBeInstanceOf(BadRequestError);
      expect(
        (await client.tls.revoke('cert-issued-old', { revocation_reason: 'keyCompromise' })).status,
      ).toBe('certificate-revoked');
      await expect(client.tls.revoke('cert-issued-old')).rejects.toBeInstanceOf(ConflictError);
      const reissued = await client.tls.reissue('cert-issued-old', {
        csr: CSR,
        dcv_method: 'dns-cname-token',
        dns_names: ['api.example.com'],
      });
      expect(reissued.status).toBe('pending');
    });

    it('order-cancel revokes the whole order within 7 days, and is a conflict later', async () => {
      expect(
        (await client.tls.cancelOrder('cert-issued-recent', { revocation_reason: 'superseded' })).status,
      ).toBe('revoked');
      const template = sandbox.state.certificates.get('cert-revoked');
      if (template === undefined) throw new Error('seed certificate missing');
      sandbox.state.certificates.set('cert-late', {
        ...template,
        id: 'cert-late',
        status: 'issued',
        orderedAt: now - 8 * 86_400_000,
      });
      await expect(client.tls.cancelOrder('cert-late')).rejects.toBeInstanceOf(ConflictError);
    });
  });

  describe('TLS organizations', () => {
    it('creates, updates and reads; refuses missing fields; 404 for unknown', async () => {
      const org = await client.organizations.create({
        organization: 'Beta GmbH',
        first_name: 'A',
        last_name: 'B',
        address: 'Street 1',
        postal_code: '1010',
        city: 'Wien',
        country_code: 'AT',
        phone: '+43 1 234',
        email: 'pki@beta.example',
      });
      expect(org.status).toBe('ready');
      expect(
        (await client.organizations.update(org.id, { city: 'Graz', edit_mode: 'update_provider' })).city,
      ).toBe('Graz');
      expect((await client.organizations.get(org.id)).organization).toBe('Beta GmbH');
      await expect(client.organizations.get('org-nope')).rejects.toBeInstanceOf(NotFoundError);
    });
  });

  describe('DNSSEC', () => {
    it('enables service-managed DNSSEC, pending until settled, verify and cancel', async () => {
      const started = await client.dnssec.put('example.com', { mode: 'regfish', state: 'enabled' });
      expect(started.dnssec_state).toBe('pending');
      expect(started.pending_job).toBeTruthy();
      expect((await client.dnssec.verify('example.com')).dnssec_state).toBe('pending');
      now += 31_000;
      expect((await client.dnssec.get('example.com')).dnssec_state).toBe('active');
      await expect(client.dnssec.cancel('example.com')).rejects.toBeInstanceOf(ConflictError);
    });

    it('refuses service mode on external nameservers (409) and bad external records (417)', async () => {
      await expect(
        client.dnssec.put('shop-example.org', { mode: 'regfish', state: 'enabled' }),
      ).rejects.toBeInstanceOf(ConflictError);
      await expect(
        client.dnssec.put('shop-example.org', {
          mode: 'external',
          state: 'enabled',
          records: [{ kind: 'ds', algorithm: 5 }],
        }),
      ).rejects.toBeInstanceOf(RecordSetInvalidError);
      const ok = await client.dnssec.put('shop-example.org', {
        mode: 'external',
        state: 'enabled',
        records: [{ kind: 'ds', algorithm: 13, key_tag: 1, digest_type: 2, digest: 'AB' }],
      });
      expect(ok.desired_state).toBe('enabled');
      expect((await client.dnssec.cancel('shop-example.org')).dnssec_state).toBe('inactive');
    });
  });

  describe('DNS zones and records', () => {
    it('reads a zone with counts and records, and lists records with normalised timestamps', async () => {
      const zone = await client.dns.zone('example.com');
      expect(zone.counts?.records_total).toBe(zone.records.length);
      expect(zone.delegation_nameservers[0]?.host).toMatch(/\.$/);
      const records = await client.dns.records('example.com');
      expect(records.length).toBeGreaterThan(5);
      expect(records[0]?.ts_created).toBeGreaterThan(1e12); // seconds on the wire → ms
    });

    it('turns the real service quirk (HTTP 200, success:false, code 15001) into NotFound', async () => {
      await expect(client.dns.records('not-in-account.com')).rejects.toBeInstanceOf(NotFoundError);
      await expect(client.dns.zone('not-in-account.com')).rejects.toBeInstanceOf(NotFoundError);
    });
  });

  describe('domains', () => {
    it('reads details of an IDN by its Unicode name (punycode on the wire)', async () => {
      const domain = await client.domains.get('Müller.de');
      expect(domain.domain).toBe('xn--mller-kva.de');
      expect(domain.expires_at).toBeGreaterThan(1e12);
      expect(sandbox.calls.at(-1)?.path).toBe('/domains/xn--mller-kva.de');
    });

    it('changes delegation; guard 403, unknown set 404, state 409, daily limit 429', async () => {
      expect((await client.domains.setNameservers('example.com', 12)).vanity_set_id).toBe(12);
      expect((await client.domains.setNameservers('example.com', null)).mode).toBe('standard');
      await expect(client.domains.setNameservers('guarded.com', 11)).rejects.toBeInstanceOf(ForbiddenError);
      await expect(client.domains.setNameservers('example.com', 999)).rejects.toBeInstanceOf(NotFoundError);
      await expect(client.domains.setNameservers('leaving.net', 11)).rejects.toBeInstanceOf(ConflictError);
      for (let i = 0; i < 3; i++) await client.domains.setNameservers('example.com', 11);
      await expect(client.domains.setNameservers('example.com', 11)).rejects.toBeInstanceOf(RateLimitedError);
    });

    it('issues auth codes within the daily limit; guard 403', async () => {
      const code = await client.domains.requestAuthCode('regdesk-demo.de');
      expect(code.authinfo.length).toBeGreaterThan(5);
      await client.domains.requestAuthCode('regdesk-demo.de');
      await expect(client.domains.requestAuthCode('regdesk-demo.de')).rejects.toBeInstanceOf(
        RateLimitedError,
      );
      await expect(client.domains.requestAuthCode('guarded.com')).rejects.toBeInstanceOf(ForbiddenError);
      expect(sandbox.state.guardLog.filter((e) => e.outcome === 'issued')).toHaveLength(2);
    });

    it('checks availability: available, taken, invalid (400), undeterminable (502), rate (429)', async () => {
      expect((await client.domains.checkAvailability('fresh-name-123.com')).available).toBe(true);
      expect((await client.domains.checkAvailability('example.com')).available).toBe(false);
      await expect(client.domains.checkAvailability('co.uk')).rejects.toBeInstanceOf(BadRequestError);
      await expect(client.domains.checkAvailability('unreachable-registry.com')).rejects.toBeInstanceOf(
        UpstreamFailedError,
      );
      await client.domains.checkAvailability('one-more.com');
      await expect(client.domains.checkAvailability('over-limit.com')).rejects.toBeInstanceOf(
        RateLimitedError,
      );
    });
  });

  describe('assistant', () => {
    it('answers Markdown with /my/ links and a dashboard URL', async () => {
      const answer = await client.assistant.ask({ q: 'How do I enable DNSSEC?' });
      expect(answer.answer).toContain('/my/');
      expect(answer.dashboard_url).toMatch(/^https:\/\//);
      expect(answer.sources.length).toBeGreaterThan(0);
    });

    it('is busy (503) while another question of the account is answered, and 403 without the right', async () => {
      const first = client.assistant.ask({ q: 'renewal' });
      await expect(client.assistant.ask({ q: 'transfer' })).rejects.toBeInstanceOf(AssistantBusyError);
      await first;
      sandbox.addKey('no-assistant', ['domain:read']);
      const limited = createRegistrarClient({ baseUrl: sandbox.url, apiKey: 'no-assistant' });
      await expect(limited.assistant.ask({ q: 'hello' })).rejects.toBeInstanceOf(ForbiddenError);
      await expect(client.assistant.ask({ q: '  ' })).rejects.toBeInstanceOf(BadRequestError);
    });
  });

  describe('transport', () => {
    it('refuses ids and names that would change the endpoint, before any request', async () => {
      const before = sandbox.calls.length;
      for (const id of ['.', '..', '../organization/x', 'a/b', ' ', '%2e%2e', 'x'.repeat(200)]) {
        await expect(client.tls.get(id), id).rejects.toBeInstanceOf(BadRequestError);
        await expect(client.organizations.get(id), id).rejects.toBeInstanceOf(BadRequestError);
        await expect(client.tls.revoke(id, {}), id).rejects.toBeInstanceOf(BadRequestError);
      }
      for (const name of ['..', '.', 'a/b.com', 'example.com/..', '../x']) {
        await expect(client.domains.get(name), name).rejects.toBeInstanceOf(BadRequestError);
      }
      expect(sandbox.calls.length).toBe(before);
      await expect(client.tls.get('cert-issued-recent')).resolves.toMatchObject({ id: 'cert-issued-recent' });
    });

    it('maps a bad key to Unauthorized', async () => {
      const bad = createRegistrarClient({ baseUrl: sandbox.url, apiKey: 'wrong' });
      await expect(bad.domains.get('example.com')).rejects.toBeInstanceOf(UnauthorizedError);
    });

    it('retries a GET on 503 and succeeds; never retries a state-changing POST', async () => {
      sandbox.faults.inject('tls.get', { status: 503, times: 1 });
      const before = sandbox.calls.length;
      expect((await client.tls.get('cert-pending')).id).toBe('cert-pending');
      expect(sandbox.calls.length - before).toBe(2);
      sandbox.faults.inject('tls.revoke', { status: 502, times: 1 });
      const beforePost = sandbox.calls.length;
      await expect(client.tls.revoke('cert-revoked')).rejects.toBeInstanceOf(UpstreamFailedError);
      expect(sandbox.calls.length - beforePost).toBe(1);
      expect(sleeps.length).toBeGreaterThan(0);
    });

    it('names the offending field of a malformed answer', async () => {
      sandbox.faults.inject('domains.get', { malformed: true, times: 1 });
      const error = await client.domains.get('example.com').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(MalformedResponseError);
      expect((error as MalformedResponseError).field).toBe('response.domain');
    });

    it('times out a hanging registrar with a typed error', async () => {
      sandbox.faults.inject('org.get', { delayMs: 3_000, times: 3 });
      const fast = createRegistrarClient({
        baseUrl: sandbox.url,
        apiKey: CANARY_KEY,
        timeoutMs: 200,
        maxRetries: 0,
      });
      const started = Date.now();
      await expect(fast.organizations.get('org-acme')).rejects.toBeInstanceOf(TimeoutError);
      expect(Date.now() - started).toBeLessThan(1_500);
      sandbox.faults.clear();
    });

    it('never lets the API key reach a log line, an error or request info', async () => {
      sandbox.faults.inject('domains.get', { status: 500, times: 1 });
      const error = await client.domains.get('example.com').catch((e: unknown) => e);
      const exposed = [
        logs.join('\n'),
        JSON.stringify(requests),
        JSON.stringify(error),
        String((error as Error).message),
        String((error as Error).stack),
      ].join('\n');
      expect(logs.length).toBeGreaterThan(0);
      expect(exposed).not.toContain(CANARY_KEY);
    });
  });
});
