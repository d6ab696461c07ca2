import type { App } from '@slack/bolt';
import { onView } from '../../slack/handlers.js';
import { fieldErrors, readMetadata } from '../../slack/modal.js';
import { afterAck, openThenFill } from '../../slack/modal-flow.js';
import { codeSpan } from '../../slack/mrkdwn.js';
import type { Subcommand } from '../../slack/router.js';
import { workspaceOf } from '../../slack/workspace.js';
import { text } from '../../text/index.js';
import { ORDER_IDS } from './ids.js';
import { announce, orderOrRequest, type TlsHandlerDeps } from './interaction.js';
import { blockIn, formOf, ORDER_FIELDS, OrderMeta, orderModal } from './modals.js';
import { orderCertificate } from './operations.js';
import { OrderForm } from './order-service.js';

/** `/tls order`: the modal, or in it why this person may not order (docs/requirements.md R33). */
export function orderCommand(deps: TlsHandlerDeps): Subcommand {
  return {
    name: 'order',
    usage: () => text.tls.orderSyntax,
    summary: () => text.tls.orderSummary,
    run: async ({ ack, bolt }) => {
      await ack();
      const { body, client } = bolt;
      const workspace = workspaceOf(body);
      await openThenFill(
        client,
        body.trigger_id,
        text.tls.orderModalTitle,
        async () => {
          await deps.roles.require(client, workspace, body.user_id, 'order', {
            operation: orderCertificate.name,
          });
          return orderModal(body.channel_id);
        },
        deps.logger,
      );
    },
  };
}

/**
 * The order modal's submission: field errors inline in the ack; after it, the person is checked
 * again (the modal may have been open a while, or the payload forged) and the order placed, or
 * requested for approval when the policy says orders need one.
 */
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
    const params = orderCertificate.parse(form.data);
    const refusal = await deps.preflight.atSubmission(
      workspace,
      view.id,
      {
        change: 'order',
        actor: body.user.id,
        target: params.renewal_of_certificate_id ?? params.common_name,
        names: [params.common_name, ...(params.dns_names ?? [])],
      },
      params.dcv_method,
    );
    if (refusal !== undefined)
      return { answer: { response_action: 'errors', errors: { [ORDER_IDS.cn]: refusal } } };
    const name = codeSpan(params.common_name);
    return {
      after: afterAck(who, deps.logger, (tell) =>
        orderOrRequest(deps, workspace, who, orderCertificate, params, async () => {
          const outcome = await deps.orders.place(workspace, params, who.user);
          switch (outcome.kind) {
            case 'placed':
              return announce(
                deps,
                workspace,
                who,
                { operation: orderCertificate, params },
                outcome.certificate,
              );
            case 'in-progress':
              return tell({
                text: text.tls.orderInProgress({ name }),
              });
            case 'already-pending':
              return tell({
                text: text.tls.orderAlreadyPending({ name, id: codeSpan(outcome.id), rawId: outcome.id }),
              });
          }
        }),
      ),
    };
  });
}
