import { describe, expect, it } from 'vitest';
import {
  BadRequestError,
  ConflictError,
  createRegistrarClient,
  DuplicateRecordError,
  ForbiddenError,
  InternalUpstreamError,
  NotOfferedError,
  RecordSetInvalidError,
  UnauthorizedError,
} from '../../src/registrar/index.js';
import { text } from '../../src/text/index.js';
import { type Interaction, recordedInteractions } from '../helpers/cassettes.js';

const interactions = recordedInteractions();

interface Sent {
  method: string;
  url: string;
  body: unknown;
}

/** Answers every call with one recorded (or made-up) answer and keeps what the client sent. */
function fake(status: number, body: string, headers: Record<string, string> = {}) {
  const sent: Sent[] = [];
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const raw = typeof init?.body === 'string' ? init.body : undefined;
    sent.push({
      method: init?.method ?? 'GET',
      url: String(input),
      body: raw === undefined ? undefined : JSON.parse(raw),
    });
    return new Response(body, { status, headers: { 'content-type': 'application/json', ...headers } });
  };
  const client = createRegistrarClient({
    baseUrl: 'https://api.regfish.de',
    apiKey: 'k',
    fetch,
    sleep: async () => undefined,
  });
  return { client, sent };
}

const replay = (interaction: Interaction) =>
  fake(
    interaction.response.status.code,
    interaction.response.body.string,
    Object.fromEntries(Object.entries(interaction.response.headers).map(([k, v]) => [k, v[0] ?? ''])),
  );

const json = (value: unknown) => JSON.stringify(value);
const isListing = (i: Interaction) => i.request.method === 'GET' && /\/dns\/[^/]+\/rr$/.test(i.request.uri);
const recordId = (i: Interaction) => /\/dns\/rr\/(\d+)$/.exec(i.request.uri)?.[1] ?? '';

describe('the record writes beyond v1.6.2, replayed from the recorded exchanges (lexicon cassettes, 2024-11)', () => {
  const creates = interactions.filter(
    (i) => i.request.method === 'POST' && i.request.uri.endsWith('/dns/rr'),
  );
  const patches = interactions.filter((i) => i.request.method === 'PATCH');
  const deletes = interactions.filter((i) => i.request.method === 'DELETE');

  it('covers every recorded exchange: listings in cassettes.unit.test.ts, the rest here', () => {
    expect(creates.length).toBe(27);
    expect(patches.length).toBe(4);
    expect(deletes.length).toBe(7);
    // No single-record GET is recorded; every interaction is a listing or one of the writes above.
    expect(interactions.filter((i) => !isListing(i)).length).toBe(
      creates.length + patches.length + deletes.length,
    );
  });

  it('creates: sends the recorded request and parses the recorded record, or maps the 417 duplicate', async () => {
    let created = 0;
    for (const interaction of creates) {
      const request = JSON.parse(interaction.request.body ?? '{}');
      const { client, sent } = replay(interaction);
      const outcome = await client.dns.createRecord(request).catch((error: unknown) => error);
      expect(sent).toEqual([{ method: 'POST', url: 'https://api.regfish.de/dns/rr', body: request }]);
      const answer = JSON.parse(interaction.response.body.string);
      if (interaction.response.status.code === 200) {
        expect(outcome).toEqual(answer.response);
        created++;
      } else {
        expect(interaction.response.status.code).toBe(417);
        expect(outcome).toBeInstanceOf(DuplicateRecordError);
        // Still the class the duplicate mapped to before it had its own (cassettes.unit.test.ts).
        expect(outcome).toBeInstanceOf(RecordSetInvalidError);
        const error = outcome as DuplicateRecordError;
        expect(error.status).toBe(417);
        expect(error.code).toBe('regdesk_registrar_duplicate_record');
        expect(error.upstreamMessage).toBe(answer.error);
        expect(error.userMessage).toBe(text.slack.registrarDuplicateRecord({ upstream: answer.error }));
      }
    }
    expect(created).toBe(26);
  });

  it('patches by id: sends the recorded request and parses the recorded record', async () => {
    for (const interaction of patches) {
      const request = JSON.parse(interaction.request.body ?? '{}');
      const { client, sent } = replay(interaction);
      // Ids as numbers and as numeric strings alike.
      const record = await client.dns.updateRecord(Number(recordId(interaction)), request);
      expect(sent).toEqual([{ method: 'PATCH', url: interaction.request.uri, body: request }]);
      expect(record).toEqual(JSON.parse(interaction.response.body.string).response);
      expect(record.id).toBe(Number(recordId(interaction)));
    }
  });

  it('deletes by id: the recorded success answer (its text in `error`, success:true) resolves', async () => {
    for (const interaction of deletes) {
      expect(json(JSON.parse(interaction.response.body.string))).toBe(
        json({ success: true, error: 'Record successfully deleted', code: 0 }),
      );
      const { client, sent } = replay(interaction);
      await expect(client.dns.deleteRecord(recordId(interaction))).resolves.toBeUndefined();
      expect(sent).toEqual([{ method: 'DELETE', url: interaction.request.uri, body: undefined }]);
    }
  });

  it('reads one record by id (not recorded: answered with a recorded record and the timestamps of §2)', async () => {
    const recorded = JSON.parse(creates[0]?.response.body.string ?? '{}').response;
    const { client, sent } = fake(
      200,
      json({
        success: true,
        code: 0,
        response: { ...recorded, ts_created: 1730814380, ts_updated: 1730814380 },
      }),
    );
    const record = await client.dns.getRecord(` ${recorded.id} `);
    expect(sent[0]?.url).toBe(`https://api.regfish.de/dns/rr/${recorded.id}`);
    expect(record).toMatchObject({ ...recorded, ts_created: 1730814380_000 });
  });
});

