import { z } from 'zod';
import { TLS_PRODUCTS, type TlsCertificate, type TlsCertificateOrderParams } from '../../registrar/index.js';
import { type WorkspaceRef, workspaceId } from '../../shared/workspace.js';
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
export const OrderForm = z
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
    if (product === undefined) refuse('sku', 'Choose a product.');
    // OV products are validated against an organization (docs/registrar-api.md §2.3); without one the order would stall.
    if (product?.organization === true && form.orgId === '') {
      refuse(
        'orgId',
        'This product needs a TLS organization: enter its ID, or create one with /tls org new.',
      );
    }
    const goodName = HOST.test(commonName);
    if (!goodName) refuse('commonName', 'A fully qualified domain name, e.g. www.example.com.');
    const badSan = sans.find((name) => !HOST.test(name));
    if (badSan !== undefined) refuse('sans', `${badSan} is not a domain name.`);
    const badEmail = emails.find((email) => !EMAIL.test(email));
    if (badEmail !== undefined) refuse('emails', `${badEmail} is not an e-mail address.`);
    else if (dcv === 'email' && emails.length === 0)
      refuse('emails', 'E-mail validation needs at least one address.');
    if (
      validity !== undefined &&
      !(Number.isInteger(validity) && validity >= 1 && validity <= MAX_VALIDITY_DAYS)
    ) {
      refuse('validity', `Whole days, from 1 to ${MAX_VALIDITY_DAYS}.`);
    }
    // The CSR is compared with the names only once the common name itself is one.
    const mismatch = goodName ? csrMismatch(form.csr, commonName, sans, 'the order') : undefined;
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
  });
export type OrderFormInput = z.input<typeof OrderForm>;

export type OrderOutcome =
  | { kind: 'placed'; certificate: TlsCertificate }
  | { kind: 'already-pending'; id: string };

/**
 * Placing certificate orders. A workspace's pending order for a common name is remembered in Redis
 * (`{ws:<ws>}:tls:pending:<common_name>`), and a second order for that name points to it instead of
 * ordering a duplicate (docs/registrar-api.md §4.1, "Order modal").
 */
export class CertificateOrders {
  constructor(private readonly deps: TlsServiceDeps) {}

  async place(workspace: WorkspaceRef, order: TlsCertificateOrderParams): Promise<OrderOutcome> {
    const registrar = this.deps.registrarFor(workspace);
    const key = this.deps.keys.key(`ws:${workspaceId(workspace)}`, 'tls', 'pending', order.common_name);
    const existing = await this.deps.redis.get(key);
    if (existing !== null) {
      // A remembered order that is no longer pending, or cannot be read, does not block a new one.
      const current = await registrar.tls.get(existing).catch(() => undefined);
      if (current?.status === 'pending') return { kind: 'already-pending', id: existing };
    }
    const certificate = await registrar.tls.order(order);
    if (certificate.status === 'pending') {
      await this.deps.redis.set(key, certificate.id, 'EX', PENDING_TTL_SECONDS);
    }
    return { kind: 'placed', certificate };
  }
}
