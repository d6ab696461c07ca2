import type { View } from '@slack/types';
import { z } from 'zod';
import {
  ORGANIZATION_FIELDS,
  type OrganizationField,
  REVOCATION_REASONS,
  type RevocationReason,
  TLS_PRODUCTS,
  type TlsCertificate,
  type TlsOrganization,
} from '../../registrar/index.js';
import { formModal, section } from '../../slack/blocks.js';
import { inputBlock, stateOf, type ViewState, writeMetadata } from '../../slack/modal.js';
import { codeSpan } from '../../slack/mrkdwn.js';
import { text } from '../../text/index.js';
import { ORDER_IDS, ORG_IDS, REASON_IDS, REISSUE_IDS } from './ids.js';
import type { OrderFormInput } from './order-service.js';
import { DRAFT_ID, type OrganizationForm, type ReissueFormInput } from './service.js';

/** The TLS modals and their `private_metadata` schemas (all far below Slack's 3000 characters). */

export const OrderMeta = z.lazy(() => z.object({ channel: z.string() }));
export const OrgMeta = z.lazy(() => z.object({ channel: z.string(), orgId: z.string().optional() }));
/** The reissue's names stay in Redis under `draft` (see `TlsService.startReissue`). */
export const ReissueMeta = z.lazy(() => z.object({ channel: z.string(), draft: z.string().regex(DRAFT_ID) }));
export const ReasonMeta = z.lazy(() =>
  z.object({
    kind: z.enum(['revoke', 'cancel']),
    certificateId: z.string(),
    channel: z.string(),
  }),
);

