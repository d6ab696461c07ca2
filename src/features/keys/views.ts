import type { App } from '@slack/bolt';
import type { View } from '@slack/types';
import type { Logger } from '../../shared/logger.js';
import { replyForError } from '../../slack/error-reply.js';
import { onView } from '../../slack/handlers.js';
import { stateOf } from '../../slack/modal.js';
import { notifyByDm } from '../../slack/reply.js';
import { updateModal } from '../../slack/views.js';
import { workspaceOf } from '../../slack/workspace.js';
import { checkingModal, doneModal, keyModal } from './blocks.js';
import { KEY_IDS } from './ids.js';
import type { KeyAdminCheck, WorkspaceKeys } from './service.js';

/** An input error for the key field, or undefined when the submission can go ahead. */
function keyInputError(apiKey: string, remove: boolean): string | undefined {
  if (remove && apiKey !== '') return 'Either paste a new key or remove the stored one, not both.';
  if (!remove && apiKey === '') return 'Paste the API key to store.';
  if (/\s/.test(apiKey)) return 'An API key has no spaces or line breaks.';
  return undefined;
}

export function registerKeyModal(
  app: App,
  keys: WorkspaceKeys,
  isAdmin: KeyAdminCheck,
  logger: Logger,
): void {
  onView(app, KEY_IDS.modal, logger, async ({ body, view, client }) => {
    const values = view.state.values;
    const apiKey = stateOf(values, KEY_IDS.keyBlock).value?.trim() ?? '';
    const remove =
      stateOf(values, KEY_IDS.removeBlock).selected_options?.some(
        (option) => option.value === KEY_IDS.removeOption,
      ) ?? false;

    // Input errors are answered inline on the field (response_action: errors), before any I/O.
    const error = keyInputError(apiKey, remove);
    if (error !== undefined)
      return { answer: { response_action: 'errors', errors: { [KEY_IDS.keyBlock]: error } } };

    // The registrar check is slow I/O: ack with a "checking" view, then update it (docs/requirements.md R1).
    return {
      answer: { response_action: 'update', view: checkingModal() },
      after: async () => {
        const ref = workspaceOf(body);
        const user = body.user.id;
        // The admin may have closed the modal meanwhile: then the outcome goes to their DM.
        const show = async (next: View, text: string) => {
          if (!(await updateModal(client, { id: view.id }, next)))
            await notifyByDm(client, user, { text }, logger);
        };
        const done = (text: string) => show(doneModal(text), text);
        try {
          if (!(await isAdmin(client, ref, user))) {
            await done(':lock: Only workspace admins and owners can change the registrar API key.');
            return;
          }
          if (remove) {
            const removed = await keys.remove(ref, user);
            await done(removed ? ':wastebasket: The stored key was removed.' : 'No key was stored.');
            return;
          }
          const result = await keys.set(ref, apiKey, user);
          if (result.ok) {
            const status = await keys.status(ref);
            const masked = status.state === 'set' ? ` \`${status.masked}\`` : '';
            await done(
              `:white_check_mark: The registrar accepted the key${masked}. Regdesk now uses it for this workspace.`,
            );
          } else {
            const text = `:x: ${result.reason} Nothing was stored.`;
            await show(keyModal(await keys.status(ref), text), text);
          }
        } catch (failure) {
          // Shown in the modal the admin is looking at, not by DM.
          await done(replyForError(failure, logger).text);
        }
      },
    };
  });
}
