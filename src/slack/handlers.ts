import type {
  AllMiddlewareArgs,
  App,
  BlockAction,
  SlackActionMiddlewareArgs,
  SlackViewMiddlewareArgs,
  ViewResponseAction,
  ViewSubmitAction,
} from '@slack/bolt';
import type { Logger } from '../shared/logger.js';
import { text } from '../text/index.js';
import { noticeModal } from './blocks.js';
import { dispatchOf } from './dispatch.js';
import { replyForError } from './error-reply.js';
import { type Person, replyPrivately } from './reply.js';

export type ActionArgs<A extends BlockAction = BlockAction> = SlackActionMiddlewareArgs<A> &
  AllMiddlewareArgs;
export type ViewArgs = SlackViewMiddlewareArgs<ViewSubmitAction> & AllMiddlewareArgs;

/** Who pressed, reachable through the press's response_url (messages) or else their DM (App Home, modals). */
export function presser(args: ActionArgs): Person {
  const hasUrl = (args.body as { response_url?: string }).response_url !== undefined;
  const person = { user: args.body.user.id, client: args.client };
  return hasUrl ? { ...person, respond: args.respond } : person;
}

/**
 * A button or select: acked at once (docs/requirements.md R1), before any slow I/O, then run. A
 * failure is answered to the presser alone (slack/reply.ts: the action's response_url, else the DM),
 * the way the command router answers commands.
 */
export function onAction<A extends BlockAction = BlockAction>(
  app: App,
  actionId: string | RegExp,
  logger: Logger,
  run: (args: ActionArgs<A>) => Promise<void>,
): void {
  dispatchOf(app).action(actionId, async (args) => {
    await args.ack();
    try {
      await run(args as ActionArgs<A>);
    } catch (error) {
      const reply = replyForError(error, logger.child({ action: String(actionId) }));
      // App Home buttons come without a response_url: the presser hears it in their DM with the bot.
      await replyPrivately(presser(args as ActionArgs), reply, logger);
    }
  });
}

/** How a view submission is answered: close, inline errors on blocks, or another view. */
export type ViewAnswer = ViewResponseAction | undefined;

/**
 * A modal submission: `run` decides the answer (it must be quick: Slack waits at most 3 s), and the
 * wrapper acks exactly once with it. Slow work belongs in `after`, which runs once the ack is sent;
 * its failure is shown by replacing the modal when `run` left it open, else told by DM.
 */
export function onView(
  app: App,
  callbackId: string,
  logger: Logger,
  run: (args: ViewArgs) => Promise<{ answer?: ViewAnswer; after?: () => Promise<void> }>,
): void {
  dispatchOf(app).view(callbackId, async (untyped) => {
    const args = untyped as ViewArgs;
    let outcome: { answer?: ViewAnswer; after?: () => Promise<void> };
    try {
      outcome = await run(args);
    } catch (error) {
      const reply = replyForError(error, logger.child({ view: callbackId }));
      await args.ack({
        response_action: 'update',
        view: noticeModal(text.slack.errorModalTitle, reply.text, callbackId),
      });
      return;
    }
    await args.ack(outcome.answer);
    if (outcome.after === undefined) return;
    try {
      await outcome.after();
    } catch (error) {
      const reply = replyForError(error, logger.child({ view: callbackId }));
      await args.client.chat
        .postMessage({ channel: args.body.user.id, text: reply.text, blocks: reply.blocks })
        .catch(() => undefined);
    }
  });
}
