import type { Queue } from 'bullmq';
import { z } from 'zod';
import { AppError } from '../../shared/app-error.js';
import { codeSpan } from '../../slack/mrkdwn.js';
import { text } from '../../text/index.js';
import { defineOperation, type RegistrarContext } from '../approvals/operations.js';
import { outcomeMessage, stepLine } from './blocks.js';
import type { PublishJob } from './jobs.js';
import { planFor } from './plan.js';
import { publishRecords } from './service.js';
import type { PublishedRecords } from './store.js';
import type { ValidationLedger } from './validation-ledger.js';

const PublishParams = z.lazy(() => z.object({ certificateId: z.string().min(1).max(200) }));

/**
 * Publishing a certificate's validation records as an approval request, when the policy says so
 * (`validationPublishing`: always, or whenever someone other than the orderer publishes or Regdesk's
 * own stale record is replaced). The approvers see the plan; what runs is the same `publishRecords`
 * a press without approval runs, the records again taken from what Regdesk kept at the order.
 */
export const publishValidation = defineOperation<
  RegistrarContext & {
    validations: ValidationLedger;
    published: PublishedRecords;
    publishQueue: Queue<PublishJob>;
  },
  'tls.publish',
  z.infer<typeof PublishParams>
>({
  name: 'tls.publish',
  actionClass: 'publish',
  permission: 'order',
  schema: PublishParams,
  summary: (p) => text.publish.requestSummary({ id: p.certificateId }),
  target: (p) => p.certificateId,
  preview: async ({ registrar, validations, published, workspace }, p) => {
    const known = await validations.recall(workspace, p.certificateId);
    if (known === undefined)
      return { details: [], blocker: text.publish.notOurs({ id: codeSpan(p.certificateId) }) };
    const steps = await planFor(registrar, known.records, await published.owned(workspace));
    const lines = steps.map((step) => stepLine(step, () => text.diagnostics.factsNone));
    const stuck = steps.some((step) => step.action === 'blocked' || step.action === 'elsewhere');
    return stuck
      ? { details: lines, blocker: outcomeMessage(p.certificateId, { kind: 'plan', steps }).text }
      : { details: lines };
  },
  precheck: async () => undefined,
  execute: async (
    { registrar, validations, published, workspace, now, requester, thread, publishQueue },
    p,
  ) => {
    const user = requester ?? '';
    const outcome = await publishRecords(
      {
        registrarFor: () => registrar,
        validations,
        published,
        publishQueue,
        now: () => now,
      },
      workspace,
      p.certificateId,
      // The confirmation and the removal report in the request's thread.
      thread === undefined ? { channel: user, user } : { channel: thread.channel, threadTs: thread.ts, user },
    );
    const said = outcomeMessage(p.certificateId, outcome).text;
    if (outcome.kind !== 'written') throw new AppError('regdesk_publish_not_written', said);
    return { outcome: said };
  },
});
