/** The only place the TLS feature's action, view and block ids live. */
export const TLS_IDS = {
  reasonModal: 'tls.reason.modal',
  reasonBlock: 'tls.reason',
  reasonInput: 'tls.reason.value',
} as const;
