/** The only place the record-change feature's action, callback and block ids live. */
export const RECORD_IDS = {
  /** The add/edit modal, and its inputs' blocks. */
  modal: 'records.modal',
  type: 'records.modal.type',
  name: 'records.modal.name',
  data: 'records.modal.data',
  ttl: 'records.modal.ttl',
  priority: 'records.modal.priority',
  /** The delete confirmation modal. */
  deleteModal: 'records.delete',
  /** Edit / Delete on a `/dns records` page (an overflow menu per record). */
  rowMenu: 'records.row',
  /** Revert on a change's outcome. */
  revert: 'records.revert',
} as const;

/** The overflow options' values on a records page: the verb and the registrar's record id. */
export const ROW_EDIT = 'edit';
export const ROW_DELETE = 'delete';
