import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { CertSpotter } from '../../src/ct/certspotter.js';
import { ctLook } from '../../src/features/watches/ct-look.js';
import type { WatchItem } from '../../src/features/watches/store.js';
import type { RegistrarClient, TlsCertificate } from '../../src/registrar/index.js';
import type { LeafIdentity } from '../../src/served/leaf.js';
import { parsePorts } from '../../src/served/probe.js';
import { makeCertificate } from './certificates.js';

const now = 1_800_000_000_000;
const zone: WatchItem = { kind: 'domain', id: 'example.com', channel: 'C1', addedBy: 'U1', addedAt: now };
const ours = makeCertificate({
  names: ['www.example.com'],
  notBefore: new Date(now - 86_400_000),
  notAfter: new Date(now + 40 * 86_400_000),
});
const der = Buffer.from(ours.pem.replace(/-----[A-Z ]+-----|\s/g, ''), 'base64').toString('base64');

/** One page of one issuance for `www.example.com` with the test certificate's DER (serial inside), then none. */
function answering(pubkey: string): typeof fetch {
  return (async (input: string | URL | Request) => {
    const after = new URL(String(input)).searchParams.get('after');
    const body =
      after === null
        ? [
            {
              id: '1',
              tbs_sha256: 'ab'.repeat(32),
              pubkey_sha256: pubkey,
              dns_names: ['www.example.com'],
              cert: { type: 'precert', data: der },
            },
          ]
        : [];
    return new Response(JSON.stringify(body), {
      status: 200,
      headers: { 'content-type': 'application/json' },
    });
  }) as typeof fetch;
}

function deps(pubkey: string, identity: LeafIdentity | undefined) {
  return {
    certSpotter: new CertSpotter({
      baseUrl: 'http://ct.invalid/v1',
      fetch: answering(pubkey),
      now: () => now,
    }),
    identities: { of: async () => identity, last: async () => undefined },
    knownIssuances: { has: async () => false },
    now: () => now,
  };
}

const listing = (certificates: Partial<TlsCertificate>[]) => ({
  registrar: {
    tls: {
      list: async () =>
        certificates.map((c) => ({
          id: 'c',
          status: 'issued',
          common_name: 'www.example.com',
          dns_names: [],
          ...c,
        })),
      download: async () => ({ format: 'pem' as const, text: ours.pem }),
    },
  } as unknown as RegistrarClient,
  workspace: { teamId: 'T1' },
  paced: <T>(call: () => Promise<T>) => call(),
});

describe('Certificate Transparency verdicts (features/watches/ct-look.ts)', () => {
  const identity: LeafIdentity = {
    spkiSha256: 'ff'.repeat(32),
    serial: ours.serialHex,
    notBefore: 0,
    notAfter: 0,
    issuer: '',
  };

  it('matches by serial when the key does not: the issuance is the account’s', async () => {
    const look = await ctLook(deps('00'.repeat(32), identity), listing([{}]), zone, { failures: 0 });
    expect(look.alerts).toEqual([]);
    expect(look.ct).toMatchObject({ status: 'clear', cursor: '1' });
  });

  it('holds the cursor while an order for the same names is still pending: could not check, not clear', async () => {
    const look = await ctLook(deps('00'.repeat(32), identity), listing([{ status: 'pending' }]), zone, {
      failures: 0,
      ct: { status: 'clear', failures: 0 },
    });
    expect(look.alerts).toEqual([]);
    expect(look.ct).toMatchObject({ status: 'unchecked', failures: 1 });
    expect(look.ct?.cursor).toBeUndefined();
  });

  it('a registrar that does not list certificates leaves the verdict open', async () => {
    const source = {
      ...listing([]),
      registrar: { tls: { list: async () => undefined } } as unknown as RegistrarClient,
    };
    const look = await ctLook(deps('00'.repeat(32), identity), source, zone, { failures: 2 } as never);
    expect(look.ct).toMatchObject({ status: 'unchecked' });
  });

  it('an issuance no listed certificate matches is foreign, alerted with its issuance for Mark as known', async () => {
    const look = await ctLook(deps('00'.repeat(32), { ...identity, serial: '01' }), listing([{}]), zone, {
      failures: 0,
    });
    expect(look.alerts).toHaveLength(1);
    expect(look.alerts[0]).toMatchObject({
      buttons: ['known'],
      issuance: 'ab'.repeat(32),
      cause: { kind: 'ct-foreign' },
    });
  });
});

