import type { App } from '@slack/bolt';
import type { View } from '@slack/types';
import { DNS_RECORD_TYPES } from '../../registrar/index.js';
import type { Logger } from '../../shared/logger.js';
import { formModal, noticeModal, section } from '../../slack/blocks.js';
import { replyForError } from '../../slack/error-reply.js';
import { onView } from '../../slack/handlers.js';
import { inputBlock } from '../../slack/modal.js';
import type { Subcommand } from '../../slack/router.js';
import { openModal, updateModal } from '../../slack/views.js';
import { workspaceOf } from '../../slack/workspace.js';
import { text } from '../../text/index.js';
import type { AuditLog } from '../audit/service.js';
import { actionRowBlocks, withRows } from './action-rows.js';
import { policyChange } from './change.js';
import { cannotPostIn } from './channel-probe.js';
import { ACTION_CLASSES } from './classes.js';
import { exportPolicy } from './export.js';
import { policyChoices, readSubmission } from './form.js';
import { POLICY_IDS } from './ids.js';
import type { Roles } from './permissions.js';
import {
  approverGroups,
  type Policy,
  type PolicyField,
  type PolicyRead,
  type PolicyStore,
  VERSION_TWO_FIELDS,
} from './policy.js';

const P = POLICY_IDS.field;

/** Every field may be left empty: the policy's defaults apply. */
const input = (blockId: string, label: string, element: Record<string, unknown>, hint?: string) =>
  inputBlock(blockId, label, element, { optional: true, ...(hint === undefined ? {} : { hint }) });

/** Each field's label in the modal; also how a field reset to its strictest value is named (R41). */
function fieldLabels(): Record<PolicyField, string> {
  return {
    approvers: text.policy.labelApprovers,
    approverGroup: text.policy.labelApproverGroup,
    needed: text.policy.labelNeeded,
    expiryHours: text.policy.labelExpiryHours,
    requesters: text.policy.labelRequesters,
    requesterUsers: text.policy.labelRequesterUsers,
    approvalsChannel: text.policy.labelApprovalsChannel,
    orderers: text.policy.labelOrderers,
    ordererUsers: text.policy.labelOrdererUsers,
    ordersNeedApproval: text.policy.labelOrdersNeedApproval,
    recordChangesNeedApproval: text.policy.labelRecordChangesNeedApproval,
    recordChangeExemptTypes: text.policy.labelRecordChangeExemptTypes,
    recordChangeExemptUsers: text.policy.labelRecordChangeExemptUsers,
    validationPublishing: text.policy.labelValidationPublishing,
    assistantAnswers: text.policy.labelAssistantAnswers,
    assistantLinkHosts: text.policy.labelAssistantLinkHosts,
    admins: text.policy.labelAdmins,
    watchManagers: text.policy.labelWatchManagers,
    language: text.policy.labelLanguage,
    actions: text.policy.labelActions,
    zones: text.policy.labelZones,
    freezes: text.policy.labelFreezes,
    escalateTo: text.policy.labelEscalateTo,
    mcp: text.policy.labelMcp,
  };
}

/** What the admin opening the modal should know about the stored policy (docs/requirements.md R41). */
export function policyProblem(read: PolicyRead): string | undefined {
  switch (read.state) {
    case 'unreadable':
      return text.policy.policyUnreadable;
    case 'repaired': {
      const labels = fieldLabels();
      return text.policy.policyRepaired({ fields: read.fields.map((field) => labels[field]) });
    }
    default:
      return undefined;
  }
}

const option = (value: string, label: string) => ({
  text: { type: 'plain_text' as const, text: label },
  value,
});

/** A static select over `choices`, showing `current`. */
function select(choices: readonly { value: string; text: string }[], current: string) {
  const chosen = choices.find((choice) => choice.value === current) ?? choices[0];
  return {
    type: 'static_select',
    options: choices.map((choice) => option(choice.value, choice.text)),
    ...(chosen === undefined ? {} : { initial_option: option(chosen.value, chosen.text) }),
  };
}