const option = (value: string, label: string) => ({
  text: { type: 'plain_text' as const, text: label },
  value,
});
const dcvInput = (blockId: string) => {
  const dns = option('dns-cname-token', text.tls.dcvDns);
  return inputBlock(blockId, text.tls.dcvLabel, {
    type: 'radio_buttons',
    options: [dns, option('email', text.tls.dcvEmail)],
    initial_option: dns,
  });
};
/** The most a plain_text_input holds (Slack's Block Kit reference). */
const PLAIN_TEXT_INPUT_MAX = 3000;
const initial = (value: string | undefined) =>
  value === undefined || value === '' ? {} : { initial_value: value };

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
  const sans = renewalOf?.dns_names.filter((name) => name !== renewalOf.common_name) ?? [];
  // Slack refuses a modal whose text input starts with more than it may hold (3000 characters).
  const sansPrefill = sans.join('\n');
  const sansFit = sansPrefill.length <= PLAIN_TEXT_INPUT_MAX;
  const meta = writeMetadata(OrderMeta, { channel });
  return formModal(ORDER_IDS.modal, meta, text.tls.orderModalTitle, text.tls.orderSubmit, [
    section(text.tls.orderNoPrivateKeys),
    // A newcomer without a CSR at hand learns how to make one, key included, where it will be used.
    section(text.tls.csrHowTo),
    inputBlock(ORDER_IDS.product, text.tls.productLabel, {
      type: 'static_select',
      options: TLS_PRODUCTS.map((p) => option(p.sku, p.name)),
      ...(product === undefined ? {} : { initial_option: option(product.sku, product.name) }),
    }),
    inputBlock(ORDER_IDS.cn, text.tls.commonNameLabel, {
      type: 'plain_text_input',
      placeholder: { type: 'plain_text', text: text.tls.commonNamePlaceholder },
      ...initial(renewalOf?.common_name),
    }),
    inputBlock(
      ORDER_IDS.sans,
      text.tls.sansLabel,
      { type: 'plain_text_input', multiline: true, ...initial(sansFit ? sansPrefill : undefined) },
      {
        optional: true,
        hint: sansFit ? text.tls.sansHint : text.tls.sansNotPrefilled({ count: sans.length }),
      },
    ),
    inputBlock(ORDER_IDS.csr, text.tls.csrLabel, {
      type: 'plain_text_input',
      multiline: true,
      max_length: 3000,
    }),
    dcvInput(ORDER_IDS.dcv),
    inputBlock(
      ORDER_IDS.emails,
      text.tls.validationEmailsLabel,
      { type: 'plain_text_input' },
      { optional: true, hint: text.tls.validationEmailsHint },
    ),
    inputBlock(
      ORDER_IDS.org,
      text.tls.orgIdLabel,
      { type: 'plain_text_input' },
      { optional: true, hint: text.tls.orgIdHint },
    ),
    inputBlock(
      ORDER_IDS.validity,
      text.tls.validityLabel,
      { type: 'number_input', is_decimal_allowed: false, min_value: '1', max_value: '3650' },
      { optional: true },
    ),
    inputBlock(
      ORDER_IDS.renewal,
      text.tls.renewalOfLabel,
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
  const metadata = writeMetadata(ReissueMeta, meta);
  return formModal(REISSUE_IDS.modal, metadata, text.tls.reissueModalTitle, text.tls.reissueSubmit, [
    section(text.tls.reissueIntro({ id: codeSpan(cert.id), commonName: codeSpan(cert.common_name), names })),
    inputBlock(REISSUE_IDS.csr, text.tls.newCsrLabel, {
      type: 'plain_text_input',
      multiline: true,
      max_length: 3000,
    }),
    dcvInput(REISSUE_IDS.dcv),
    inputBlock(
      REISSUE_IDS.comments,
      text.tls.commentLabel,
      { type: 'plain_text_input', max_length: 500 },
      { optional: true },
    ),
  ]);
}

/** Each organization field's label in the form. */
function orgLabels(): Record<OrganizationField, string> {
  return {
    organization: text.tls.organizationLabel,
    first_name: text.tls.firstNameLabel,
    last_name: text.tls.lastNameLabel,
    address: text.tls.streetAddressLabel,
    postal_code: text.tls.postalCodeLabel,
    city: text.tls.cityLabel,
    country_code: text.tls.countryCodeLabel,
    phone: text.tls.phoneLabel,
    email: text.tls.emailLabel,
  };
}

/** Organization form fields (see `OrganizationForm`) and their blocks. */
export const ORG_FIELDS = { ...ORG_IDS.fields, edit_mode: ORG_IDS.editMode } as const satisfies Record<
  keyof z.input<typeof OrganizationForm>,
  string
>;

/** New organization, or `meta.orgId` prefilled with `current` and a choice of how to apply the edit. */
export function orgModal(meta: z.infer<typeof OrgMeta>, current?: TlsOrganization): View {
  const labels = orgLabels();
  const blocks = ORGANIZATION_FIELDS.map((field) =>
    inputBlock(ORG_IDS.fields[field], labels[field], {
      type: 'plain_text_input',
      max_length: 200,
      ...initial(current?.[field]),
    }),
  );
  if (meta.orgId !== undefined) {
    const update = option('update_provider', text.tls.editModeUpdate);
    blocks.push(
      inputBlock(ORG_IDS.editMode, text.tls.editModeLabel, {
        type: 'radio_buttons',
        options: [update, option('create_replacement', text.tls.editModeReplace)],
        initial_option: update,
      }),
    );
  }
  const title = meta.orgId === undefined ? text.tls.newOrganizationTitle : text.tls.editOrganizationTitle;
  return formModal(ORG_IDS.modal, writeMetadata(OrgMeta, meta), title, text.tls.organizationSubmit, blocks);
}

/** Each revocation reason as the select offers it. */
function reasonLabels(): Record<RevocationReason, string> {
  return {
    unspecified: text.tls.reasonUnspecified,
    keyCompromise: text.tls.reasonKeyCompromise,
    affiliationChanged: text.tls.reasonAffiliationChanged,
    superseded: text.tls.reasonSuperseded,
    cessationOfOperation: text.tls.reasonCessationOfOperation,
  };
}

/** The reason for `/tls revoke|cancel ID`, asked when the command named none. */
export function reasonModal(meta: z.infer<typeof ReasonMeta>): View {
  const revoke = meta.kind === 'revoke';
  const id = codeSpan(meta.certificateId);
  const labels = reasonLabels();
  return formModal(
    REASON_IDS.modal,
    writeMetadata(ReasonMeta, meta),
    revoke ? text.tls.revokeModalTitle : text.tls.cancelModalTitle,
    text.tls.requestApprovalSubmit,
    [
      section(revoke ? text.tls.revokeQuestion({ id }) : text.tls.cancelQuestion({ id })),
      inputBlock(REASON_IDS.reason, text.tls.reasonLabel, {
        type: 'static_select',
        options: REVOCATION_REASONS.map((reason) => option(reason, labels[reason])),
      }),
    ],
  );
}
