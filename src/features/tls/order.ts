import type { App } from '@slack/bolt';
import type { KnownBlock, View } from '@slack/types';
import { type RegistrarClient, TLS_PRODUCTS } from '../../registrar/index.js';
import type { Logger } from '../../shared/logger.js';
import type { KeySpace, Redis } from '../../shared/redis.js';
import { type WorkspaceRef, workspaceId } from '../../shared/workspace.js';
import { section } from '../../slack/blocks.js';
import { replyForError } from '../../slack/error-reply.js';
import { codeSpan } from '../../slack/mrkdwn.js';
import type { ChannelPoster } from '../../slack/poster.js';
import type { Subcommand } from '../../slack/router.js';
import { workspaceOf } from '../../slack/workspace.js';
import type { Origin } from '../follow/jobs.js';
import { certificateCard } from './blocks.js';
import { csrProblems, parseCsr } from './csr.js';

const IDS = {
  modal: 'tls.order.modal',
  product: 'tls.order.product',
  cn: 'tls.order.cn',
  sans: 'tls.order.sans',
  csr: 'tls.order.csr',
  dcv: 'tls.order.dcv',
  emails: 'tls.order.emails',
  org: 'tls.order.org',
  validity: 'tls.order.validity',
  renewal: 'tls.order.renewal',
} as const;
const value = (id: string) => `${id}.value`;

