import type { App } from '@slack/bolt';
import { onView } from '../../slack/handlers.js';
import { fieldErrors, readMetadata } from '../../slack/modal.js';
import { codeSpan } from '../../slack/mrkdwn.js';
import type { Subcommand } from '../../slack/router.js';
import { openModal } from '../../slack/views.js';
import { workspaceOf } from '../../slack/workspace.js';
import { ORDER_IDS } from './ids.js';
import { afterAck, announce, type TlsHandlerDeps } from './interaction.js';
import { blockIn, formOf, ORDER_FIELDS, OrderMeta, orderModal } from './modals.js';
import { OrderForm } from './order-service.js';

export function orderCommand(): Subcommand {
  return {
    name: 'order',
    usage: 'order',
    summary: 'order or renew a certificate (modal); validation records and progress follow in a thread',
    run: async ({ ack, bolt }) => {
      await ack();
      await openModal(bolt.client, bolt.body.trigger_id, orderModal(bolt.body.channel_id));
    },
  };
}

/** The order modal's submission: field errors inline in the ack, the order itself after it. */
export function registerOrderModal(app: App, deps: TlsHandlerDeps): void {
  onView(app, ORDER_IDS.modal, deps.logger, async ({ body, view, client }) => {
    const form = OrderForm.safeParse(formOf(view.state.values, ORDER_FIELDS));
    if (!form.success) {
      const errors = fieldErrors(form.error, blockIn(ORDER_FIELDS), ORDER_IDS.csr);
      return { answer: { response_action: 'errors', errors } };
    }
    const { channel } = readMetadata(OrderMeta, view.private_metadata);
    const workspace = workspaceOf(body);
    const who = { client, user: body.user.id, channel };
    const name = codeSpan(form.data.common_name);
    return {
      after: afterAck(who, deps.logger, async (tell) => {
        const outcome = await deps.orders.place(workspace, form.data);
        switch (outcome.kind) {
          case 'placed':
            return announce(deps, workspace, who, 'ordered', outcome.certificate);
          case 'in-progress':
            return tell({
              text: `:hourglass_flowing_sand: An order for ${name} is being placed right now (another submission), so Regdesk did not order it again. Its card appears where that order was submitted.`,
            });
          case 'already-pending':
            return tell({
              text: `An order for ${name} is already pending: ${codeSpan(outcome.id)}. Regdesk is following it; \`/tls show ${outcome.id}\` shows it.`,
            });
        }
      }),
    };
  });
}
