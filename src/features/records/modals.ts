import type { View } from '@slack/types';
import type { DnsRecord, RegistrarClient } from '../../registrar/index.js';
import { AppError } from '../../shared/app-error.js';
import type { WorkspaceRef } from '../../shared/workspace.js';
import { text } from '../../text/index.js';
import { deleteModal, recordModal } from './blocks.js';
import type { RecordCapability } from './capability.js';
import type { RecordChanges } from './changes.js';
import { checkChange, recordValueOf } from './rules.js';

export interface ModalDeps {
  recordChanges: RecordChanges;
  recordCapability: RecordCapability;
}

/** What a modal is opened for: a new record, or the record `id` to edit or delete. */
export type ModalPurpose = { kind: 'add' } | { kind: 'edit' | 'delete'; id: number };

/** Refuses with the sentence the person reads (in the modal, which `openThenFill` shows). */
const refuse = (said: string): never => {
  throw new AppError('regdesk_record_change_refused', said);
};

/**
 * The modal for `purpose`, filled from the zone as it is now: its records read once, kept as the
 * draft the submission checks every rule against, and the registrar's record endpoints probed first
 * (a registrar without them hears so before typing anything).
 */
export async function modalFor(
  deps: ModalDeps,
  registrar: RegistrarClient,
  workspace: WorkspaceRef,
  where: { domain: string; channel: string },
  purpose: ModalPurpose,
): Promise<View> {
  const records = await registrar.dns.records(where.domain);
  if (!(await deps.recordCapability.offered(workspace, registrar, records))) refuse(text.records.notOffered);
  const target = (recordId?: number) => ({ ...where, ...(recordId === undefined ? {} : { recordId }) });
  if (purpose.kind === 'add') {
    const draft = await deps.recordChanges.draft(workspace, { ...target(), records });
    return recordModal({ ...target(), draft });
  }
  const before = recordToChange(records, where.domain, purpose.id);
  const draft = await deps.recordChanges.draft(workspace, { ...target(purpose.id), records });
  return purpose.kind === 'edit'
    ? recordModal({ ...target(purpose.id), draft }, before)
    : deleteModal({ ...target(purpose.id), draft }, before);
}

/** The record `id` of the zone as a value, or the reason it may not change (not in the zone, `auto`, the apex NS). */
export function recordToChange(records: readonly DnsRecord[], domain: string, id: number) {
  const errors = checkChange(domain, records, { kind: 'delete', id });
  const reason = Object.values(errors).find((error) => error !== undefined);
  if (reason !== undefined) refuse(reason);
  const value = recordValueOf(records.find((record) => record.id === id) ?? { name: '', type: '' });
  return value ?? refuse(text.records.notInZone({ id, zone: domain }));
}
