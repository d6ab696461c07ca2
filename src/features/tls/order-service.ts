import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import {
  type RegistrarClient,
  TLS_PRODUCTS,
  type TlsCertificate,
  type TlsCertificateOrderParams,
} from '../../registrar/index.js';
import { LuaScript, releaseOwn } from '../../shared/lua.js';
import { type WorkspaceRef, workspaceId } from '../../shared/workspace.js';
import { text } from '../../text/index.js';
import { orderedAt } from './blocks.js';
import { csrMismatch } from './csr.js';
import { dcvMethod, type TlsServiceDeps } from './service.js';

const HOST = /^(\*\.)?([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** An order for a common name is remembered while validation can take (30 days). */
const PENDING_TTL_SECONDS = 30 * 24 * 60 * 60;
/** The order modal's number input allows the same range (Slack enforces it, a forged payload may not). */
const MAX_VALIDITY_DAYS = 3650;

const words = (text: string): string[] => text.split(/[\s,;]+/).filter((word) => word !== '');

/**
 * The order form as typed (every field a string, '' when left empty), checked and turned into the
 * registrar's order (docs/registrar-api.md §4.1, "Local checks before sending" and "Order modal"). Each
 * issue's path is the field it concerns, so it can be shown on that field.
 */
export const OrderForm = z.lazy(() =>
  z
    .object({
      sku: z.string(),
      commonName: z.string().trim(),
      sans: z.string().trim(),
      csr: z.string().trim(),
      dcv: z.string(),
      emails: z.string().trim(),
      orgId: z.string().trim(),
      validity: z.string().trim(),
      renewalOf: z.string().trim(),
    })
    .transform((form, ctx): TlsCertificateOrderParams => {
      let valid = true;
      const refuse = (field: keyof typeof form, message: string) => {
        valid = false;
        ctx.addIssue({ code: 'custom', path: [field], message });
      };
      const commonName = form.commonName.toLowerCase().replace(/\.$/, '');
      // A SAN equal to the common name is not sent again (docs/registrar-api.md §4.1, "Order modal").
      const sans = [...new Set(words(form.sans.toLowerCase()))].filter((name) => name !== commonName);
      const emails = words(form.emails);
      const dcv = dcvMethod(form.dcv);
      const validity = form.validity === '' ? undefined : Number(form.validity);

      const product = TLS_PRODUCTS.find((p) => p.sku === form.sku);
      if (product === undefined) refuse('sku', text.tls.chooseProduct);
      // OV products are validated against an organization (docs/registrar-api.md §2.3); without one the order would stall.
      if (product?.organization === true && form.orgId === '') {
        refuse('orgId', text.tls.productNeedsOrganization);
      }
      const goodName = HOST.test(commonName);
      if (!goodName) refuse('commonName', text.tls.notFullyQualified);
      const badSan = sans.find((name) => !HOST.test(name));
      if (badSan !== undefined) refuse('sans', text.tls.notADomainName({ name: badSan }));
      const badEmail = emails.find((email) => !EMAIL.test(email));
      if (badEmail !== undefined) refuse('emails', text.tls.notAnEmailAddress({ email: badEmail }));
      else if (dcv === 'email' && emails.length === 0) refuse('emails', text.tls.emailValidationNeedsAddress);
      if (
        validity !== undefined &&
        !(Number.isInteger(validity) && validity >= 1 && validity <= MAX_VALIDITY_DAYS)
      ) {
        refuse('validity', text.tls.validityRange({ max: MAX_VALIDITY_DAYS }));
      }
      // The CSR is compared with the names only once the common name itself is one.
      const mismatch = goodName ? csrMismatch(form.csr, commonName, sans, 'order') : undefined;
      if (mismatch !== undefined) refuse('csr', mismatch);
      if (!valid) return z.NEVER;
      return {
        sku: form.sku,
        common_name: commonName,
        ...(sans.length === 0 ? {} : { dns_names: sans }),
        csr: form.csr,
        dcv_method: dcv,
        ...(emails.length === 0 ? {} : { dcv_emails: emails }),
        ...(form.orgId === '' ? {} : { org_id: form.orgId }),
        ...(form.renewalOf === '' ? {} : { renewal_of_certificate_id: form.renewalOf }),
        ...(validity === undefined ? {} : { validity_days: validity }),
      };
    }),
);
export type OrderFormInput = z.input<typeof OrderForm>;

export type OrderOutcome =
  | { kind: 'placed'; certificate: TlsCertificate }
  | { kind: 'already-pending'; id: string }
  /** Another submission for the same name is being placed at this moment. */
  | { kind: 'in-progress' };

/** The claim's value while an order is being placed; the pending order's id replaces it. */
const ORDERING = 'ordering:';
/** Longer than one order call can take (10 s timeout, never retried), short enough to retry soon after a crash. */
const CLAIM_TTL_SECONDS = 120;

/** Sets KEYS[1] to ARGV[2] (EX ARGV[3]) only if it still holds ARGV[1]: taking over a finished order. */
const REPLACE = new LuaScript(`if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('SET', KEYS[1], ARGV[2], 'EX', ARGV[3]) return 1 end return 0`);

/**
 * Placing certificate orders. A workspace's order for a common name is claimed in Redis
 * (`{ws:<ws>}:tls:pending:<common_name>`) before the registrar is called, atomically, so a retry or
 * a second simultaneous submission is recognised instead of ordering a duplicate (docs/registrar-api.md
 * §4.1, "Order modal"). The claim becomes the pending order's id; a failed order releases it.
 */
export class CertificateOrders {
  constructor(private readonly deps: TlsServiceDeps) {}

  async place(
    workspace: WorkspaceRef,
    order: TlsCertificateOrderParams,
    placedBy?: string,
  ): Promise<OrderOutcome> {
    const registrar = this.deps.registrarFor(workspace);
    const key = this.deps.keys.key(`ws:${workspaceId(workspace)}`, 'tls', 'pending', order.common_name);
    const claim = `${ORDERING}${randomBytes(8).toString('hex')}`;
    const holder = await this.#claim(registrar, key, claim);
    if (holder !== undefined) return holder;
    let certificate: TlsCertificate;
    try {
      certificate = await registrar.tls.order(order);
    } catch (error) {
      await releaseOwn(this.deps.redis, key, claim);
      throw error;
    }
    if (certificate.status === 'pending') {
      await this.deps.redis.set(key, certificate.id, 'EX', PENDING_TTL_SECONDS);
    } else {
      await releaseOwn(this.deps.redis, key, claim);
    }
    // Publishing reads the validation records from here (validation-ledger.ts); best effort, like below.
    await this.deps.validations
      .remember(workspace, certificate, { by: placedBy, as: 'order' })
      .catch(() => undefined);
    // Watches read this to hold back an expiry alert (renewals.ts). The order stands either way: a
    // failed write only means a renewal that could have silenced an alert does not.
    await this.deps.renewals
      .record(workspace, {
        id: certificate.id,
        commonName: certificate.common_name || order.common_name,
        ...(order.renewal_of_certificate_id === undefined
          ? {}
          : { renewalOf: order.renewal_of_certificate_id }),
        placedAt: orderedAt(certificate) ?? Date.now(),
        ...(certificate.validation?.method === 'dns-cname-token' &&
        certificate.validation.dns_records.length > 0
          ? {
              validation: certificate.validation.dns_records.map(({ name, type, value }) => ({
                name,
                type,
                value,
              })),
            }
          : {}),
      })
      .catch(() => undefined);
    return { kind: 'placed', certificate };
  }

  /** Takes the name with `claim`; otherwise what holds it. */
  async #claim(registrar: RegistrarClient, key: string, claim: string): Promise<OrderOutcome | undefined> {
    const { redis } = this.deps;
    if ((await redis.set(key, claim, 'EX', CLAIM_TTL_SECONDS, 'NX')) === 'OK') return undefined;
    const held = await redis.get(key);
    // Gone meanwhile (released or expired): one more try, and whoever wins it is placing the order.
    if (held === null) {
      const taken = await redis.set(key, claim, 'EX', CLAIM_TTL_SECONDS, 'NX');
      return taken === 'OK' ? undefined : { kind: 'in-progress' };
    }
    if (held.startsWith(ORDERING)) return { kind: 'in-progress' };
    // A remembered order that is no longer pending, or cannot be read, does not block a new one.
    const current = await registrar.tls.get(held).catch(() => undefined);
    if (current?.status === 'pending') return { kind: 'already-pending', id: held };
    const replaced = await REPLACE.run(redis, 1, key, held, claim, String(CLAIM_TTL_SECONDS));
    return Number(replaced) === 1 ? undefined : { kind: 'in-progress' };
  }
}