describe('the record writes: the client’s own rules', () => {
  const ok = json({ success: true, code: 0, response: { id: 1, name: 'a.example.com.', type: 'A' } });

  it('refuses a bad request before sending anything: type, TTL bounds, empty data, a name that is no FQDN', async () => {
    const { client, sent } = fake(200, ok);
    const base = { type: 'A', name: 'a.example.com.', data: '192.0.2.1' } as const;
    for (const bad of [
      { ...base, ttl: 59 },
      { ...base, ttl: 604_801 },
      { ...base, ttl: 3600.5 },
      { ...base, data: ' ' },
      { ...base, name: 'example' },
      { ...base, name: 'a..example.com.' },
      { ...base, name: 'a/b.example.com' },
      { ...base, priority: 70_000 },
    ]) {
      await expect(client.dns.createRecord(bad)).rejects.toBeInstanceOf(BadRequestError);
    }
    await expect(client.dns.createRecord({ ...base, type: 'PTR' as unknown as 'A' })).rejects.toBeInstanceOf(
      BadRequestError,
    );
    expect(sent).toEqual([]);
  });

  it('sends the name fully qualified and lower-cased, IDN labels as punycode, TTL 60 and 604800 accepted', async () => {
    const { client, sent } = fake(200, ok);
    await client.dns.createRecord({ type: 'TXT', name: '_Token.Müller.de', data: 'x', ttl: 60 });
    await client.dns.createRecord({ type: 'A', name: '*.example.com', data: '192.0.2.1', ttl: 604_800 });
    expect(sent.map((s) => s.body)).toEqual([
      { type: 'TXT', name: '_token.xn--mller-kva.de.', data: 'x', ttl: 60 },
      { type: 'A', name: '*.example.com.', data: '192.0.2.1', ttl: 604_800 },
    ]);
  });

  it('takes record ids as positive integers or numeric strings only', async () => {
    const { client, sent } = fake(200, ok);
    for (const bad of [0, -1, 1.5, Number.NaN, '', 'abc', '12a', '../1', '1/2', '0x10']) {
      await expect(client.dns.getRecord(bad)).rejects.toBeInstanceOf(BadRequestError);
      await expect(client.dns.deleteRecord(bad)).rejects.toBeInstanceOf(BadRequestError);
    }
    expect(sent).toEqual([]);
    await client.dns.getRecord('3236253');
    await client.dns.getRecord(3236253);
    expect(sent.map((s) => s.url)).toEqual([
      'https://api.regfish.de/dns/rr/3236253',
      'https://api.regfish.de/dns/rr/3236253',
    ]);
  });

  it('a 417 without code 15003 stays RecordSetInvalidError (the DNSSEC meaning)', async () => {
    const { client } = fake(417, json({ success: false, error: 'DS set invalid for this TLD', code: 10417 }));
    const error = await client.dns
      .createRecord({ type: 'TXT', name: 'a.example.com.', data: 'x' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RecordSetInvalidError);
    expect(error).not.toBeInstanceOf(DuplicateRecordError);
    expect((error as RecordSetInvalidError).code).toBe('regdesk_registrar_record_set_invalid');
  });

  it('a 401 or 403 on a record write says the key may not change DNS records; elsewhere as before', async () => {
    const writes = [
      (c: ReturnType<typeof fake>['client']) =>
        c.dns.createRecord({ type: 'TXT', name: 'a.example.com.', data: 'x' }),
      (c: ReturnType<typeof fake>['client']) =>
        c.dns.updateRecord(1, { type: 'TXT', name: 'a.example.com.', data: 'x' }),
      (c: ReturnType<typeof fake>['client']) => c.dns.deleteRecord(1),
    ];
    for (const [status, type] of [
      [401, UnauthorizedError],
      [403, ForbiddenError],
    ] as const) {
      for (const write of writes) {
        const { client } = fake(status, json({ success: false, error: 'Forbidden' }));
        const error = await write(client).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(type);
        expect((error as ForbiddenError).code).toBe('regdesk_registrar_dns_write_denied');
        expect((error as ForbiddenError).userMessage).toContain(
          "this workspace's key may not change DNS records",
        );
      }
    }
    const { client } = fake(403, json({ success: false, error: 'Blocked by the domain guard' }));
    const guard = await client.domains.setNameservers('example.com', null).catch((e: unknown) => e);
    expect((guard as ForbiddenError).code).toBe('regdesk_registrar_guard_blocked');
    const unauthorized = await fake(401, json({ success: false, error: 'Unauthorized' }))
      .client.dns.records('example.com')
      .catch((e: unknown) => e);
    expect((unauthorized as UnauthorizedError).userMessage).toBe(text.slack.registrarUnauthorized);
  });

  it('a 405 on a write is NotOfferedError; on the listings (and a 404 there) the answer is undefined', async () => {
    const notAllowed = json({ success: false, error: 'Method Not Allowed' });
    const writes = fake(405, notAllowed);
    for (const call of [
      writes.client.dns.createRecord({ type: 'TXT', name: 'a.example.com.', data: 'x' }),
      writes.client.dns.updateRecord('7', { type: 'TXT', name: 'a.example.com.', data: 'x' }),
      writes.client.dns.deleteRecord(7),
      writes.client.tls.complete('cert-1', 'org-acme'),
    ]) {
      const error = await call.catch((e: unknown) => e);
      expect(error).toBeInstanceOf(NotOfferedError);
      expect((error as NotOfferedError).userMessage).toBe(text.slack.registrarNotOffered);
    }
    for (const status of [404, 405]) {
      const { client, sent } = fake(status, json({ success: false, error: 'Not found' }));
      await expect(client.dns.zones()).resolves.toBeUndefined();
      await expect(client.tls.list()).resolves.toBeUndefined();
      expect(sent.map((s) => `${s.method} ${s.url}`)).toEqual([
        'GET https://api.regfish.de/dns/zones',
        'GET https://api.regfish.de/tls/certificate',
      ]);
    }
    await expect(
      fake(500, json({ success: false, error: 'boom' })).client.dns.zones(),
    ).rejects.toBeInstanceOf(InternalUpstreamError);
  });

  it('a delete of a record already gone (404, or the 200 "not found" quirk) resolves; other failures do not', async () => {
    await expect(
      fake(404, json({ success: false, error: 'DNS record not found' })).client.dns.deleteRecord(5),
    ).resolves.toBeUndefined();
    await expect(
      fake(200, json({ success: false, error: 'Record not found', code: 15001 })).client.dns.deleteRecord(5),
    ).resolves.toBeUndefined();
    await expect(
      fake(409, json({ success: false, error: 'managed automatically' })).client.dns.deleteRecord(5),
    ).rejects.toBeInstanceOf(ConflictError);
  });

  it('never retries a write: one request after a 502', async () => {
    const { client, sent } = fake(502, json({ success: false, error: 'upstream' }));
    await expect(
      client.dns.createRecord({ type: 'TXT', name: 'a.example.com.', data: 'x' }),
    ).rejects.toThrow();
    await expect(client.dns.deleteRecord(1)).rejects.toThrow();
    expect(sent).toHaveLength(2);
  });

  it('lists zones tolerantly, and completes an order with the organization in the body', async () => {
    const zones = fake(
      200,
      json({ success: true, code: 0, response: [{ domain: 'example.com', active: true, extra: 1 }] }),
    );
    expect(await zones.client.dns.zones()).toEqual([
      { domain: 'example.com', active: true, extra: 1, delegation_nameservers: [] },
    ]);
    const complete = fake(
      200,
      json({
        success: true,
        code: 0,
        response: { id: 'cert-1', status: 'pending', common_name: 'a.example.com' },
      }),
    );
    await complete.client.tls.complete('cert-1', 'org-acme');
    expect(complete.sent).toEqual([
      {
        method: 'POST',
        url: 'https://api.regfish.de/tls/certificate/cert-1/complete',
        body: { org_id: 'org-acme' },
      },
    ]);
  });
});