/**
 * Six parts, each opened by a line of why (sensitive actions, per action, DNS records, certificates,
 * the assistant, watches), then the Regdesk admins: 36 blocks of the 100 a modal may hold, 37 when
 * `problem` says what was wrong with the stored policy (`policyProblem`). The rows per action
 * (action-rows.ts) replaced the switches of record changes, orders and publishing.
 */
export function policyModal(policy: Policy, problem?: string): View {
  const labels = fieldLabels();
  const choices = policyChoices();
  // A record type is its own name in every DNS tool, so the option shows it as it is.
  const recordType = (type: string) => option(type, type);
  // The classes that name approvers of their own (set with `regdesk policy set`, not shown here): their
  // rows' counts are not judged against the listed approvers (form.ts `readSubmission`).
  const ownApprovers = ACTION_CLASSES.filter(
    (actionClass) => policy.actions[actionClass]?.approvers !== undefined,
  );
  return formModal(
    POLICY_IDS.modal,
    ownApprovers.length === 0 ? undefined : ownApprovers.join(','),
    text.policy.policyTitle,
    text.policy.policySubmit,
    [
      ...(problem === undefined ? [] : [section(problem)]),
      section(text.policy.policySensitiveIntro),
      input(P.approvers, labels.approvers, {
        type: 'multi_users_select',
        initial_users: policy.approvers,
        max_selected_items: 100,
      }),
      input(
        P.approverGroup,
        labels.approverGroup,
        {
          type: 'plain_text_input',
          max_length: 200,
          ...(policy.approverGroup === undefined ? {} : { initial_value: approverGroups(policy).join(', ') }),
        },
        text.policy.hintApproverGroup,
      ),
      input(P.needed, labels.needed, {
        type: 'number_input',
        is_decimal_allowed: false,
        min_value: '1',
        max_value: '5',
        initial_value: String(policy.needed),
      }),
      input(P.expiry, labels.expiryHours, {
        type: 'number_input',
        is_decimal_allowed: false,
        min_value: '1',
        max_value: '168',
        initial_value: String(policy.expiryHours),
      }),
      input(P.requesters, labels.requesters, select(choices.requesters, policy.requesters)),
      input(P.requesterUsers, labels.requesterUsers, {
        type: 'multi_users_select',
        initial_users: policy.requesterUsers,
      }),
      input(
        P.channel,
        labels.approvalsChannel,
        {
          type: 'conversations_select',
          // Requests are public: channels only, and none shared with another organisation.
          filter: { include: ['public', 'private'], exclude_external_shared_channels: true },
          ...(policy.approvalsChannel === undefined ? {} : { initial_conversation: policy.approvalsChannel }),
        },
        text.policy.hintApprovalsChannel,
      ),
      ...actionRowBlocks(policy),
      section(text.policyModal.recordsIntro),
      input(
        P.recordChangeExemptTypes,
        labels.recordChangeExemptTypes,
        {
          type: 'multi_static_select',
          options: DNS_RECORD_TYPES.map(recordType),
          // Slack refuses an empty `initial_options`.
          ...(policy.recordChangeExemptTypes.length === 0
            ? {}
            : { initial_options: policy.recordChangeExemptTypes.map(recordType) }),
        },
        text.policy.hintRecordChangeExemptTypes,
      ),
      input(
        P.recordChangeExemptUsers,
        labels.recordChangeExemptUsers,
        { type: 'multi_users_select', initial_users: policy.recordChangeExemptUsers },
        text.policy.hintRecordChangeExemptUsers,
      ),
      section(text.policy.policyCertificatesIntro),
      input(P.orderers, labels.orderers, select(choices.orderers, policy.orderers)),
      input(P.ordererUsers, labels.ordererUsers, {
        type: 'multi_users_select',
        initial_users: policy.ordererUsers,
      }),
      section(text.policy.policyAssistantIntro),
      input(
        P.assistantAnswers,
        labels.assistantAnswers,
        select(choices.assistantAnswers, policy.assistantAnswers),
      ),
      input(
        P.assistantLinkHosts,
        labels.assistantLinkHosts,
        {
          type: 'plain_text_input',
          max_length: 1000,
          ...(policy.assistantLinkHosts.length === 0
            ? {}
            : { initial_value: policy.assistantLinkHosts.join(', ') }),
        },
        text.policy.hintAssistantLinkHosts,
      ),
      section(text.policy.policyWatchesIntro),
      input(P.watchManagers, labels.watchManagers, select(choices.watchManagers, policy.watchManagers)),
      input(
        P.admins,
        labels.admins,
        { type: 'multi_users_select', initial_users: policy.admins },
        text.policy.hintAdmins,
      ),
      input(P.language, labels.language, select(choices.language, policy.language), text.policy.hintLanguage),
    ],
  );
}

