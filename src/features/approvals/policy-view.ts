import type { App } from '@slack/bolt';
import type { View } from '@slack/types';
import type { Logger } from '../../shared/logger.js';
import { noticeModal, section } from '../../slack/blocks.js';
import { replyForError } from '../../slack/error-reply.js';
import { onView } from '../../slack/handlers.js';
import { fieldErrors, inputBlock, stateOf, type ViewState } from '../../slack/modal.js';
import type { Subcommand } from '../../slack/router.js';
import { openModal, updateModal } from '../../slack/views.js';
import { workspaceOf } from '../../slack/workspace.js';
import type { AuditLog } from '../audit/service.js';
import { cannotPostIn } from './channel-probe.js';
import { APPROVAL_IDS } from './ids.js';
import { Policy, type PolicyStore, type Roles } from './policy.js';

const P = APPROVAL_IDS.policy;
const REQUESTER_CHOICES = [
  { value: 'anyone', text: 'Anyone in the workspace' },
  { value: 'approvers', text: 'Approvers only' },
  { value: 'listed', text: 'Listed people (and approvers)' },
] as const;

/** The block of each policy field, so a schema issue is shown on the input it concerns. */
const FIELD_BLOCKS: Record<keyof Policy, string> = {
  approvers: P.approvers,
  approverGroup: P.approverGroup,
  needed: P.needed,
  expiryHours: P.expiry,
  requesters: P.requesters,
  requesterUsers: P.requesterUsers,
  approvalsChannel: P.channel,
  admins: P.admins,
};

/** Every field may be left empty: the policy's defaults apply. */
const input = (blockId: string, label: string, element: Record<string, unknown>, hint?: string) =>
  inputBlock(blockId, label, element, { optional: true, ...(hint === undefined ? {} : { hint }) });

const option = (value: string, text: string) => ({ text: { type: 'plain_text' as const, text }, value });

export function policyModal(policy: Policy): View {
  const requester =
    REQUESTER_CHOICES.find((choice) => choice.value === policy.requesters) ?? REQUESTER_CHOICES[0];
  return {
    type: 'modal',
    callback_id: APPROVAL_IDS.policyModal,
    title: { type: 'plain_text', text: 'Approval policy' },
    submit: { type: 'plain_text', text: 'Save' },
    close: { type: 'plain_text', text: 'Cancel' },
    blocks: [
      section(
        'Sensitive actions (revoke, order cancel, auth code, delegation change, DNSSEC disable and external records) ' +
          'need approval by someone other than the requester. With no approvers set, workspace admins and owners approve.',
      ),
      input(P.approvers, 'Approvers', {
        type: 'multi_users_select',
        initial_users: policy.approvers,
        max_selected_items: 100,
      }),
      input(
        P.approverGroup,
        'Approver user group ID',
        {
          type: 'plain_text_input',
          max_length: 20,
          ...(policy.approverGroup === undefined ? {} : { initial_value: policy.approverGroup }),
        },
        'Members of this user group (S…) approve too.',
      ),
      input(P.needed, 'Approvals needed', {
        type: 'number_input',
        is_decimal_allowed: false,
        min_value: '1',
        max_value: '5',
        initial_value: String(policy.needed),
      }),
      input(P.expiry, 'Requests expire after (hours)', {
        type: 'number_input',
        is_decimal_allowed: false,
        min_value: '1',
        max_value: '168',
        initial_value: String(policy.expiryHours),
      }),
      input(P.requesters, 'Who may request', {
        type: 'static_select',
        options: REQUESTER_CHOICES.map((choice) => option(choice.value, choice.text)),
        initial_option: option(requester.value, requester.text),
      }),
      input(P.requesterUsers, 'Listed requesters', {
        type: 'multi_users_select',
        initial_users: policy.requesterUsers,
      }),
      input(
        P.channel,
        'Approvals channel',
        {
          type: 'conversations_select',
          // Requests are public: channels only, and none shared with another organisation.
          filter: { include: ['public', 'private'], exclude_external_shared_channels: true },
          ...(policy.approvalsChannel === undefined ? {} : { initial_conversation: policy.approvalsChannel }),
        },
        'Post requests here instead of where they were asked.',
      ),
      input(
        P.admins,
        'Regdesk admins',
        { type: 'multi_users_select', initial_users: policy.admins },
        'May change this policy and the API key.',
      ),
    ],
  };
}

