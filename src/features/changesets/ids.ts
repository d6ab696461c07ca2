/** The change sets feature's action, view and block ids (button values carry only an id, R10). */
export const CHANGESET_IDS = {
  /** Revert change set (value: the change set's id). */
  revert: 'changesets.revert',
  importModal: 'changesets.import.modal',
  importText: 'changesets.import.text',
  importMode: 'changesets.import.mode',
} as const;
