import type { App } from '@slack/bolt';
import type { View } from '@slack/types';
import type { Logger } from '../../shared/logger.js';
import { replyForError } from '../../slack/error-reply.js';
import { onView } from '../../slack/handlers.js';
import { stateOf } from '../../slack/modal.js';
import { notifyByDm } from '../../slack/reply.js';
import { updateModal } from '../../slack/views.js';
import { workspaceOf } from '../../slack/workspace.js';
import { text } from '../../text/index.js';
import { checkingModal, doneModal, keyModal } from './blocks.js';
import { KEY_IDS } from './ids.js';
import type { KeyAdminCheck, WorkspaceKeys } from './service.js';

/** An input error for the key field, or undefined when the submission can go ahead. */
function keyInputError(apiKey: string, remove: boolean): string | undefined {
  if (remove && apiKey !== '') return text.workspace.keyBothGiven;
  if (!remove && apiKey === '') return text.workspace.keyNotGiven;
  if (/\s/.test(apiKey)) return text.workspace.keyHasSpaces;
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
        const show = async (next: View, message: string) => {
          if (!(await updateModal(client, { id: view.id }, next)))
            await notifyByDm(client, user, { text: message }, logger);
        };
        const done = (message: string) => show(doneModal(message), message);
        try {
          if (!(await isAdmin(client, ref, user))) {
            await done(text.workspace.keyChangeNotAdmin);
            return;
          }
          if (remove) {
            const removed = await keys.remove(ref, user);
            await done(removed ? text.workspace.keyRemoved : text.workspace.keyNoneStored);
            return;
          }
          const result = await keys.set(ref, apiKey, user);
          if (result.ok) {
            const status = await keys.status(ref);
            await done(
              text.workspace.keyAccepted({ masked: status.state === 'set' ? status.masked : undefined }),
            );
          } else {
            const rejected =
              result.reason === 'rejected' ? text.workspace.keyRejected : text.workspace.keyUncheckable;
            await show(keyModal(await keys.status(ref), rejected), rejected);
          }
        } catch (failure) {
          // Shown in the modal the admin is looking at, not by DM.
          await done(replyForError(failure, logger).text);
        }
      },
    };
  });
}
