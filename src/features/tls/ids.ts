/** The only place the TLS feature's action, view and block ids live. */
export const TLS_IDS = {
  reasonModal: 'tls.reason.modal',
  reasonBlock: 'tls.reason',
  reasonInput: 'tls.reason.value',
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
