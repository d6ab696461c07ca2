/** The only place the key modal's ids live. */
export const KEY_IDS = {
  modal: 'keys.modal',
  keyBlock: 'keys.key',
  keyInput: 'keys.key.value',
  removeBlock: 'keys.remove',
  removeInput: 'keys.remove.value',
  removeOption: 'remove',
} as const;
