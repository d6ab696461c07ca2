import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CertificateOrders, OrderForm } from '../../src/features/tls/order-service.js';
import { RenewalLedger } from '../../src/features/tls/renewals.js';
import { workspaceId } from '../../src/shared/workspace.js';
import { fixtureCsr, startWorld, WORKSPACE, type World } from './world.js';

const CSR = fixtureCsr('rsa-2048'); // www.example.com + example.com

const order = (renewalOf = '') =>
  OrderForm.parse({
    sku: 'RapidSSL',
    commonName: 'WWW.Example.com.',
    sans: 'example.com',
    csr: CSR,
    dcv: 'dns-cname-token',
    emails: '',
    orgId: '',
    validity: '',
    renewalOf,
  });

describe('the renewal ledger (certificate orders Regdesk placed; real Redis, sandbox)', () => {
  let world: World;
  beforeAll(async () => {
    world = await startWorld();
  });
  afterAll(async () => {
    await world.close();
  });

  it('a placed order is recorded under its common name and its domain with its id, order date, what it renews and its validation records', async () => {
    const deps = world.deps();
    const ledger = new RenewalLedger(deps.redis, deps.keys);
    const outcome = await new CertificateOrders(deps).place(WORKSPACE, order('cert-issued-old'));
    if (outcome.kind !== 'placed') throw new Error(`not placed: ${outcome.kind}`);
    const placed = world.sandbox.state.certificates.get(outcome.certificate.id);
    const recorded = await ledger.ordersFor(WORKSPACE, 'www.example.com');
    expect(recorded).toEqual([
      {
        id: outcome.certificate.id,
        commonName: 'www.example.com',
        renewalOf: 'cert-issued-old',
        // The registrar's order date (seconds on the wire), so it compares with the watched certificate's.
        placedAt: Math.floor((placed?.orderedAt ?? 0) / 1000) * 1000,
        // Shown by the registrar only in the order's answer: kept for `/dns check`.
        validation: outcome.certificate.validation?.dns_records.map(({ name, type, value }) => ({
          name,
          type,
          value,
        })),
      },
    ]);
    expect(recorded[0]?.validation?.length).toBeGreaterThan(0);
    // `/dns check example.com` finds it by the registrable domain.
    expect(await ledger.ordersUnder(WORKSPACE, 'example.com')).toEqual(recorded);
    expect(await ledger.ordersUnder(WORKSPACE, 'example.org')).toEqual([]);
    // Names are matched case- and trailing-dot-insensitively; other names and workspaces see nothing.
    expect(await ledger.ordersFor(WORKSPACE, 'WWW.EXAMPLE.COM.')).toHaveLength(1);
    expect(await ledger.ordersFor(WORKSPACE, 'api.example.com')).toEqual([]);
    expect(await ledger.ordersFor({ teamId: 'T0OTHER' }, 'www.example.com')).toEqual([]);
  });

  it('a refused order records nothing; a duplicate held back as pending records nothing more', async () => {
    const deps = world.deps();
    const ledger = new RenewalLedger(deps.redis, deps.keys);
    const orders = new CertificateOrders(deps);
    await expect(orders.place(WORKSPACE, { ...order(), sku: 'NoSuchProduct' })).rejects.toThrow();
    expect(await ledger.ordersFor(WORKSPACE, 'www.example.com')).toEqual([]);
    const first = await orders.place(WORKSPACE, order());
    const second = await orders.place(WORKSPACE, order());
    expect(first.kind).toBe('placed');
    expect(second.kind).toBe('already-pending');
    expect(await ledger.ordersFor(WORKSPACE, 'www.example.com')).toHaveLength(1);
  });

  it('keeps the newest ten per name, newest first, and expires with the name', async () => {
    const deps = world.deps();
    const ledger = new RenewalLedger(deps.redis, deps.keys);
    for (let i = 0; i < 12; i++)
      await ledger.record(WORKSPACE, { id: `o${i}`, commonName: 'a.example.com', placedAt: 1_000 + i });
    const kept = await ledger.ordersFor(WORKSPACE, 'a.example.com');
    expect(kept.map((o) => o.id)).toEqual(['o11', 'o10', 'o9', 'o8', 'o7', 'o6', 'o5', 'o4', 'o3', 'o2']);
    const key = deps.keys.key(`ws:${workspaceId(WORKSPACE)}`, 'tls', 'orders', 'a.example.com');
    expect(await deps.redis.ttl(key)).toBeGreaterThan(300 * 86_400);
  });
});