const HOST = /^(\*\.)?([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** An order for a common name is remembered while validation can take (30 days). */
const PENDING_TTL_SECONDS = 30 * 24 * 60 * 60;

function input(
  id: string,
  label: string,
  element: Record<string, unknown>,
  optional = false,
  hint?: string,
): KnownBlock {
  return {
    type: 'input',
    block_id: id,
    optional,
    label: { type: 'plain_text', text: label },
    element: { action_id: value(id), ...element },
    ...(hint === undefined ? {} : { hint: { type: 'plain_text', text: hint } }),
  } as KnownBlock;
}

/** Prefill for a renewal (from the Renew button of a certificate card). */
export interface OrderPrefill {
  sku: string;
  commonName: string;
  sans: string[];
  renewalOf: string;
}

export function orderModal(channel: string, prefill?: OrderPrefill): View {
  const option = (v: string, text: string) => ({ text: { type: 'plain_text' as const, text }, value: v });
  const product = TLS_PRODUCTS.find((p) => p.sku === prefill?.sku);
  const initial = (text: string | undefined) =>
    text === undefined || text === '' ? {} : { initial_value: text };
  return {
    type: 'modal',
    callback_id: IDS.modal,
    private_metadata: JSON.stringify({ channel }),
    title: { type: 'plain_text', text: 'Order a certificate' },
    submit: { type: 'plain_text', text: 'Order' },
    close: { type: 'plain_text', text: 'Cancel' },
    blocks: [
      section('Regdesk never sees private keys: paste a CSR made where the key will live.'),
      input(IDS.product, 'Product', {
        type: 'static_select',
        options: TLS_PRODUCTS.map((p) => option(p.sku, p.name)),
        ...(product === undefined ? {} : { initial_option: option(product.sku, product.name) }),
      }),
      input(IDS.cn, 'Common name', {
        type: 'plain_text_input',
        placeholder: { type: 'plain_text', text: 'www.example.com' },
        ...initial(prefill?.commonName),
      }),
      input(
        IDS.sans,
        'Additional names (SANs)',
        { type: 'plain_text_input', multiline: true, ...initial(prefill?.sans.join('\n')) },
        true,
        'One per line or comma separated.',
      ),
      input(IDS.csr, 'CSR (PEM)', { type: 'plain_text_input', multiline: true, max_length: 3000 }),
      input(IDS.dcv, 'Domain validation', {
        type: 'radio_buttons',
        options: [option('dns-cname-token', 'DNS (CNAME record)'), option('email', 'E-mail')],
        initial_option: option('dns-cname-token', 'DNS (CNAME record)'),
      }),
      input(
        IDS.emails,
        'Validation e-mails',
        { type: 'plain_text_input' },
        true,
        'For e-mail validation, comma separated.',
      ),
      input(
        IDS.org,
        'TLS organization ID',
        { type: 'plain_text_input' },
        true,
        'Needed for OV products; without one the registrar asks for the details.',
      ),
      input(
        IDS.validity,
        'Validity (days)',
        { type: 'number_input', is_decimal_allowed: false, min_value: '1', max_value: '3650' },
        true,
      ),
      input(
        IDS.renewal,
        'Renewal of certificate ID',
        { type: 'plain_text_input', ...initial(prefill?.renewalOf) },
        true,
      ),
    ],
  };
}

interface StateValue {
  value?: string | null;
  selected_option?: { value: string } | null;
}

/** Validates the submitted form; field errors go back inline (response_action: errors). */
export function readOrder(values: Record<string, Record<string, StateValue>>) {
  const get = (id: string) => values[id]?.[value(id)] ?? {};
  const text = (id: string) => (get(id).value ?? '').trim();
  const errors: Record<string, string> = {};
  const sku = get(IDS.product).selected_option?.value ?? '';
  const commonName = text(IDS.cn).toLowerCase().replace(/\.$/, '');
  const sans = [
    ...new Set(
      text(IDS.sans)
        .toLowerCase()
        .split(/[\s,;]+/)
        .filter((n) => n !== '' && n !== commonName),
    ),
  ];
  const dcv = get(IDS.dcv).selected_option?.value ?? 'dns-cname-token';
  const emails = text(IDS.emails)
    .split(/[\s,;]+/)
    .filter((e) => e !== '');
  const validity = text(IDS.validity) === '' ? undefined : Number(text(IDS.validity));
  const product = TLS_PRODUCTS.find((p) => p.sku === sku);
  if (product === undefined) errors[IDS.product] = 'Choose a product.';
  // OV products are validated against an organization (docs/registrar-api.md §2.3); without one the order would stall.
  if (product?.organization === true && text(IDS.org) === '') {
    errors[IDS.org] = 'This product needs a TLS organization: enter its ID, or create one with /tls org new.';
  }
  if (!HOST.test(commonName)) errors[IDS.cn] = 'A fully qualified domain name, e.g. www.example.com.';
  const badSan = sans.find((name) => !HOST.test(name));
  if (badSan !== undefined) errors[IDS.sans] = `${badSan} is not a domain name.`;
  if (dcv === 'email' && emails.length === 0)
    errors[IDS.emails] = 'E-mail validation needs at least one address.';
  const badEmail = emails.find((e) => !EMAIL.test(e));
  if (badEmail !== undefined) errors[IDS.emails] = `${badEmail} is not an e-mail address.`;
  const csr = text(IDS.csr);
  if (errors[IDS.cn] === undefined) {
    try {
      const problems = csrProblems(parseCsr(csr), commonName, sans);
      if (problems.length > 0)
        errors[IDS.csr] = `The CSR does not fit the order: ${problems.join('; ')}.`.slice(0, 500);
    } catch (error) {
      errors[IDS.csr] =
        `Paste a PEM CSR (-----BEGIN CERTIFICATE REQUEST-----): ${error instanceof Error ? error.message : 'unreadable'}.`;
    }
  }
  if (Object.keys(errors).length > 0) return { errors };
  return {
    order: {
      sku,
      common_name: commonName,
      ...(sans.length === 0 ? {} : { dns_names: sans }),
      csr,
      dcv_method: dcv as 'dns-cname-token' | 'email',
      ...(emails.length === 0 ? {} : { dcv_emails: emails }),
      ...(text(IDS.org) === '' ? {} : { org_id: text(IDS.org) }),
      ...(text(IDS.renewal) === '' ? {} : { renewal_of_certificate_id: text(IDS.renewal) }),
      ...(validity === undefined ? {} : { validity_days: validity }),
    },
  };
}

export interface OrderDeps {
  registrarFor(workspace: WorkspaceRef): RegistrarClient;
  poster: ChannelPoster;
  redis: Redis;
  keys: KeySpace;
  followCertificate(workspace: WorkspaceRef, id: string, origin: Origin): Promise<void>;
  logger: Logger;
}

export function orderCommand(): Subcommand {
  return {
    name: 'order',
    usage: 'order',
    summary: 'order or renew a certificate (modal); validation records and progress follow in a thread',
    run: async ({ ack, bolt }) => {
      await ack();
      await bolt.client.views.open({
        trigger_id: bolt.body.trigger_id,
        view: orderModal(bolt.body.channel_id),
      });
    },
  };
}

export function registerOrderModal(app: App, deps: OrderDeps): void {
  app.view(IDS.modal, async ({ ack, body, view, client }) => {
    const result = readOrder(view.state.values as Record<string, Record<string, StateValue>>);
    if ('errors' in result) {
      await ack({ response_action: 'errors', errors: result.errors });
      return;
    }
    await ack();
    const { channel } = JSON.parse(view.private_metadata) as { channel: string };
    const workspace = workspaceOf(body);
    const user = body.user.id;
    const tell = (text: string) => client.chat.postEphemeral({ channel, user, text }).catch(() => undefined);
    const registrar = deps.registrarFor(workspace);
    const pendingKey = deps.keys.key(
      `ws:${workspaceId(workspace)}`,
      'tls',
      'pending',
      result.order.common_name,
    );
    try {
      // A pending order for the same name is followed instead of ordering a duplicate.
      const existing = await deps.redis.get(pendingKey);
      if (existing !== null) {
        const current = await registrar.tls.get(existing).catch(() => undefined);
        if (current?.status === 'pending') {
          await tell(
            `An order for ${codeSpan(result.order.common_name)} is already pending: ${codeSpan(existing)}. Regdesk is following it; \`/tls show ${existing}\` shows it.`,
          );
          return;
        }
      }
      const cert = await registrar.tls.order(result.order);
      const card = certificateCard(cert);
      const ts = await deps.poster.post(client, {
        channel,
        text: `<@${user}> ordered ${card.text}`,
        blocks: [section(`<@${user}> ordered a certificate.`), ...card.blocks],
      });
      if (cert.status === 'pending') {
        await deps.redis.set(pendingKey, cert.id, 'EX', PENDING_TTL_SECONDS);
        await deps.followCertificate(workspace, cert.id, { channel, threadTs: ts });
      }
    } catch (error) {
      await tell(replyForError(error, deps.logger).text);
    }
  });
}
