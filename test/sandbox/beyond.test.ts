import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BadRequestError,
  ConflictError,
  createRegistrarClient,
  DuplicateRecordError,
  ForbiddenError,
  NotFoundError,
  NotOfferedError,
  type RegistrarClient,
} from '../../src/registrar/index.js';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { createLogger } from '../../src/shared/logger.js';
import { text } from '../../src/text/index.js';
import { cassettes } from '../helpers/cassettes.js';
import { sandboxClient } from '../helpers/registrar.js';

const CSR = '-----BEGIN CERTIFICATE REQUEST-----\nMIIB\n-----END CERTIFICATE REQUEST-----';
const READ_ONLY_KEY = 'sbx_read_only_key';

describe('the sandbox beyond v1.6.2, driven through the real client', () => {
  let sandbox: Sandbox;
  let client: RegistrarClient;
  let now = Date.UTC(2026, 10, 22, 12);

  beforeAll(async () => {
    sandbox = await createSandbox({ clock: { now: () => now }, delays: { certificateIssueMs: 60_000 } });
    client = sandboxClient(sandbox);
  });
  afterAll(async () => {
    await sandbox.close();
  });

  const zone = (domain: string) => sandbox.state.domains.get(domain)?.records ?? [];
  const writes = (operation: string) => sandbox.calls.filter((call) => call.operation === operation).length;
  /** Straight to the sandbox, past the client's own checks: what the simulator itself refuses. */
  const raw = async (method: string, path: string, body?: unknown, key = sandbox.apiKey) => {
    const res = await fetch(`${sandbox.url}${path}`, {
      method,
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  describe('DNS records', () => {
    it('creates a record with its annotation; the list, the zone counts and the single read show it', async () => {
      const before = (await client.dns.zone('example.com')).counts?.by_type.CNAME ?? 0;
      const created = await client.dns.createRecord({
        type: 'CNAME',
        name: '_abc.WWW.example.com',
        data: 'token.dcv.digicert.example',
        ttl: 60,
        annotation: 'managed by regdesk; certificate_id=cert-1',
      });
      expect(created).toEqual({
        id: expect.any(Number),
        name: '_abc.www.example.com.',
        type: 'CNAME',
        data: 'token.dcv.digicert.example.',
        ttl: 60,
        auto: false,
        active: true,
        annotation: 'managed by regdesk; certificate_id=cert-1',
      });
      const listed = (await client.dns.records('example.com')).find((r) => r.id === created.id);
      expect(listed).toMatchObject({ annotation: 'managed by regdesk; certificate_id=cert-1', ttl: 60 });
      expect(listed?.ts_created).toBe(Math.floor(now / 1000) * 1000);
      const detail = await client.dns.zone('example.com');
      expect(detail.counts?.by_type.CNAME).toBe(before + 1);
      expect(detail.records.some((r) => r.id === created.id)).toBe(true);
      expect(await client.dns.getRecord(String(created.id))).toMatchObject({
        ...created,
        ts_created: Math.floor(now / 1000) * 1000,
        ts_updated: Math.floor(now / 1000) * 1000,
      });
    });

    it('refuses an exact duplicate with the recorded 417 and adds nothing; other data makes a record set', async () => {
      const request = { type: 'TXT', name: '_acme-challenge.example.com.', data: 'token-1' } as const;
      const first = await client.dns.createRecord(request);
      const count = zone('example.com').length;
      const error = await client.dns.createRecord(request).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(DuplicateRecordError);
      expect((error as DuplicateRecordError).upstreamMessage).toBe(
        'Record already exists (please use the UI to manage RR load balancers)',
      );
      expect(zone('example.com')).toHaveLength(count);
      expect(await raw('POST', '/dns/rr', request)).toEqual({
        status: 417,
        body: {
          success: false,
          error: 'Record already exists (please use the UI to manage RR load balancers)',
          code: 15003,
        },
      });

      const second = await client.dns.createRecord({ ...request, data: 'token-2' });
      expect(second.id).not.toBe(first.id);
      const set = (await client.dns.records('example.com')).filter((r) => r.name === request.name);
      expect(set.map((r) => r.data)).toEqual(['token-1', 'token-2']);
      expect(first.ttl).toBe(3600);
    });

    it('changes a record by id: new data, the annotation kept, ts_updated moved; duplicates and other zones refused', async () => {
      const created = await client.dns.createRecord({
        type: 'A',
        name: 'patch.example.com.',
        data: '192.0.2.1',
        annotation: 'mine',
      });
      now += 5_000;
      const patched = await client.dns.updateRecord(created.id ?? 0, {
        type: 'A',
        name: 'patch.example.com.',
        data: '192.0.2.2',
        ttl: 300,
      });
      expect(patched).toMatchObject({ id: created.id, data: '192.0.2.2', ttl: 300, annotation: 'mine' });
      expect((patched.ts_updated ?? 0) - (patched.ts_created ?? 0)).toBe(5_000);
      expect(zone('example.com').filter((r) => r.name === 'patch.example.com.')).toHaveLength(1);

      const other = await client.dns.createRecord({
        type: 'A',
        name: 'patch.example.com.',
        data: '192.0.2.3',
      });
      await expect(
        client.dns.updateRecord(other.id ?? 0, { type: 'A', name: 'patch.example.com.', data: '192.0.2.2' }),
      ).rejects.toBeInstanceOf(DuplicateRecordError);
      await expect(
        client.dns.updateRecord(other.id ?? 0, {
          type: 'A',
          name: 'patch.regdesk-demo.de.',
          data: '192.0.2.9',
        }),
      ).rejects.toBeInstanceOf(BadRequestError);
      expect(zone('example.com').find((r) => r.id === other.id)?.data).toBe('192.0.2.3');
      await expect(
        client.dns.updateRecord(99_999_999, { type: 'A', name: 'patch.example.com.', data: '192.0.2.2' }),
      ).rejects.toBeInstanceOf(NotFoundError);
    });

    it('deletes by id with the recorded answer; a second delete of the same record is fine', async () => {
      const created = await client.dns.createRecord({ type: 'TXT', name: 'gone.example.com.', data: 'x' });
      await client.dns.deleteRecord(created.id ?? 0);
      expect(zone('example.com').some((r) => r.id === created.id)).toBe(false);
      await expect(client.dns.deleteRecord(String(created.id))).resolves.toBeUndefined();
      const deletes = sandbox.calls.filter((call) => call.operation === 'dns.recordDelete');
      expect(deletes.slice(-2).map((call) => call.status)).toEqual([200, 404]);

      const again = await client.dns.createRecord({ type: 'TXT', name: 'gone.example.com.', data: 'x' });
      expect(await raw('DELETE', `/dns/rr/${again.id}`)).toEqual({
        status: 200,
        body: { success: true, error: 'Record successfully deleted', code: 0 },
      });
    });

    it('refuses to change or delete the registrar’s own (auto) records with 409', async () => {
      const ns = zone('example.com').find((r) => r.auto);
      expect(ns).toBeDefined();
      const id = ns?.id ?? 0;
      await expect(
        client.dns.updateRecord(id, { type: 'NS', name: 'example.com.', data: 'ns9.example.net.' }),
      ).rejects.toBeInstanceOf(ConflictError);
      await expect(client.dns.deleteRecord(id)).rejects.toBeInstanceOf(ConflictError);
      expect(zone('example.com').find((r) => r.id === id)).toEqual(ns);
    });

    it('refuses a TTL out of bounds and bad data per type with 400, writing nothing', async () => {
      const count = zone('example.com').length;
      // The client refuses TTLs out of bounds before asking …
      const creates = writes('dns.recordCreate');
      for (const ttl of [59, 604_801]) {
        await expect(
          client.dns.createRecord({ type: 'A', name: 'bad.example.com.', data: '192.0.2.1', ttl }),
        ).rejects.toBeInstanceOf(BadRequestError);
      }
      expect(writes('dns.recordCreate')).toBe(creates);
      // … and the sandbox refuses them, and data it cannot be, on its own.
      const bad = [
        { type: 'A', name: 'bad.example.com.', data: '192.0.2.1', ttl: 59 },
        { type: 'A', name: 'bad.example.com.', data: '192.0.2.1', ttl: 604_801 },
        { type: 'A', name: 'bad.example.com.', data: '192.0.2.1', ttl: 'long' },
        { type: 'A', name: 'bad.example.com.', data: '999.0.2.1' },
        { type: 'AAAA', name: 'bad.example.com.', data: '192.0.2.1' },
        { type: 'CNAME', name: 'bad.example.com.', data: 'not a host' },
        { type: 'NS', name: 'bad.example.com.', data: 'ns..example.net' },
        { type: 'MX', name: 'bad.example.com.', data: 'mail.example.com.' },
        { type: 'TXT', name: 'bad.example.com.', data: 'x', priority: 10 },
        { type: 'SRV', name: '_sip._tcp.example.com.', data: 'sip.example.com.', priority: 10 },
        { type: 'CAA', name: 'bad.example.com.', data: 'issue digicert.com' },
        { type: 'CAA', name: 'bad.example.com.', data: '256 issue "digicert.com"' },
        { type: 'PTR', name: 'bad.example.com.', data: 'x.example.com.' },
        { type: 'TXT', name: 'bad..example.com.', data: 'x' },
        { type: 'TXT', name: 'bad.example.com.', data: '' },
      ];
      for (const body of bad) {
        expect((await raw('POST', '/dns/rr', body)).status, JSON.stringify(body)).toBe(400);
      }
      // Data the client cannot judge reaches the sandbox, and comes back as BadRequestError.
      await expect(
        client.dns.createRecord({ type: 'A', name: 'bad.example.com.', data: '999.0.2.1' }),
      ).rejects.toBeInstanceOf(BadRequestError);
      expect(zone('example.com')).toHaveLength(count);

      const good = [
        { type: 'MX', name: 'example.com.', data: 'mx2.example.com', priority: 20 },
        { type: 'SRV', name: '_sip._tcp.example.com.', data: '5 5060 sip.example.com.', priority: 10 },
        { type: 'CAA', name: 'example.com.', data: '0 issuewild "digicert.com"' },
        { type: 'AAAA', name: 'v6.example.com.', data: '2001:DB8::1' },
        { type: 'ALIAS', name: 'alias.example.com.', data: 'target.example.net.' },
      ] as const;
      for (const request of good) await client.dns.createRecord(request);
      expect(zone('example.com').slice(-5)).toMatchObject([
        { type: 'MX', data: 'mx2.example.com.', priority: 20 },
        { type: 'SRV', data: '5 5060 sip.example.com.', priority: 10 },
        { type: 'CAA', data: '0 issuewild "digicert.com"' },
        { type: 'AAAA', data: '2001:db8::1' },
        { type: 'ALIAS', data: 'target.example.net.' },
      ]);
    });

    it('finds the zone by the longest account domain; a name outside every zone is 404, nothing written', async () => {
      sandbox.state.addDomain('sub.example.com', now);
      const created = await client.dns.createRecord({ type: 'TXT', name: 'x.sub.example.com.', data: 'y' });
      expect(zone('sub.example.com').some((r) => r.id === created.id)).toBe(true);
      expect(zone('example.com').some((r) => r.id === created.id)).toBe(false);
      sandbox.state.domains.delete('sub.example.com');

      const total = () => [...sandbox.state.domains.values()].reduce((n, d) => n + d.records.length, 0);
      const before = total();
      const error = await client.dns
        .createRecord({ type: 'TXT', name: '_x.not-in-this-account.de.', data: 'y' })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(NotFoundError);
      expect((error as NotFoundError).upstreamMessage).toBe('DNS zone not found');
      expect(total()).toBe(before);
    });

    it('a CNAME shares its name with no other record (409)', async () => {
      await expect(
        client.dns.createRecord({ type: 'A', name: 'www.example.com.', data: '192.0.2.1' }),
      ).rejects.toBeInstanceOf(ConflictError);
      await expect(
        client.dns.createRecord({ type: 'CNAME', name: 'www.example.com.', data: 'other.example.net.' }),
      ).rejects.toBeInstanceOf(ConflictError);
    });

    it('refuses every write with a read-only key (403, "may not change DNS records"), writing nothing', async () => {
      sandbox.addKey(READ_ONLY_KEY, ['domain:read', 'dns:read', 'tls:read']);
      const readOnly = createRegistrarClient({
        baseUrl: sandbox.url,
        apiKey: READ_ONLY_KEY,
        logger: createLogger({ level: 'silent' }),
        sleep: async () => undefined,
      });
      const target = zone('example.com').find((r) => !r.auto);
      const snapshot = structuredClone(zone('example.com'));
      for (const write of [
        () => readOnly.dns.createRecord({ type: 'TXT', name: 'ro.example.com.', data: 'x' }),
        () => readOnly.dns.updateRecord(target?.id ?? 0, { type: 'TXT', name: 'ro.example.com.', data: 'x' }),
        () => readOnly.dns.deleteRecord(target?.id ?? 0),
      ]) {
        const error = await write().catch((e: unknown) => e);
        expect(error).toBeInstanceOf(ForbiddenError);
        expect((error as ForbiddenError).userMessage).toBe(text.slack.registrarDnsWriteDenied);
      }
      expect(zone('example.com')).toEqual(snapshot);
      // Reading stays allowed.
      expect((await readOnly.dns.records('example.com')).length).toBe(snapshot.length);
    });
  });

  describe('listings and order completion', () => {
    it('lists the account’s domains as zones, and its certificates', async () => {
      const zones = await client.dns.zones();
      expect(zones?.map((z) => z.domain).sort()).toEqual([...sandbox.state.domains.keys()].sort());
      expect(zones?.find((z) => z.domain === 'example.com')).toEqual({
        domain: 'example.com',
        active: true,
        delegation_nameservers: [{ host: 'ns1.example.com.' }, { host: 'ns2.example.com.' }],
      });
      const certificates = await client.tls.list();
      expect(certificates?.map((c) => c.id).sort()).toEqual([...sandbox.state.certificates.keys()].sort());
      expect(certificates?.find((c) => c.id === 'cert-issued-recent')).toMatchObject({
        status: 'issued',
        common_name: 'www.example.com',
      });
      expect((await client.tls.products())?.map((p) => p.sku)).toHaveLength(7);
    });

    it('completes a staged OV order: its validation records appear, issuance follows; anything else is 409', async () => {
      const staged = await client.tls.order({
        sku: 'SecureSite',
        common_name: 'ov.example.com',
        csr: CSR,
        dcv_method: 'dns-cname-token',
      });
      expect(staged).toMatchObject({ action_required: true, status: 'pending' });
      expect(staged.validation?.dns_records).toEqual([]);

      await expect(client.tls.complete(staged.id, 'org-unknown')).rejects.toBeInstanceOf(ConflictError);
      const completed = await client.tls.complete(staged.id, 'org-acme');
      expect(completed).toMatchObject({
        action_required: false,
        organization_id: 'org-acme',
        status: 'pending',
      });
      expect(completed.validation?.dns_records).toEqual([
        {
          name: expect.stringMatching(/^_[0-9a-f]{16}\.ov\.example\.com\.$/),
          type: 'CNAME',
          value: expect.any(String),
        },
      ]);
      await expect(client.tls.complete(staged.id, 'org-acme')).rejects.toBeInstanceOf(ConflictError);
      await expect(client.tls.complete('cert-issued-recent', 'org-acme')).rejects.toBeInstanceOf(
        ConflictError,
      );
      await expect(client.tls.complete('cert-nope', 'org-acme')).rejects.toBeInstanceOf(NotFoundError);

      now += 61_000;
      expect((await client.tls.get(staged.id)).status).toBe('issued');
    });
  });

  describe('capability probe through injected faults', () => {
    it('a 405 on a write is NotOfferedError with nothing written; on a listing the answer is undefined', async () => {
      const count = zone('example.com').length;
      sandbox.faults.inject('dns.recordCreate', { status: 405, times: 1 });
      const error = await client.dns
        .createRecord({ type: 'TXT', name: 'probe.example.com.', data: 'x' })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(NotOfferedError);
      expect((error as NotOfferedError).userMessage).toBe(text.slack.registrarNotOffered);
      expect(zone('example.com')).toHaveLength(count);

      sandbox.faults.inject('tls.complete', { status: 405, times: 1 });
      await expect(client.tls.complete('cert-pending', 'org-acme')).rejects.toBeInstanceOf(NotOfferedError);
      sandbox.faults.inject('dns.zones', { status: 405, times: 1 });
      await expect(client.dns.zones()).resolves.toBeUndefined();
      sandbox.faults.inject('tls.list', { status: 404, times: 1 });
      await expect(client.tls.list()).resolves.toBeUndefined();
      // Once the faults are spent, the endpoints answer again.
      expect(await client.dns.zones()).toBeDefined();
    });
  });
});

describe('the sandbox answers the recorded requests as the real registrar did (lexicon cassettes, 2024-11)', () => {
  // The cassettes were recorded in file-name order against one zone: their record ids climb in that order.
  const recorded = cassettes();
  let sandbox: Sandbox;

  beforeAll(async () => {
    sandbox = await createSandbox();
    // The recorded zone, empty at the first recording.
    sandbox.state.addDomain('regfish-dev.de', Date.now()).records = [];
  });
  afterAll(async () => {
    await sandbox.close();
  });

  it('replays every recorded exchange in order: same status, same body but for the ids', async () => {
    const toSandbox = new Map<number, number>();
    const toRecorded = new Map<number, number>();
    /** A sandbox record with the recorded id, and without the timestamps the recordings lack. */
    const asRecorded = (record: Record<string, unknown>) => {
      const { ts_created: _created, ts_updated: _updated, ...rest } = record;
      return { ...rest, id: toRecorded.get(Number(rest.id)) ?? rest.id };
    };
    let replayed = 0;
    for (const { file, interactions } of recorded) {
      for (const { request, response } of interactions) {
        const recordedId = Number(/\/dns\/rr\/(\d+)$/.exec(request.uri)?.[1]);
        const path = new URL(request.uri).pathname.replace(
          /\/dns\/rr\/\d+$/,
          `/dns/rr/${toSandbox.get(recordedId)}`,
        );
        const res = await fetch(`${sandbox.url}${path}`, {
          method: request.method,
          headers: { 'x-api-key': sandbox.apiKey, 'content-type': 'application/json' },
          ...(request.body === null ? {} : { body: request.body }),
        });
        const got = (await res.json()) as { response?: unknown };
        const want = JSON.parse(response.body.string) as { response?: unknown };
        const where = `${file}: ${request.method} ${request.uri}`;
        expect(res.status, where).toBe(response.status.code);

        if (request.method === 'POST' && response.status.code === 200) {
          const created = got.response as { id: number };
          const recorded = want.response as { id: number };
          toSandbox.set(recorded.id, created.id);
          toRecorded.set(created.id, recorded.id);
          // The create answer has exactly the recorded fields (no timestamps).
          expect({ ...got, response: { ...created, id: recorded.id } }, where).toEqual(want);
        } else if (request.method === 'PATCH') {
          // The update answer adds ts_created/ts_updated (spec addendum §1 #4) to the recorded fields.
          expect(Object.keys(got.response as object).sort(), where).toEqual(
            [...Object.keys(want.response as object), 'ts_created', 'ts_updated'].sort(),
          );
          expect({ ...got, response: asRecorded(got.response as Record<string, unknown>) }, where).toEqual(
            want,
          );
        } else if (Array.isArray(got.response)) {
          const listed = got.response as Record<string, unknown>[];
          expect({ ...got, response: listed.map(asRecorded) }, where).toEqual(want);
        } else {
          // The 417 duplicate, the delete answer, the unknown zone's 200 with code 15001: byte for byte.
          expect(got, where).toEqual(want);
        }
        replayed++;
      }
    }
    expect(replayed).toBe(recorded.reduce((n, c) => n + c.interactions.length, 0));
    expect(replayed).toBeGreaterThan(80);
  });
});
