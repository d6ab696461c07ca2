import type { Queue } from 'bullmq';
import type { WorkspaceRef } from '../../shared/workspace.js';
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
      .map((job) => `:gear: Executing approved request \`${job.data.requestId}\``);
    const following = (await followQueue.getJobs(['active', 'waiting', 'delayed'], 0, 200))
      .filter((job) => job.data.teamId === workspace.teamId)
      .map(
        (job) =>
          `:hourglass_flowing_sand: Following ${job.data.kind === 'dnssec' ? 'DNSSEC of' : 'certificate'} \`${job.data.resource}\` (check ${job.data.attempt + 1})`,
      );
    return [...executing, ...following];
  };
}
