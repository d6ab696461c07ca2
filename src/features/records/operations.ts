import { z } from 'zod';
import { text } from '../../text/index.js';
import { defineOperation, type Execution, type RegistrarContext } from '../approvals/operations.js';
import { changeCard, changeLines, changeSummary } from './blocks.js';
import { type MadeChange, RecordChange, type RecordChanges } from './changes.js';
import { recordFollowResource } from './follow.js';
import { makeChange, refusal } from './make.js';

const ChangeParams = z.lazy(() =>
  z.object({
    domain: z.string().min(1).max(253),
    change: RecordChange,
    /** Who asked: the change record names them, and the card says so. */
    by: z.string().min(1).max(32),
    revertOf: z.string().max(20).optional(),
    /** When the reverted change was made: the request says it (issue #41, a late revert may re-create a dangling name). */
    revertOfMadeAt: z.number().optional(),
  }),
);

/** What a made change reports: the outcome, its card with Revert, and the nameservers followed. */
export function executionOf(made: MadeChange): Execution {
  const summary = changeSummary(made.domain, made.change, made.revertOf);
  const value = made.change.kind === 'add' ? made.change.after : made.change.before;
  return {
    outcome: text.records.outcome({ summary, id: made.id }),
    offer: changeCard(made),
    // An ALIAS is answered as A/AAAA the registrar works out: nothing to compare it with on the wire.
    ...(value.type === 'ALIAS'
      ? {}
      : { follow: { kind: 'record' as const, resource: recordFollowResource(made) } }),
  };
}

/**
 * A DNS record added, changed or deleted (docs/requirements.md R47), when the policy says it needs
 * approval (`recordChangesNeedApproval`, unless the type or person is exempt). The request shows the
 * record before and after; the rules are checked when it is asked (a blocker) and again just before
 * it runs, on the zone as it is then, together with "the record is still what the approvers saw".
 */
export const changeRecord = defineOperation<
  RegistrarContext & { recordChanges: RecordChanges },
  'dns.record',
  z.infer<typeof ChangeParams>
>({
  name: 'dns.record',
  actionClass: 'record',
  undo: 'revert',
  schema: ChangeParams,
  summary: (p) => changeSummary(p.domain, p.change, p.revertOf, p.revertOfMadeAt),
  target: (p) => p.domain,
  preview: async ({ registrar }, p) => {
    const blocker = refusal(await registrar.dns.records(p.domain), p);
    return { details: changeLines(p.change), ...(blocker === undefined ? {} : { blocker }) };
  },
  precheck: async ({ registrar }, p) => refusal(await registrar.dns.records(p.domain), p),
  execute: async ({ registrar, recordChanges, workspace, now }, p) =>
    executionOf(await makeChange(registrar, recordChanges, workspace, p, now)),
});
