/**
 * The only place the key modal's ids live. Input elements' action ids are derived from their block
 * ids (`inputActionId` in slack/modal.ts).
 */
export const KEY_IDS = {
  modal: 'keys.modal',
  keyBlock: 'keys.key',
  removeBlock: 'keys.remove',
  /** The value of the one "remove the stored key" checkbox. */
  removeOption: 'remove',
} as const;
