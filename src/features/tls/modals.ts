import type { View } from '@slack/types';
import { z } from 'zod';
import {
  REVOCATION_REASONS,
  type RevocationReason,
  TLS_PRODUCTS,
  type TlsCertificate,
  type TlsOrganization,
} from '../../registrar/index.js';
import { formModal, section } from '../../slack/blocks.js';
import { inputBlock, stateOf, type ViewState, writeMetadata } from '../../slack/modal.js';
import { codeSpan } from '../../slack/mrkdwn.js';
import { ORDER_IDS, ORG_IDS, REASON_IDS, REISSUE_IDS } from './ids.js';
import type { OrderFormInput } from './order-service.js';
import {
  DRAFT_ID,
  ORGANIZATION_FIELDS,
  type OrganizationField,
  type OrganizationForm,
  type ReissueFormInput,
} from './service.js';

/** The TLS modals and their `private_metadata` schemas (all far below Slack's 3000 characters). */

export const OrderMeta = z.object({ channel: z.string() });
export const OrgMeta = z.object({ channel: z.string(), orgId: z.string().optional() });
/** The reissue's names stay in Redis under `draft` (see `TlsService.startReissue`). */
export const ReissueMeta = z.object({ channel: z.string(), draft: z.string().regex(DRAFT_ID) });
export const ReasonMeta = z.object({
  kind: z.enum(['revoke', 'cancel']),
  certificateId: z.string(),
  channel: z.string(),
});

const option = (value: string, text: string) => ({ text: { type: 'plain_text' as const, text }, value });
const DCV_OPTIONS = [option('dns-cname-token', 'DNS (CNAME record)'), option('email', 'E-mail')];
const dcvInput = (blockId: string) =>
  inputBlock(blockId, 'Domain validation', {
    type: 'radio_buttons',
    options: DCV_OPTIONS,
    initial_option: DCV_OPTIONS[0],
  });
const initial = (text: string | undefined) =>
  text === undefined || text === '' ? {} : { initial_value: text };

/** Each field's value as submitted ('' when empty): a select's choice, else the typed text. */
export function formOf<K extends string>(state: ViewState, blocks: Record<K, string>): Record<K, string> {
  const form = {} as Record<K, string>;
  for (const field of Object.keys(blocks) as K[]) {
    const value = stateOf(state, blocks[field]);
    form[field] = value.selected_option?.value ?? value.value ?? '';
  }
  return form;
}

/** The block of a form field, for `fieldErrors`. */
export const blockIn =
  (fields: Record<string, string>) =>
  (field: string): string | undefined =>
    fields[field];

/** Order form fields (see `OrderForm`) and their blocks. */
export const ORDER_FIELDS = {
  sku: ORDER_IDS.product,
  commonName: ORDER_IDS.cn,
  sans: ORDER_IDS.sans,
  csr: ORDER_IDS.csr,
  dcv: ORDER_IDS.dcv,
  emails: ORDER_IDS.emails,
  orgId: ORDER_IDS.org,
  validity: ORDER_IDS.validity,
  renewalOf: ORDER_IDS.renewal,
} as const satisfies Record<keyof OrderFormInput, string>;

/** The order modal; from a card's Renew button, prefilled for a renewal of `renewalOf`. */
export function orderModal(channel: string, renewalOf?: TlsCertificate): View {
  const product = TLS_PRODUCTS.find((p) => p.sku === renewalOf?.product);
  const sans = renewalOf?.dns_names.filter((name) => name !== renewalOf.common_name);
  return formModal(ORDER_IDS.modal, writeMetadata(OrderMeta, { channel }), 'Order a certificate', 'Order', [
    section('Regdesk never sees private keys: paste a CSR made where the key will live.'),
    inputBlock(ORDER_IDS.product, 'Product', {
      type: 'static_select',
      options: TLS_PRODUCTS.map((p) => option(p.sku, p.name)),
      ...(product === undefined ? {} : { initial_option: option(product.sku, product.name) }),
    }),
    inputBlock(ORDER_IDS.cn, 'Common name', {
      type: 'plain_text_input',
      placeholder: { type: 'plain_text', text: 'www.example.com' },
      ...initial(renewalOf?.common_name),
    }),
    inputBlock(
      ORDER_IDS.sans,
      'Additional names (SANs)',
      { type: 'plain_text_input', multiline: true, ...initial(sans?.join('\n')) },
      { optional: true, hint: 'One per line or comma separated.' },
    ),
    inputBlock(ORDER_IDS.csr, 'CSR (PEM)', { type: 'plain_text_input', multiline: true, max_length: 3000 }),
    dcvInput(ORDER_IDS.dcv),
    inputBlock(
      ORDER_IDS.emails,
      'Validation e-mails',
      { type: 'plain_text_input' },
      { optional: true, hint: 'For e-mail validation, comma separated.' },
    ),
    inputBlock(
      ORDER_IDS.org,
      'TLS organization ID',
      { type: 'plain_text_input' },
      { optional: true, hint: 'Needed for OV products; without one the registrar asks for the details.' },
    ),
    inputBlock(
      ORDER_IDS.validity,
      'Validity (days)',
      { type: 'number_input', is_decimal_allowed: false, min_value: '1', max_value: '3650' },
      { optional: true },
    ),
    inputBlock(
      ORDER_IDS.renewal,
      'Renewal of certificate ID',
      { type: 'plain_text_input', ...initial(renewalOf?.id) },
      { optional: true },
    ),
  ]);
}