/** Reads the submitted modal; returns field errors for `response_action: errors` or the new policy. */
export function readPolicy(values: ViewState): { errors: Record<string, string> } | { policy: Policy } {
  const get = (blockId: string) => stateOf(values, blockId);
  const group = get(P.approverGroup).value?.trim() ?? '';
  const channel = get(P.channel).selected_conversation;
  const parsed = Policy.safeParse({
    approvers: get(P.approvers).selected_users ?? [],
    ...(group === '' ? {} : { approverGroup: group }),
    needed: Number(get(P.needed).value ?? 1),
    expiryHours: Number(get(P.expiry).value ?? 24),
    requesters: get(P.requesters).selected_option?.value ?? 'anyone',
    requesterUsers: get(P.requesterUsers).selected_users ?? [],
    ...(channel ? { approvalsChannel: channel } : {}),
    admins: get(P.admins).selected_users ?? [],
  });
  const errors: Record<string, string> = parsed.success
    ? {}
    : fieldErrors(parsed.error, (field) => FIELD_BLOCKS[field as keyof Policy], P.requesters);
  // The schema takes any group id; a user group's id has a known shape.
  if (group !== '' && !/^S[A-Z0-9]{2,}$/.test(group))
    errors[P.approverGroup] = 'A user group ID looks like S0123ABCD.';
  if (parsed.success) {
    const short = unmeetable(parsed.data);
    if (short !== undefined) errors[P.needed] = short;
  }
  if (!parsed.success || Object.keys(errors).length > 0) return { errors };
  return { policy: parsed.data };
}

/**
 * Why the listed approvers alone could never give the approvals needed, or undefined. A user group
 * may grow and admins are not counted here, so only a list without a group is judged.
 */
function unmeetable(policy: Policy): string | undefined {
  if (policy.approverGroup !== undefined || policy.approvers.length === 0) return undefined;
  // Nobody approves their own request: when only approvers may ask, one of them is the requester.
  const onlyApproversAsk = policy.requesters === 'approvers';
  const able = policy.approvers.length - (onlyApproversAsk ? 1 : 0);
  if (policy.needed <= able) return undefined;
  return (
    `${policy.approvers.length} listed approver(s) can give at most ${able} approval(s)` +
    (onlyApproversAsk ? ' (only approvers may ask, and nobody approves their own request)' : '') +
    ': list more approvers, add an approver group, or lower this number.'
  );
}

export function policyCommand(policies: PolicyStore, roles: Roles): Subcommand {
  return {
    name: 'policy',
    usage: 'policy',
    summary: 'approvers, approvals needed, expiry, who may request, approvals channel (admins)',
    run: async ({ ack, bolt, respond }) => {
      await ack();
      const ref = workspaceOf(bolt.body);
      const policy = await policies.get(ref);
      if (!(await roles.isAdmin(bolt.client, ref, policy, bolt.body.user_id))) {
        await respond({
          response_type: 'ephemeral',
          text: ':lock: Only workspace admins, owners and Regdesk admins can change the approval policy.',
        });
        return;
      }
      await openModal(bolt.client, bolt.body.trigger_id, policyModal(policy));
    },
  };
}

export function registerPolicyModal(
  app: App,
  policies: PolicyStore,
  roles: Roles,
  audit: AuditLog,
  logger: Logger,
): void {
  const notice = (text: string) => noticeModal('Approval policy', text, APPROVAL_IDS.policyModal);
  onView(app, APPROVAL_IDS.policyModal, logger, async ({ body, view, client }) => {
    const result = readPolicy(view.state.values);
    if ('errors' in result) return { answer: { response_action: 'errors', errors: result.errors } };
    const channel = result.policy.approvalsChannel;
    const refusal = channel === undefined ? undefined : await cannotPostIn(client, channel, logger);
    if (refusal !== undefined)
      return { answer: { response_action: 'errors', errors: { [P.channel]: refusal } } };
    return {
      answer: { response_action: 'update', view: notice(':hourglass_flowing_sand: Saving…') },
      after: async () => {
        const ref = workspaceOf(body);
        let text: string;
        try {
          // The role is checked again at submission: the modal may have been open for a while.
          if (await roles.isAdmin(client, ref, await policies.get(ref), body.user.id)) {
            await policies.set(ref, result.policy);
            await audit.append(ref, { action: 'policy_change', actor: body.user.id });
            text = ':white_check_mark: The approval policy is saved and applies to new requests.';
          } else {
            text = ':lock: Only workspace admins, owners and Regdesk admins can change the approval policy.';
          }
        } catch (error) {
          // Shown in the modal the admin is looking at, not by DM.
          text = replyForError(error, logger).text;
        }
        await updateModal(client, { id: view.id }, notice(text));
      },
    };
  });
}
