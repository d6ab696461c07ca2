import type { WebClient } from '@slack/web-api';
import { conversationLink, slackDate } from '../../slack/blocks.js';
import { notifyByDm } from '../../slack/reply.js';
import { inLanguage, text } from '../../text/index.js';
import type { ApprovalDeps } from './deps.js';
import type { OperationContext, SensitiveOperation } from './operations.js';
import { type ApprovalRequest, wordingOf } from './record.js';
import type { RequestUpdates } from './updates.js';

/**
 * At 80 % of a request's lifetime short of approvals (the reminder's moment, jobs.ts) the policy's
 * escalation people are told by DM, each in their language (contract §3 "Policy", `escalateTo`; empty:
 * the workspace's admins and owners). Audited `escalate` once, naming how many were told. A Slack
 * failure to list them is logged: the approvers' reminder has gone out regardless.
 */
export async function escalate<Ctx extends OperationContext, Op extends SensitiveOperation<Ctx>>(
  deps: ApprovalDeps<Ctx, Op>,
  updates: RequestUpdates,
  request: ApprovalRequest,
  client: WebClient,
): Promise<void> {
  const { workspace } = request;
  const read = await deps.policies.read(workspace);
  let contacts: string[];
  try {
    contacts = await deps.roles.escalationContacts(client, workspace, read.policy);
  } catch (error) {
    deps.logger.warn(
      { requestId: request.id, err: error instanceof Error ? error.message : String(error) },
      'could not list whom to escalate to',
    );
    return;
  }
  // The requester, those who approved and the approvers reminded at this moment know already.
  const reminded = new Set(request.copies.map((copy) => copy.user));
  const told = contacts.filter(
    (user) => user !== request.requester && !request.approvals.includes(user) && !reminded.has(user),
  );
  if (told.length === 0) return;
  await updates.audit(request, 'escalate', 'regdesk', told.join(','));
  await Promise.all(
    told.map(async (user) => {
      const locale = await deps.languages.ofPerson(client, workspace, user);
      const message = inLanguage(locale, () => ({
        text: text.approvals.escalation({
          summary: wordingOf(request).summary,
          channel: conversationLink(request.channel),
          remaining: Math.max(1, request.needed - request.approvals.length),
          expires: slackDate(request.expiresAt),
          id: request.id,
        }),
      }));
      await notifyByDm(client, user, message, deps.logger);
    }),
  );
}