export const REISSUE_FIELDS = {
  csr: REISSUE_IDS.csr,
  dcv: REISSUE_IDS.dcv,
  comments: REISSUE_IDS.comments,
} as const satisfies Record<keyof ReissueFormInput, string>;

export function reissueModal(meta: z.infer<typeof ReissueMeta>, cert: TlsCertificate): View {
  const names = cert.dns_names.slice(0, 20).map(codeSpan).join(', ');
  return formModal(REISSUE_IDS.modal, writeMetadata(ReissueMeta, meta), 'Reissue certificate', 'Reissue', [
    section(
      `Reissue ${codeSpan(cert.id)} for ${codeSpan(cert.common_name)} with a new CSR. The names stay exactly as ordered: ${names}.`,
    ),
    inputBlock(REISSUE_IDS.csr, 'New CSR (PEM)', {
      type: 'plain_text_input',
      multiline: true,
      max_length: 3000,
    }),
    dcvInput(REISSUE_IDS.dcv),
    inputBlock(
      REISSUE_IDS.comments,
      'Comment',
      { type: 'plain_text_input', max_length: 500 },
      { optional: true },
    ),
  ]);
}

const ORG_LABELS: Record<OrganizationField, string> = {
  organization: 'Organization',
  first_name: 'First name',
  last_name: 'Last name',
  address: 'Street address',
  postal_code: 'Postal code',
  city: 'City',
  country_code: 'Country code (ISO 3166-1, e.g. DE)',
  phone: 'Phone (e.g. +49 30 1234567)',
  email: 'E-mail',
};

/** Organization form fields (see `OrganizationForm`) and their blocks. */
export const ORG_FIELDS = { ...ORG_IDS.fields, edit_mode: ORG_IDS.editMode } as const satisfies Record<
  keyof z.input<typeof OrganizationForm>,
  string
>;

/** New organization, or `meta.orgId` prefilled with `current` and a choice of how to apply the edit. */
export function orgModal(meta: z.infer<typeof OrgMeta>, current?: TlsOrganization): View {
  const blocks = ORGANIZATION_FIELDS.map((field) =>
    inputBlock(ORG_IDS.fields[field], ORG_LABELS[field], {
      type: 'plain_text_input',
      max_length: 200,
      ...initial(current?.[field]),
    }),
  );
  if (meta.orgId !== undefined) {
    const update = option('update_provider', 'Update the organization at the provider');
    blocks.push(
      inputBlock(ORG_IDS.editMode, 'How to apply the change', {
        type: 'radio_buttons',
        options: [update, option('create_replacement', 'Create a replacement organization')],
        initial_option: update,
      }),
    );
  }
  const title = meta.orgId === undefined ? 'New TLS organization' : 'Edit TLS organization';
  return formModal(ORG_IDS.modal, writeMetadata(OrgMeta, meta), title, 'Save', blocks);
}

const REASON_LABELS: Record<RevocationReason, string> = {
  unspecified: 'Unspecified',
  keyCompromise: 'Key compromise',
  affiliationChanged: 'Affiliation changed',
  superseded: 'Superseded',
  cessationOfOperation: 'Cessation of operation',
};

/** The reason for `/tls revoke|cancel ID`, asked when the command named none. */
export function reasonModal(meta: z.infer<typeof ReasonMeta>): View {
  const revoke = meta.kind === 'revoke';
  const id = codeSpan(meta.certificateId);
  return formModal(
    REASON_IDS.modal,
    writeMetadata(ReasonMeta, meta),
    revoke ? 'Revoke certificate' : 'Cancel order',
    'Request approval',
    [
      section(
        revoke
          ? `Revoke certificate ${id}? This needs a second person's approval.`
          : `Cancel the order of ${id} (within 7 days of ordering this revokes the whole order)? This needs a second person's approval.`,
      ),
      inputBlock(REASON_IDS.reason, 'Revocation reason', {
        type: 'static_select',
        options: REVOCATION_REASONS.map((reason) => option(reason, REASON_LABELS[reason])),
      }),
    ],
  );
}
