import type { App, BlockAction, ButtonAction } from '@slack/bolt';
import type { RegistrarClient } from '../../registrar/index.js';
import type { Logger } from '../../shared/logger.js';
import type { WorkspaceRef } from '../../shared/workspace.js';
import { onAction, onView, presser } from '../../slack/handlers.js';
import { readMetadata, stateOf } from '../../slack/modal.js';
import type { ChannelPoster } from '../../slack/poster.js';
import { replyPrivately } from '../../slack/reply.js';
import { workspaceOf } from '../../slack/workspace.js';
import { text } from '../../text/index.js';
import { type Requests, requestApproval } from '../approvals/request.js';
import type { AuditLog } from '../audit/service.js';
import type { Roles } from '../policy/permissions.js';
import type { RecordChange } from '../records/changes.js';
import { writable } from '../records/make.js';
import { DEFAULT_TTL } from '../records/rules.js';
import { ImportMetadata } from './commands.js';
import { CHANGESET_IDS } from './ids.js';
import { type MasterFileError, parseMasterFile } from './master-file.js';
import { applyChangeSet } from './operation.js';
import { type ImportMode, planChanges, untouchable } from './plan.js';
import type { ChangeSets } from './store.js';

export interface ChangeSetViewDeps {
  registrarFor(workspace: WorkspaceRef): RegistrarClient;
  approvals: Requests<typeof applyChangeSet>;
  changeSets: ChangeSets;
  roles: Pick<Roles, 'check'>;
  audit: AuditLog;
  poster: ChannelPoster;
  logger: Logger;
  now: () => number;
}

/** The errors a field shows: the first few, each naming its line (Slack shows a field error whole). */
const SHOWN_ERRORS = 5;

/** Each code's words (text.changesets): the error carries the parameters its entry takes. */
const FILE_ERRORS = {
  unterminated_quote: () => text.changesets.fileUnterminatedQuote,
  unbalanced_paren: () => text.changesets.fileUnbalancedParen,
  bad_escape: (error) => text.changesets.fileBadEscape(error),
  include_refused: () => text.changesets.fileIncludeRefused,
  unknown_directive: (error) => text.changesets.fileUnknownDirective(error),
  bad_directive: (error) => text.changesets.fileBadDirective(error),
  no_owner: () => text.changesets.fileNoOwner,
  bad_name: (error) => text.changesets.fileBadName(error),
  outside_origin: (error) => text.changesets.fileOutsideOrigin(error),
  bad_ttl: (error) => text.changesets.fileBadTtl(error),
  bad_class: (error) => text.changesets.fileBadClass(error),
  missing_type: () => text.changesets.fileMissingType,
  unknown_type: (error) => text.changesets.fileUnknownType(error),
  bad_rdata: (error) => text.changesets.fileBadRdata(error),
  bad_address: (error) => text.changesets.fileBadAddress(error),
  bad_number: (error) => text.changesets.fileBadNumber(error),
  bad_target: (error) => text.changesets.fileBadTarget(error),
  bad_caa: (error) => text.changesets.fileBadCaa(error),
  bad_text: () => text.changesets.fileBadText,
  too_many_errors: (error) => text.changesets.fileTooManyErrors(error),
} satisfies {
  [Code in MasterFileError['code']]: (error: Extract<MasterFileError, { code: Code }>) => string;
};

function fileErrorText(error: MasterFileError): string {
  // TypeScript cannot relate the indexed entry to the narrowed error: each entry takes its own code's.
  const say = FILE_ERRORS[error.code] as (error: MasterFileError) => string;
  return text.changesets.importLineError({ line: error.line, problem: say(error) });
}

/**
 * The change that undoes a step that was done: an add by deleting what it created, and so on; a
 * record a cutover lowered comes back with the TTL it had before (`lowered`).
 */
function undo(
  step: RecordChange,
  created: number | undefined,
  lowered: number | undefined,
): RecordChange | undefined {
  switch (step.kind) {
    case 'add':
      return created === undefined || created === 0
        ? undefined
        : { kind: 'delete', id: created, before: step.after };
    case 'edit':
      return { kind: 'edit', id: step.id, before: step.after, after: step.before };
    case 'delete':
      return { kind: 'add', after: lowered === undefined ? step.before : { ...step.before, ttl: lowered } };
  }
}

/**
 * The import modal's submission (a parse error names its line on the field; nothing is read before
 * the text parses) and **Revert change set**: each becomes one approval request for the whole set.
 */
