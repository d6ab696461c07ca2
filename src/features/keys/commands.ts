import type { Subcommand } from '../../slack/router.js';
import { openModal } from '../../slack/views.js';
import { workspaceOf } from '../../slack/workspace.js';
import { text } from '../../text/index.js';
import { keyModal } from './blocks.js';
import type { KeyAdminCheck, WorkspaceKeys } from './service.js';

/** A trigger_id is good for 3 s (docs/requirements.md R2); past this, opening the modal would fail anyway. */
const TRIGGER_BUDGET_MS = 2_500;

export function keyCommand(keys: WorkspaceKeys, isAdmin: KeyAdminCheck): Subcommand {
  return {
    name: 'key',
    usage: () => text.workspace.keyUsage,
    summary: () => text.workspace.keySummary,
    run: async ({ ack, bolt, respond }) => {
      const started = Date.now();
      await ack();
      const ref = workspaceOf(bolt.body);
      const [admin, status] = await Promise.all([
        isAdmin(bolt.client, ref, bolt.body.user_id),
        keys.status(ref),
      ]);
      if (!admin) {
        await respond({
          response_type: 'ephemeral',
          text: text.workspace.keyNotAdmin,
        });
        return;
      }
      if (Date.now() - started > TRIGGER_BUDGET_MS) {
        await respond({
          response_type: 'ephemeral',
          text: text.workspace.keySlackTooSlow,
        });
        return;
      }
      await openModal(bolt.client, bolt.body.trigger_id, keyModal(status));
    },
  };
}
