import type { RegistrarClient } from '../../registrar/index.js';
import type { Logger } from '../../shared/logger.js';
import type { WorkspaceRef } from '../../shared/workspace.js';
import type { Submitter } from '../../slack/modal-flow.js';
import type { ChannelPoster } from '../../slack/poster.js';
import { text } from '../../text/index.js';
import type { ParamsOf } from '../approvals/operations.js';
import { type Requests, requestUnlessExempt } from '../approvals/request.js';
import { type AuditLog, hashParams } from '../audit/service.js';
import { announceChange } from '../follow/announce.js';
import type { Origin } from '../follow/jobs.js';
import type { Roles } from '../policy/permissions.js';
import type { PolicyStore } from '../policy/policy.js';
import { needsApproval } from '../policy/rules.js';
import { changeCard, changeSummary } from './blocks.js';
import type { MadeChange, RecordChanges } from './changes.js';
import { type ChangeRequest, makeChange } from './make.js';
import { changeRecord, executionOf } from './operations.js';

export interface SubmitDeps {
  registrarFor(workspace: WorkspaceRef): RegistrarClient;
  recordChanges: RecordChanges;
  policies: PolicyStore;
  roles: Roles;
  approvals: Requests<typeof changeRecord>;
  audit: AuditLog;
  poster: ChannelPoster;
  follow(workspace: WorkspaceRef, kind: 'record', resource: string, origin: Origin): Promise<void>;
  logger: Logger;
  now: () => number;
}

/**
 * A record change someone submitted (a modal, a command, Revert): an approval request unless the
 * policy exempts its type or its requester (docs/requirements.md R47), else made at once by the same
 * code an approved request runs, announced in the channel with **Revert**, followed until the zone's
 * nameservers serve it, and audited. An unreadable policy is the strictest one: a request, which the
 * request then refuses (R41).
 */
export async function submitChange(
  deps: SubmitDeps,
  workspace: WorkspaceRef,
  who: Submitter,
  request: ChangeRequest,
): Promise<void> {
  const { change } = request;
  const type = change.kind === 'add' ? change.after.type : change.before.type;
  const params = {
    domain: request.domain,
    change,
    by: who.user,
    ...(request.revertOf === undefined ? {} : { revertOf: request.revertOf }),
    ...(request.revertOfMadeAt === undefined ? {} : { revertOfMadeAt: request.revertOfMadeAt }),
  };
  const input = { workspace, user: who.user, channel: who.channel, operation: changeRecord, params };
  await requestUnlessExempt(
    deps,
    input,
    who,
    (rules) => !needsApproval(rules, who.user, type) && !lateRevert(request, deps.now()),
    () => makeNow(deps, workspace, who, params),
  );
}

/**
 * A revert of a change made more than a day ago always needs an approval, whatever the policy exempts:
 * the zone has moved on since, and putting the old record back may point a name at something that is
 * gone (a dangling CNAME), so a second person looks first (issue #41).
 */
const LATE_REVERT_MS = 24 * 3_600_000;
function lateRevert(request: ChangeRequest, now: number): boolean {
  return request.revertOfMadeAt !== undefined && now - request.revertOfMadeAt > LATE_REVERT_MS;
}

/**
 * The change made at once (the policy exempts it): announced with Revert, followed, audited before the
 * registrar write and after it, also when it fails (contract §3 "Audit": what was asked, what was not).
 */
async function makeNow(
  deps: SubmitDeps,
  workspace: WorkspaceRef,
  who: Submitter,
  params: ParamsOf<typeof changeRecord>,
): Promise<void> {
  const entry = {
    action: 'record_change' as const,
    actor: who.user,
    operation: changeRecord.name,
    target: params.domain,
    paramsHash: hashParams(params),
  };
  await deps.audit.append(workspace, {
    ...entry,
    outcome: `asked: ${changeSummary(params.domain, params.change, params.revertOf, params.revertOfMadeAt)}`,
  });
  let made: MadeChange;
  try {
    made = await makeChange(deps.registrarFor(workspace), deps.recordChanges, workspace, params, deps.now());
  } catch (error) {
    await deps.audit.append(workspace, {
      ...entry,
      outcome: `not made: ${error instanceof Error ? error.message : String(error)}`,
    });
    throw error;
  }
  const execution = executionOf(made);
  const followed = execution.follow;
  await deps.audit.append(workspace, { ...entry, outcome: execution.outcome });
  await announceChange(
    deps,
    who,
    changeCard(made),
    followed === undefined
      ? undefined
      : {
          start: (origin) => deps.follow(workspace, 'record', followed.resource, origin),
          showCommand: text.records.showCommand({ domain: params.domain }),
        },
  );
}