describe('a zone’s first search (its whole unexpired history)', () => {
  it('says at most 10 foreign issuances a look, and goes on after the last one said', async () => {
    const page = Array.from({ length: 12 }, (_, i) => ({
      id: String(i + 1),
      tbs_sha256: String(i).padStart(64, 'c'),
      pubkey_sha256: '00'.repeat(32),
      dns_names: ['www.example.com'],
    }));
    const certSpotter = new CertSpotter({
      baseUrl: 'http://ct.invalid/v1',
      now: () => now,
      fetch: (async (input: string | URL | Request) =>
        new Response(JSON.stringify(new URL(String(input)).searchParams.get('after') === null ? page : []), {
          status: 200,
        })) as typeof fetch,
    });
    const none = { of: async () => undefined, last: async () => undefined };
    const look = await ctLook(
      { certSpotter, identities: none, knownIssuances: { has: async () => false }, now: () => now },
      listing([{ common_name: 'mail.example.com' }]),
      zone,
      { failures: 0 },
    );
    expect(look.alerts).toHaveLength(10);
    expect(look.ct).toMatchObject({ status: 'found', cursor: '10' });
    // Each is posted by the outbox however long Slack fails: the cursor moves past it (sweep.ts).
    expect(look.alerts.every((alert) => alert.once === true)).toBe(true);
    expect(look.ct?.unknown).toHaveLength(10);
  });
});

describe('the unknown issuances a zone keeps for the list', () => {
  it('drops one marked as known since, and one that expired; keeps them when the search fails', async () => {
    const marked = 'b'.repeat(64);
    const ct = {
      status: 'found' as const,
      failures: 0,
      cursor: '1',
      unknown: [
        { tbs: 'a'.repeat(64), until: now + 86_400_000 },
        { tbs: marked },
        { tbs: 'c'.repeat(64), until: now - 1 },
      ],
    };
    const answering = (status: number) =>
      new CertSpotter({
        baseUrl: 'http://ct.invalid/v1',
        now: () => now,
        fetch: (async () => new Response('[]', { status })) as unknown as typeof fetch,
      });
    const lookWith = (status: number) =>
      ctLook(
        {
          certSpotter: answering(status),
          identities: { of: async () => undefined, last: async () => undefined },
          knownIssuances: { has: async (_ws, tbs) => tbs === marked },
          now: () => now,
        },
        listing([]),
        zone,
        { failures: 0, ct },
      );
    expect((await lookWith(200)).ct).toMatchObject({ status: 'clear', unknown: [{ tbs: 'a'.repeat(64) }] });
    expect((await lookWith(500)).ct).toMatchObject({
      status: 'unchecked',
      unknown: [{ tbs: 'a'.repeat(64) }],
    });
  });
});

describe('TLS_CHECK_PORTS and CT_API_URL (config)', () => {
  it('reads ports, names what is wrong, and keeps CT off with the sandbox unless set', () => {
    expect(parsePorts('443, 8443')).toEqual({ ports: [443, 8443] });
    expect(parsePorts('0')).toHaveProperty('problem');
    expect(parsePorts('1,2,3,4,5')).toHaveProperty('problem');
    const sandboxed = loadConfig({ REGFISH_SANDBOX: '1' });
    expect(sandboxed.watch.tlsCheckPorts).toEqual([443]);
    expect(sandboxed.watch.ct).toBeUndefined();
    expect(loadConfig({ REGFISH_SANDBOX: '1', CT_API_URL: 'http://127.0.0.1:1/v1' }).watch.ct).toEqual({
      url: 'http://127.0.0.1:1/v1',
    });
    expect(() => loadConfig({ REGFISH_SANDBOX: '1', TLS_CHECK_PORTS: 'https' })).toThrow(/TLS_CHECK_PORTS/);
  });
});
