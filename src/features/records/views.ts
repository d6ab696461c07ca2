import type { App, BlockAction, ButtonAction, OverflowAction } from '@slack/bolt';
import { registrableDomain } from '../../shared/domain-names.js';
import type { Logger } from '../../shared/logger.js';
import { onAction, onView, presser } from '../../slack/handlers.js';
import { readMetadata, stateOf } from '../../slack/modal.js';
import { afterAck, openThenFill } from '../../slack/modal-flow.js';
import { replyPrivately } from '../../slack/reply.js';
import { workspaceOf } from '../../slack/workspace.js';
import { text } from '../../text/index.js';
import type { RecordChange } from './changes.js';
import { RECORD_IDS, ROW_DELETE, ROW_EDIT } from './ids.js';
import { revertOf } from './make.js';
import { type ModalDeps, modalFor, recordToChange } from './modals.js';
import { changeRecord } from './operations.js';
import { checkChange, type RuleErrors, readDraft, recordValueOf } from './rules.js';
import { type SubmitDeps, submitChange } from './submit.js';
import { ModalTarget } from './targets.js';

export type RecordViewDeps = SubmitDeps & ModalDeps;

/** The input block each rule's error belongs on; a whole-record error shows on the data. */
function errorBlocks(errors: RuleErrors, editing: boolean): Record<string, string> {
  const blocks: Record<string, string> = {};
  const put = (block: string, message: string | undefined) => {
    if (message !== undefined) blocks[block] ??= message;
  };
  // When editing, the type is shown, not asked: its errors go on the name.
  put(editing ? RECORD_IDS.name : RECORD_IDS.type, errors.type);
  put(RECORD_IDS.name, errors.name);
  put(RECORD_IDS.data, errors.data);
  put(RECORD_IDS.ttl, errors.ttl);
  put(RECORD_IDS.priority, errors.priority);
  put(RECORD_IDS.data, errors.record);
  return blocks;
}

/**
 * The record modals' submissions, Edit/Delete on records pages and Revert on a change's card. Every
 * rule is checked at submission against the zone's records kept when the modal opened, so a wrong
 * field is answered on the field (`response_action: errors`) before anything is sent; the request or
 * the change runs after the ack (docs/requirements.md R1) and is checked again on the zone as it is then.
 */
export function registerRecordViews(app: App, deps: RecordViewDeps, logger: Logger): void {
  onView(app, RECORD_IDS.modal, logger, async ({ body, view, client }) => {
    const target = readMetadata(ModalTarget, view.private_metadata);
    const workspace = workspaceOf(body);
    const draft = await deps.recordChanges.drafted(workspace, target.draft);
    if (draft === undefined)
      return { answer: { response_action: 'errors', errors: { [RECORD_IDS.data]: text.records.draftGone } } };
    const values = view.state.values;
    const editing =
      target.recordId === undefined ? undefined : draft.records.find((r) => r.id === target.recordId);
    const before = editing === undefined ? undefined : recordValueOf(editing);
    const typed = (block: string) => stateOf(values, block).value ?? undefined;
    const read = readDraft(target.domain, {
      type: before?.type ?? stateOf(values, RECORD_IDS.type).selected_option?.value ?? '',
      name: typed(RECORD_IDS.name) ?? '',
      data: typed(RECORD_IDS.data) ?? '',
      ttl: typed(RECORD_IDS.ttl),
      priority: typed(RECORD_IDS.priority),
    });
    const editingNow = target.recordId !== undefined;
    if ('errors' in read)
      return { answer: { response_action: 'errors', errors: errorBlocks(read.errors, editingNow) } };
    if (editingNow && (before === undefined || target.recordId === undefined))
      return { answer: { response_action: 'errors', errors: { [RECORD_IDS.data]: text.records.draftGone } } };
    const change: RecordChange =
      before === undefined || target.recordId === undefined
        ? { kind: 'add', after: read.value }
        : { kind: 'edit', id: target.recordId, before, after: read.value };
    const errors = checkChange(
      target.domain,
      draft.records,
      change.kind === 'add' ? change : { kind: 'edit', id: change.id, after: change.after },
    );
    if (Object.keys(errors).length > 0)
      return { answer: { response_action: 'errors', errors: errorBlocks(errors, editingNow) } };
    const who = { client, user: body.user.id, channel: target.channel };
    return {
      after: afterAck(who, logger, () =>
        submitChange(deps, workspace, who, { domain: target.domain, change, by: who.user }),
      ),
    };
  });

  onView(app, RECORD_IDS.deleteModal, logger, async ({ body, view, client }) => {
    const target = readMetadata(ModalTarget, view.private_metadata);
    const workspace = workspaceOf(body);
    const draft = await deps.recordChanges.drafted(workspace, target.draft);
    const who = { client, user: body.user.id, channel: target.channel };
    const id = target.recordId;
    return {
      after: afterAck(who, logger, async () => {
        if (id === undefined) throw new Error('delete modal without a record');
        // The record as the person saw it; an expired draft is read again (the rules look at it anyway).
        const records = draft?.records ?? (await deps.registrarFor(workspace).dns.records(target.domain));
        const before = recordToChange(records, target.domain, id);
        await submitChange(deps, workspace, who, {
          domain: target.domain,
          change: { kind: 'delete', id, before },
          by: who.user,
        });
      }),
    };
  });

  // Edit or Delete on a records page: the record is read by its id, its zone found from its name.
  onAction<BlockAction<OverflowAction>>(app, RECORD_IDS.rowMenu, logger, async ({ body, action, client }) => {
    const [verb, idText] = action.selected_option.value.split(':');
    const id = Number(idText);
    if ((verb !== ROW_EDIT && verb !== ROW_DELETE) || !Number.isSafeInteger(id))
      throw new Error('malformed record menu value');
    const workspace = workspaceOf(body);
    const user = body.user.id;
    const channel = body.channel?.id ?? user;
    await openThenFill(
      client,
      body.trigger_id,
      verb === ROW_EDIT ? text.records.editTitle : text.records.deleteTitle,
      async () => {
        const registrar = deps.registrarFor(workspace);
        const record = await registrar.dns.getRecord(id);
        const domain = registrableDomain(record.name.replace(/\.$/, '')) ?? record.name;
        await deps.roles.require(client, workspace, user, changeRecord.permission, {
          operation: changeRecord.name,
          target: domain,
        });
        return modalFor(deps, registrar, workspace, { domain, channel }, { kind: verb, id });
      },
      logger,
    );
  });

  // Revert: the change that undoes a made one, under the same rules and policy as any other.
  onAction<BlockAction<ButtonAction>>(app, RECORD_IDS.revert, logger, async (args) => {
    const workspace = workspaceOf(args.body);
    const id = args.action.value ?? '';
    const made = await deps.recordChanges.get(workspace, id);
    const person = presser(args);
    if (made === undefined) {
      await replyPrivately(person, { text: text.records.revertGone({ id }) }, logger);
      return;
    }
    const user = args.body.user.id;
    const who = {
      client: args.client,
      user,
      channel: args.body.channel?.id ?? user,
      ...(person.respond ? { respond: person.respond } : {}),
    };
    await submitChange(deps, workspace, who, {
      domain: made.domain,
      change: revertOf(made),
      by: user,
      revertOf: made.id,
      revertOfMadeAt: made.at,
    });
  });
}
