import type { Queue } from 'bullmq';
import type { WorkspaceRef } from '../../shared/workspace.js';
import { text } from '../../text/index.js';
import type { ApprovalJob } from '../approvals/jobs.js';
import type { FollowJob } from '../follow/jobs.js';

/** App Home's "running" list: one line per queued or running job of the workspace (executions, followers). */
export function runningJobsOf(
  approvalQueue: Pick<Queue<ApprovalJob>, 'getJobs'>,
  followQueue: Pick<Queue<FollowJob>, 'getJobs'>,
): (workspace: WorkspaceRef) => Promise<string[]> {
  return async (workspace) => {
    const executing = (await approvalQueue.getJobs(['active', 'waiting']))
      .filter((job) => job.data.teamId === workspace.teamId && job.name === 'execute')
      .map((job) => text.workspace.homeRunningExecution({ id: job.data.requestId }));
    const following = (await followQueue.getJobs(['active', 'waiting', 'delayed'], 0, 200))
      .filter((job) => job.data.teamId === workspace.teamId)
      .map((job) =>
        text.workspace.homeRunningFollow({
          kind: job.data.kind,
          resource: job.data.resource,
          check: job.data.attempt + 1,
        }),
      );
    return [...executing, ...following];
  };
}
