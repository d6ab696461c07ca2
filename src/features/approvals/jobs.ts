import type { WebClient } from '@slack/web-api';
import type { Job, Queue } from 'bullmq';
import { type WorkspaceRef, workspaceFields } from '../../shared/workspace.js';
import type { Languages } from '../../slack/language.js';
import type { ApprovalRequest } from './record.js';
import type { ApprovalDecisions, ApprovalScheduler } from './service.js';

export const APPROVALS_QUEUE = 'approvals';

/** Job data: ids only (docs/requirements.md R18; R2: never a trigger_id or response_url). */
export interface ApprovalJob {
  teamId: string;
  enterpriseId?: string;
  requestId: string;
}

function jobData(request: ApprovalRequest): ApprovalJob {
  return {
    ...workspaceFields(request.workspace),
    requestId: request.id,
  };
}

/** The approvers' one reminder goes out when this share of the request's lifetime has passed. */
const REMIND_AT = 0.8;

/**
 * Execution is a job, expiry and the reminder delayed jobs. Deterministic job ids make a repeated
 * enqueue (a retried Slack delivery, a concurrent press) collapse into the one job BullMQ already has.
 */
export function approvalScheduler(queue: Queue<ApprovalJob>, now: () => number): ApprovalScheduler {
  const ids = (request: ApprovalRequest) => ({
    expire: `expire-${request.id}`,
    remind: `remind-${request.id}`,
  });
  return {
    schedule: async (request) => {
      const remindAt = request.createdAt + (request.expiresAt - request.createdAt) * REMIND_AT;
      const retried = { attempts: 5, backoff: { type: 'exponential', delay: 5_000 } };
      await queue.addBulk([
        {
          name: 'expire',
          data: jobData(request),
          opts: { jobId: ids(request).expire, delay: Math.max(0, request.expiresAt - now()), ...retried },
        },
        {
          name: 'remind',
          data: jobData(request),
          opts: { jobId: ids(request).remind, delay: Math.max(0, remindAt - now()), ...retried },
        },
      ]);
    },
    cancel: async (request) => {
      await Promise.all(Object.values(ids(request)).map((id) => queue.remove(id)));
    },
    execute: async (request) => {
      await queue.add('execute', jobData(request), {
        jobId: `execute-${request.id}`,
        attempts: 1, // never run an approved action twice: a re-run is detected by the state machine instead
      });
    },
  };
}

export function approvalProcessor(
  service: ApprovalDecisions,
  slackFor: (workspace: WorkspaceRef) => Promise<WebClient>,
  languages: Pick<Languages, 'inWorkspaceLanguage'>,
): (job: Job<ApprovalJob>) => Promise<void> {
  return async (job) => {
    const { requestId } = job.data;
    const workspace = workspaceFields(job.data);
    const client = await slackFor(workspace);
    // Outcomes, reminders and edits of the request's messages are for the channel (contract §3).
    await languages.inWorkspaceLanguage(workspace, async () => {
      if (job.name === 'execute') await service.execute(workspace, requestId, client);
      else if (job.name === 'expire') await service.expire(workspace, requestId, client);
      else if (job.name === 'remind') await service.remind(workspace, requestId, client);
    });
  };
}
