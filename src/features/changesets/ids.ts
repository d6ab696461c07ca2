/** The change sets feature's action, view and block ids (button values carry only an id, R10). */
export const CHANGESET_IDS = {
  /** Revert change set (value: the change set's id). */
  revert: 'changesets.revert',
  /** Cancel a scheduled cutover (value: the change set's id). */
  cancel: 'changesets.cancel',
  importAt: 'changesets.import.at',
  importLower: 'changesets.import.lower',
  importModal: 'changesets.import.modal',
  importText: 'changesets.import.text',
  importMode: 'changesets.import.mode',
} as const;
