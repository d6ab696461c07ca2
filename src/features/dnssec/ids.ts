/**
 * The only place the DNSSEC feature's action, view and block ids live. The records input's action
 * id is derived from its block (`inputActionId` in src/slack/modal.ts).
 */
export const EXTERNAL_IDS = {
  /** The "Enter DNSSEC records" button; its value is the `ExternalTarget` metadata. */
  open: 'dnssec.external.open',
  modal: 'dnssec.external.modal',
  block: 'dnssec.external.records',
} as const;
