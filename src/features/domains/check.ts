import type { KnownBlock } from '@slack/types';
import { replyForError } from '../../slack/error-reply.js';
import type { Subcommand } from '../../slack/router.js';
import { workspaceOf } from '../../slack/workspace.js';
import { text } from '../../text/index.js';
import { checkMessage } from './blocks.js';
import { type AvailabilityService, MAX_NAMES, planCheck, type WorkspaceAvailability } from './service.js';

/**
 * `/domain check`: acked at once with every name (invalid ones already marked), then checked by the
 * service. One ephemeral message shows every name; Slack allows five response_url uses, so it is
 * replaced at most four times after the first answer (docs/requirements.md R3).
 */
export function checkCommand(availability: AvailabilityService): Subcommand {
  return {
    name: 'check',
    usage: () => text.domains.checkUsage,
    summary: () => text.domains.checkSummary({ max: MAX_NAMES }),
    run: async ({ ack, rest, bolt, respond, logger }) => {
      const { rows, overflow } = planCheck(rest);
      if (rows.length === 0) {
        await ack({ response_type: 'ephemeral', text: text.domains.checkUsageReply({ max: MAX_NAMES }) });
        return;
      }
      await ack({ response_type: 'ephemeral', ...checkMessage(rows, overflow) });
      const pending = rows.filter((row) => row.state.kind === 'waiting').length;
      if (pending === 0) return;

      const replace = (message: { text: string; blocks: KnownBlock[] }) =>
        respond({ response_type: 'ephemeral', replace_original: true, ...message });
      let checks: WorkspaceAvailability & { release(): Promise<void> };
      try {
        checks = await availability.forWorkspace(workspaceOf(bolt.body), bolt.body.user_id, pending);
      } catch (error) {
        await replace(replyForError(error, logger, { nothingChanged: true }));
        return;
      }

      // Progress updates at a third and two thirds, then the final one: four uses at most.
      const milestones = new Set([Math.ceil(pending / 3), Math.ceil((2 * pending) / 3)]);
      let updates: Promise<unknown> = Promise.resolve();
      try {
        await checks.check(rows, (done) => {
          if (!milestones.has(done) || done >= pending) return;
          // Parallel checks may have answered every name by now: that would be the final card
          // sent twice, the first copy looking finished while the command still had a reply to send.
          if (!rows.some((row) => row.state.kind === 'waiting')) return;
          const snapshot = checkMessage(rows, overflow);
          updates = updates.then(() => replace(snapshot));
        });
      } finally {
        await checks.release();
      }
      await updates;
      await replace(checkMessage(rows, overflow));
    },
  };
}
