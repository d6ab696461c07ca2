import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CertificateOrders, OrderForm, type OrderFormInput } from '../../src/features/tls/order-service.js';
import type { TlsServiceDeps } from '../../src/features/tls/service.js';
import {
  ConflictError,
  type TlsCertificateOrderParams,
  UpstreamFailedError,
} from '../../src/registrar/index.js';
import { workspaceId } from '../../src/shared/workspace.js';
import { fixtureCsr, startWorld, WORKSPACE, type World } from './world.js';

const CSR = fixtureCsr('rsa-2048'); // www.example.com + example.com

const form = (overrides: Partial<OrderFormInput> = {}): OrderFormInput => ({
  sku: 'RapidSSL',
  commonName: 'www.example.com',
  sans: 'example.com',
  csr: CSR,
  dcv: 'dns-cname-token',
  emails: '',
  orgId: '',
  validity: '',
  renewalOf: '',
  ...overrides,
});

/** The form's problems by field (the handler shows each on its field's block). */
function problems(input: OrderFormInput): Record<string, string> {
  const result = OrderForm.safeParse(input);
  if (result.success) return {};
  return Object.fromEntries(result.error.issues.map((issue) => [String(issue.path[0]), issue.message]));
}

function order(input: OrderFormInput = form()): TlsCertificateOrderParams {
  return OrderForm.parse(input);
}

describe('OrderForm (checking an order before anything is sent)', () => {
  it('normalises names: lower case, no trailing dot, the common name not repeated as a SAN', () => {
    const params = order(
      form({ commonName: ' WWW.Example.com. ', sans: 'www.example.com, EXAMPLE.com\nexample.com', dcv: '' }),
    );
    expect(params).toEqual({
      sku: 'RapidSSL',
      common_name: 'www.example.com',
      dns_names: ['example.com'],
      csr: CSR.trim(),
      dcv_method: 'dns-cname-token',
    });
    expect(order(form({ validity: '730', renewalOf: 'cert-issued-old', orgId: 'org-acme' }))).toMatchObject({
      validity_days: 730,
      renewal_of_certificate_id: 'cert-issued-old',
      org_id: 'org-acme',
    });
  });

  it('refuses a CSR made for other names, on the CSR field, naming the mismatch', () => {
    const found = problems(form({ commonName: 'shop.example.com', sans: '' }));
    expect(Object.keys(found)).toEqual(['csr']);
    expect(found.csr).toContain('its common name is www.example.com, not shop.example.com');
    expect(problems(form({ sans: 'example.com api.example.com' })).csr).toContain('lacks api.example.com');
  });

  it('refuses text that is not a CSR, and a tampered one', () => {
    expect(problems(form({ csr: 'hello' })).csr).toContain('Paste a PEM CSR');
    expect(problems(form({ csr: fixtureCsr('rsa-2048-tampered') })).csr).toContain('does not verify');
  });

  it('names every malformed field at once, and skips the CSR check until the common name is one', () => {
    const found = problems(
      form({
        sku: 'NoSuchProduct',
        commonName: 'not a name',
        sans: 'ok.example.com bad_name',
        validity: '0',
      }),
    );
    expect(found).toEqual({
      sku: 'Choose a product.',
      commonName: 'A fully qualified domain name, e.g. www.example.com.',
      sans: 'bad_name is not a domain name.',
      validity: 'Whole days, from 1 to 3,650.',
    });
    expect(problems(form({ validity: '12.5' })).validity).toBeDefined();
  });

  it('needs an organization for OV products and an address for e-mail validation', () => {
    expect(problems(form({ sku: 'SecureSite' })).orgId).toContain('/tls org new');
    expect(problems(form({ sku: 'SecureSite', orgId: 'org-acme' }))).toEqual({});
    expect(problems(form({ dcv: 'email' })).emails).toBe('E-mail validation needs at least one address.');
    expect(problems(form({ dcv: 'email', emails: 'pki@example.com nope' })).emails).toBe(
      'nope is not an e-mail address.',
    );
    expect(order(form({ dcv: 'email', emails: 'pki@example.com' }))).toMatchObject({
      dcv_method: 'email',
      dcv_emails: ['pki@example.com'],
    });
  });
});

