/**
 * The only place the TLS feature's action, block and callback ids live; tests import them from here. An
 * input block's action id is derived from its block id (`inputActionId` in src/slack/modal.ts).
 */

/** The order modal (`/tls order`, and the Renew button prefilled). */
export const ORDER_IDS = {
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

/** Reissue modal and the Renew/Reissue buttons of a certificate card (button values: certificate id). */
export const REISSUE_IDS = {
  modal: 'tls.reissue.modal',
  csr: 'tls.reissue.csr',
  dcv: 'tls.reissue.dcv',
  comments: 'tls.reissue.comments',
  renewButton: 'tls.renew.open',
  reissueButton: 'tls.reissue.open',
} as const;

/** **Complete order** on a staged order's card (`action_required`), and its modal. */
export const COMPLETE_IDS = {
  button: 'tls.complete.open',
  modal: 'tls.complete.modal',
  org: 'tls.complete.org',
} as const;

/** The reason modal of `/tls revoke|cancel ID` without a reason. */
export const REASON_IDS = {
  modal: 'tls.reason.modal',
  reason: 'tls.reason',
} as const;

/** The organization modal: one input block per contact field, and the edit mode when editing. */
export const ORG_IDS = {
  modal: 'tls.org.modal',
  editMode: 'tls.org.edit_mode',
  fields: {
    organization: 'tls.org.organization',
    first_name: 'tls.org.first_name',
    last_name: 'tls.org.last_name',
    address: 'tls.org.address',
    postal_code: 'tls.org.postal_code',
    city: 'tls.org.city',
    country_code: 'tls.org.country_code',
    phone: 'tls.org.phone',
    email: 'tls.org.email',
  },
} as const;

/** The placeholder shown while a modal's content is read from the registrar; it has no submit button. */
export const LOADING_VIEW = 'tls.loading';