export function registerChangeSetViews(app: App, deps: ChangeSetViewDeps): void {
  const { logger } = deps;
  onView(app, CHANGESET_IDS.importModal, logger, async ({ body, view, client }) => {
    const { domain, channel } = readMetadata(ImportMetadata, view.private_metadata);
    const source = stateOf(view.state.values, CHANGESET_IDS.importText).value ?? '';
    const mode = (stateOf(view.state.values, CHANGESET_IDS.importMode).selected_option?.value ??
      'merge') as ImportMode;
    if (source.trim() === '')
      return {
        answer: {
          response_action: 'errors',
          errors: { [CHANGESET_IDS.importText]: text.changesets.importEmpty },
        },
      };
    const at = stateOf(view.state.values, CHANGESET_IDS.importAt).selected_date_time;
    const applyAt = at === undefined || at === null ? undefined : at * 1000;
    if (applyAt !== undefined && applyAt <= deps.now())
      return {
        answer: {
          response_action: 'errors',
          errors: { [CHANGESET_IDS.importAt]: text.changesets.importAtPast },
        },
      };
    const lowerTtls =
      applyAt !== undefined &&
      (stateOf(view.state.values, CHANGESET_IDS.importLower).selected_options ?? []).some(
        (option) => option.value === 'lower',
      );
    const parsed = parseMasterFile(source, domain);
    if (!parsed.ok) {
      const lines = parsed.errors.slice(0, SHOWN_ERRORS).map(fileErrorText);
      if (parsed.errors.length > SHOWN_ERRORS)
        lines.push(text.changesets.importMoreErrors({ count: parsed.errors.length - SHOWN_ERRORS }));
      return {
        answer: { response_action: 'errors', errors: { [CHANGESET_IDS.importText]: lines.join('\n') } },
      };
    }
    const workspace = workspaceOf(body);
    const user = body.user.id;
    const requester = { user, client, channel };
    return {
      after: async () => {
        const current = await deps.registrarFor(workspace).dns.records(domain);
        const wanted = parsed.records.map(({ name, type, data, ttl, priority }) => ({
          name,
          type,
          data,
          // No TTL in the text and no `$TTL`: the registrar's default, as a record added in Slack gets.
          ttl: ttl ?? DEFAULT_TTL,
          ...(priority === undefined ? {} : { priority }),
        }));
        const plan = planChanges(domain, current, wanted, mode);
        if (plan.steps.length === 0) {
          await replyPrivately(
            requester,
            { text: text.changesets.nothingToChange({ domain, unchanged: plan.unchanged }) },
            logger,
          );
          return;
        }
        await requestApproval(
          deps.approvals,
          {
            workspace,
            user,
            channel,
            operation: applyChangeSet,
            params: {
              domain,
              steps: plan.steps,
              unchanged: plan.unchanged,
              manageable: plan.manageable,
              by: user,
              ...(applyAt === undefined ? {} : { applyAt, lowerTtls }),
            },
          },
          requester,
          logger,
        );
      },
    };
  });

  onAction<BlockAction<ButtonAction>>(app, CHANGESET_IDS.revert, logger, async (args) => {
    const { body, action } = args;
    const workspace = workspaceOf(body);
    const who = { ...presser(args), ...(body.channel?.id === undefined ? {} : { channel: body.channel.id }) };
    const run = await deps.changeSets.get(workspace, action.value ?? '');
    if (run === undefined) {
      await replyPrivately(who, { text: text.changesets.revertGone }, logger);
      return;
    }
    const steps = run.steps
      .slice(0, run.done)
      .map((step, index) =>
        undo(
          step,
          run.created[String(index)],
          step.kind === 'add' ? undefined : run.lowered[String(step.id)],
        ),
      )
      .filter((step): step is RecordChange => step !== undefined)
      .reverse();
    if (steps.length === 0) {
      await replyPrivately(who, { text: text.changesets.revertNothing }, logger);
      return;
    }
    const current = await deps.registrarFor(workspace).dns.records(run.domain);
    const manageable = current.filter((record) => !untouchable(run.domain, record)).length;
    await requestApproval(
      deps.approvals,
      {
        workspace,
        user: body.user.id,
        channel: run.thread?.channel ?? body.channel?.id ?? '',
        operation: applyChangeSet,
        params: { domain: run.domain, steps, unchanged: 0, manageable, by: body.user.id, revertOf: run.id },
        trigger: body.trigger_id,
      },
      who,
      logger,
    );
  });

  // Cancel a scheduled cutover: only while it waits; the lowered TTLs are put back and it is audited.
  onAction<BlockAction<ButtonAction>>(app, CHANGESET_IDS.cancel, logger, async (args) => {
    const { body, action, client } = args;
    const workspace = workspaceOf(body);
    const who = { ...presser(args), ...(body.channel?.id === undefined ? {} : { channel: body.channel.id }) };
    const setId = action.value ?? '';
    const access = await deps.roles.check(client, workspace, body.user.id, 'request', {
      operation: 'dns.changeset.cancel',
      target: setId,
    });
    if (!access.allowed) {
      await replyPrivately(who, { text: text.slack.refused({ reason: access.reason }) }, logger);
      return;
    }
    const run = await deps.changeSets.transition(workspace, setId, 'scheduled', 'cancelled');
    if (run === undefined) {
      const found = await deps.changeSets.get(workspace, setId);
      const said =
        found === undefined
          ? text.changesets.revertGone
          : text.changesets.cancelTooLate({ state: found.state });
      await replyPrivately(who, { text: said }, logger);
      return;
    }
    await deps.changeSets.unschedule(run.id);
    const registrar = deps.registrarFor(workspace);
    let restored = 0;
    for (const step of run.steps) {
      if (step.kind === 'add') continue;
      const ttl = run.lowered[String(step.id)];
      if (ttl === undefined) continue;
      await registrar.dns.updateRecord(step.id, writable({ ...step.before, ttl }));
      restored += 1;
    }
    await deps.audit.append(workspace, {
      action: 'record_change',
      actor: body.user.id,
      operation: 'dns.changeset',
      target: run.domain,
      outcome: text.changesets.auditCancelled({ id: run.id }),
    });
    const said = text.changesets.cancelled({ id: run.id, restored });
    if (run.thread !== undefined)
      await deps.poster.post(client, { channel: run.thread.channel, thread_ts: run.thread.ts, text: said });
    else await replyPrivately(who, { text: said }, logger);
  });
}