describe('CertificateOrders.place (registrar sandbox, real Redis)', () => {
  let world: World;
  let deps: TlsServiceDeps;
  let orders: CertificateOrders;
  const pendingKey = (commonName: string) =>
    deps.keys.key(`ws:${workspaceId(WORKSPACE)}`, 'tls', 'pending', commonName);
  const orderCalls = () => world.sandbox.calls.filter((call) => call.operation === 'tls.order');

  beforeAll(async () => {
    world = await startWorld();
  });
  afterAll(async () => {
    await world.close();
  });
  beforeEach(() => {
    world.sandbox.faults.clear();
    deps = world.deps();
    orders = new CertificateOrders(deps);
  });

  it('places the order and remembers it as pending for its common name, for 30 days', async () => {
    const outcome = await orders.place(WORKSPACE, order());
    if (outcome.kind !== 'placed') throw new Error(`expected an order, got ${outcome.kind}`);
    expect(outcome.certificate).toMatchObject({
      status: 'pending',
      common_name: 'www.example.com',
      dns_names: ['www.example.com', 'example.com'],
    });
    expect(outcome.certificate.validation?.dns_records).toHaveLength(2);
    expect(await world.redis.get(pendingKey('www.example.com'))).toBe(outcome.certificate.id);
    const ttl = await world.redis.ttl(pendingKey('www.example.com'));
    expect(ttl).toBeGreaterThan(29 * 86_400);
    expect(ttl).toBeLessThanOrEqual(30 * 86_400);
  });

  it('points to a pending order for the same common name instead of ordering a duplicate', async () => {
    const first = await orders.place(WORKSPACE, order());
    const before = orderCalls().length;
    const second = await orders.place(WORKSPACE, order());
    expect(first.kind).toBe('placed');
    expect(second).toEqual({
      kind: 'already-pending',
      id: first.kind === 'placed' ? first.certificate.id : '',
    });
    expect(orderCalls()).toHaveLength(before);
  });

  it('orders anew once the remembered order is no longer pending', async () => {
    const first = await orders.place(WORKSPACE, order());
    const id = first.kind === 'placed' ? first.certificate.id : '';
    const cert = world.sandbox.state.certificates.get(id);
    if (cert === undefined) throw new Error('the sandbox lost the order');
    cert.status = 'cancelled';
    const second = await orders.place(WORKSPACE, order());
    expect(second.kind).toBe('placed');
    expect(second.kind === 'placed' && second.certificate.id).not.toBe(id);
    expect(await world.redis.get(pendingKey('www.example.com'))).not.toBe(id);
  });

  it('a registrar 409 is a typed error the user can read, and nothing is remembered', async () => {
    world.sandbox.faults.inject('tls.order', { status: 409, times: 1 });
    const failure = await orders.place(WORKSPACE, order()).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ConflictError);
    expect((failure as ConflictError).userMessage).toContain('The current state does not allow this');
    expect(await world.redis.get(pendingKey('www.example.com'))).toBeNull();
  });

  it('a registrar 502 fails once, without a retry of the order (it may have been placed)', async () => {
    const before = orderCalls().length;
    world.sandbox.faults.inject('tls.order', { status: 502 });
    await expect(orders.place(WORKSPACE, order())).rejects.toBeInstanceOf(UpstreamFailedError);
    expect(orderCalls()).toHaveLength(before + 1);
    expect(await world.redis.get(pendingKey('www.example.com'))).toBeNull();
  });

  it('two simultaneous submissions of one order place one registrar order; the other is told it is under way', async () => {
    const before = orderCalls().length;
    // A slow registrar, so the second submission arrives while the first is being placed.
    world.sandbox.faults.inject('tls.order', { delayMs: 300, times: 1 });
    const first = orders.place(WORKSPACE, order());
    await expect.poll(() => world.redis.get(pendingKey('www.example.com'))).toMatch(/^ordering:/);
    // The claim is short-lived, so a crashed submission does not block the name for long.
    expect(await world.redis.ttl(pendingKey('www.example.com'))).toBeLessThanOrEqual(120);
    const outcomes = await Promise.all([first, orders.place(WORKSPACE, order())]);
    expect(outcomes.map((outcome) => outcome.kind).sort()).toEqual(['in-progress', 'placed']);
    expect(orderCalls()).toHaveLength(before + 1);
    // The claim became the pending order's marker.
    const placed = outcomes.find((outcome) => outcome.kind === 'placed');
    expect(await world.redis.get(pendingKey('www.example.com'))).toBe(
      placed?.kind === 'placed' ? placed.certificate.id : 'none',
    );
  });

  it('many submissions racing at once still place exactly one order', async () => {
    const before = orderCalls().length;
    const outcomes = await Promise.all(Array.from({ length: 5 }, () => orders.place(WORKSPACE, order())));
    expect(outcomes.filter((outcome) => outcome.kind === 'placed')).toHaveLength(1);
    expect(orderCalls()).toHaveLength(before + 1);
  });

  it('a failed order releases its claim, so a retry orders', async () => {
    world.sandbox.faults.inject('tls.order', { status: 503, times: 1 });
    await expect(orders.place(WORKSPACE, order())).rejects.toBeDefined();
    expect(await world.redis.get(pendingKey('www.example.com'))).toBeNull();
    expect((await orders.place(WORKSPACE, order())).kind).toBe('placed');
  });

  it('a finished order remembered for the name is taken over by one new order only', async () => {
    const first = await orders.place(WORKSPACE, order());
    const cert = world.sandbox.state.certificates.get(first.kind === 'placed' ? first.certificate.id : '');
    if (cert === undefined) throw new Error('the sandbox lost the order');
    cert.status = 'issued';
    const before = orderCalls().length;
    const outcomes = await Promise.all([orders.place(WORKSPACE, order()), orders.place(WORKSPACE, order())]);
    expect(outcomes.filter((outcome) => outcome.kind === 'placed')).toHaveLength(1);
    expect(orderCalls()).toHaveLength(before + 1);
  });
});