export function policyCommand(policies: PolicyStore, roles: Roles, audit: AuditLog): Subcommand {
  return {
    name: 'policy',
    usage: () => text.policy.policyUsage,
    summary: () => text.policy.policySummary,
    run: async ({ ack, bolt, respond, args }) => {
      await ack();
      if (args[0]?.toLowerCase() === 'export') return exportPolicy({ policies, roles, audit }, bolt, respond);
      const ref = workspaceOf(bolt.body);
      // It opens whatever the stored policy's state, so an admin can always save it again (R41).
      const read = await policies.read(ref);
      const access = await roles.check(bolt.client, ref, bolt.body.user_id, 'policy', { policy: read });
      if (!access.allowed) {
        await respond({
          response_type: 'ephemeral',
          text: text.approvals.refused({ reason: access.reason }),
        });
        return;
      }
      await openModal(bolt.client, bolt.body.trigger_id, policyModal(read.policy, policyProblem(read)));
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
  const notice = (said: string) => noticeModal(text.policy.policyTitle, said, POLICY_IDS.modal);
  onView(app, POLICY_IDS.modal, logger, async ({ body, view, client }) => {
    const result = readSubmission(view.state.values, view.private_metadata);
    if ('errors' in result) return { answer: { response_action: 'errors', errors: result.errors } };
    const channel = result.policy.approvalsChannel;
    const refusal = channel === undefined ? undefined : await cannotPostIn(client, channel, logger);
    if (refusal !== undefined)
      return { answer: { response_action: 'errors', errors: { [P.channel]: refusal } } };
    return {
      answer: { response_action: 'update', view: notice(text.policy.policySaving) },
      after: async () => {
        const ref = workspaceOf(body);
        let said: string;
        try {
          // The role is checked again at submission: the modal may have been open for a while.
          const access = await roles.check(client, ref, body.user.id, 'policy');
          if (access.allowed) {
            const before = await policies.read(ref);
            // What the modal does not show (zones, freezes, escalation, agents, and each class's
            // approvers and expiry) stays as it was saved; each class's approvals and reason are its row's.
            const kept =
              before.state === 'unreadable'
                ? {}
                : Object.fromEntries(VERSION_TWO_FIELDS.map((field) => [field, before.policy[field]]));
            const saved: Policy = withRows({ ...result.policy, ...kept }, result.rows);
            await policies.set(ref, saved);
            await audit.append(ref, {
              action: 'policy_change',
              actor: body.user.id,
              detail: policyChange(before.state === 'unreadable' ? undefined : before.policy, saved),
            });
            said = text.policy.policySaved;
          } else {
            said = text.approvals.refused({ reason: access.reason });
          }
        } catch (error) {
          // Shown in the modal the admin is looking at, not by DM.
          said = replyForError(error, logger).text;
        }
        await updateModal(client, { id: view.id }, notice(said));
      },
    };
  });
}
