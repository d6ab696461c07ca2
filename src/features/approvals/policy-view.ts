import type { App } from '@slack/bolt';
import type { KnownBlock, View } from '@slack/types';
import type { Logger } from '../../shared/logger.js';
import { noticeModal, section } from '../../slack/blocks.js';
import { replyForError } from '../../slack/error-reply.js';
import type { Subcommand } from '../../slack/router.js';
import { workspaceOf } from '../../slack/workspace.js';
import type { AuditLog } from '../audit/service.js';
import { APPROVAL_IDS, valueId } from './ids.js';
import { Policy, type PolicyStore, type Roles } from './policy.js';

const P = APPROVAL_IDS.policy;
const REQUESTER_CHOICES = [
  { value: 'anyone', text: 'Anyone in the workspace' },
  { value: 'approvers', text: 'Approvers only' },
  { value: 'listed', text: 'Listed people (and approvers)' },
] as const;

function input(blockId: string, label: string, element: Record<string, unknown>, hint?: string): KnownBlock {
  return {
    type: 'input',
    block_id: blockId,
    optional: true,
    label: { type: 'plain_text', text: label },
    element: { action_id: valueId(blockId), ...element },
    ...(hint === undefined ? {} : { hint: { type: 'plain_text', text: hint } }),
  } as KnownBlock;
}

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

interface StateValue {
  value?: string | null;
  selected_users?: string[];
  selected_option?: { value: string } | null;
  selected_conversation?: string | null;
}

/** Reads the submitted modal; returns field errors for `response_action: errors` or the new policy. */
export function readPolicy(
  values: Record<string, Record<string, StateValue>>,
): { errors: Record<string, string> } | { policy: Policy } {
  const get = (blockId: string): StateValue => values[blockId]?.[valueId(blockId)] ?? {};
  const group = get(P.approverGroup).value?.trim() ?? '';
  const errors: Record<string, string> = {};
  if (group !== '' && !/^S[A-Z0-9]{2,}$/.test(group))
    errors[P.approverGroup] = 'A user group ID looks like S0123ABCD.';
  const candidate = {
    approvers: get(P.approvers).selected_users ?? [],
    ...(group === '' ? {} : { approverGroup: group }),
    needed: Number(get(P.needed).value ?? 1),
    expiryHours: Number(get(P.expiry).value ?? 24),
    requesters: get(P.requesters).selected_option?.value ?? 'anyone',
    requesterUsers: get(P.requesterUsers).selected_users ?? [],
    ...(get(P.channel).selected_conversation
      ? { approvalsChannel: get(P.channel).selected_conversation }
      : {}),
    admins: get(P.admins).selected_users ?? [],
  };
  const parsed = Policy.safeParse(candidate);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field =
        issue.path[0] === 'needed' ? P.needed : issue.path[0] === 'expiryHours' ? P.expiry : P.requesters;
      errors[field] = issue.message;
    }
  }
  if (Object.keys(errors).length > 0 || !parsed.success) return { errors };
  return { policy: parsed.data };
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
      if (!(await roles.isAdmin(bolt.client, policy, bolt.body.user_id))) {
        await respond({
          response_type: 'ephemeral',
          text: ':lock: Only workspace admins, owners and Regdesk admins can change the approval policy.',
        });
        return;
      }
      await bolt.client.views.open({ trigger_id: bolt.body.trigger_id, view: policyModal(policy) });
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
  app.view(APPROVAL_IDS.policyModal, async ({ ack, body, view, client }) => {
    const result = readPolicy(view.state.values as Record<string, Record<string, StateValue>>);
    if ('errors' in result) {
      await ack({ response_action: 'errors', errors: result.errors });
      return;
    }
    const notice = (text: string) => noticeModal('Approval policy', text, APPROVAL_IDS.policyModal);
    await ack({ response_action: 'update', view: notice(':hourglass_flowing_sand: Saving…') });
    const ref = workspaceOf(body);
    let text: string;
    try {
      // The role is checked again at submission: the modal may have been open for a while.
      if (await roles.isAdmin(client, await policies.get(ref), body.user.id)) {
        await policies.set(ref, result.policy);
        await audit.append(ref, { action: 'policy_change', actor: body.user.id });
        text = ':white_check_mark: The approval policy is saved and applies to new requests.';
      } else {
        text = ':lock: Only workspace admins, owners and Regdesk admins can change the approval policy.';
      }
    } catch (error) {
      text = replyForError(error, logger).text;
    }
    await client.views.update({ view_id: view.id, view: notice(text) });
  });
}
