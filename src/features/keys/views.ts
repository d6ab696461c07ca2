import type { App } from '@slack/bolt';
import type { Logger } from '../../shared/logger.js';
import { replyForError } from '../../slack/error-reply.js';
import { workspaceOf } from '../../slack/workspace.js';
import { checkingModal, doneModal, keyModal } from './blocks.js';
import { KEY_IDS } from './ids.js';
import type { KeyAdminCheck, WorkspaceKeys } from './service.js';

export function registerKeyModal(
  app: App,
  keys: WorkspaceKeys,
  isAdmin: KeyAdminCheck,
  logger: Logger,
): void {
  app.view(KEY_IDS.modal, async ({ ack, body, view, client }) => {
    const values = view.state.values;
    const apiKey = values[KEY_IDS.keyBlock]?.[KEY_IDS.keyInput]?.value?.trim() ?? '';
    const remove =
      values[KEY_IDS.removeBlock]?.[KEY_IDS.removeInput]?.selected_options?.some(
        (option) => option.value === KEY_IDS.removeOption,
      ) ?? false;

    // Input errors are answered inline on the field (response_action: errors), before any I/O.
    if (remove && apiKey !== '') {
      await ack({
        response_action: 'errors',
        errors: { [KEY_IDS.keyBlock]: 'Either paste a new key or remove the stored one, not both.' },
      });
      return;
    }
    if (!remove && apiKey === '') {
      await ack({ response_action: 'errors', errors: { [KEY_IDS.keyBlock]: 'Paste the API key to store.' } });
      return;
    }
    if (/\s/.test(apiKey)) {
      await ack({
        response_action: 'errors',
        errors: { [KEY_IDS.keyBlock]: 'An API key has no spaces or line breaks.' },
      });
      return;
    }
    // The registrar check is slow I/O: ack with a "checking" view, then update it (docs/requirements.md R1).
    await ack({ response_action: 'update', view: checkingModal() });

    const ref = workspaceOf(body);
    const user = body.user.id;
    const show = (next: ReturnType<typeof doneModal>) =>
      client.views.update({ view_id: view.id, view: next });
    try {
      if (!(await isAdmin(client, ref, user))) {
        await show(doneModal(':lock: Only workspace admins and owners can change the registrar API key.'));
        return;
      }
      if (remove) {
        const removed = await keys.remove(ref, user);
        await show(doneModal(removed ? ':wastebasket: The stored key was removed.' : 'No key was stored.'));
        return;
      }
      const result = await keys.set(ref, apiKey, user);
      if (result.ok) {
        const status = await keys.status(ref);
        const masked = status.state === 'set' ? ` \`${status.masked}\`` : '';
        await show(
          doneModal(
            `:white_check_mark: The registrar accepted the key${masked}. Regdesk now uses it for this workspace.`,
          ),
        );
      } else {
        await show(keyModal(await keys.status(ref), `:x: ${result.reason} Nothing was stored.`));
      }
    } catch (error) {
      await show(doneModal(replyForError(error, logger).text));
    }
  });
}
