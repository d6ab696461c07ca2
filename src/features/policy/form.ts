import { fieldErrors, stateOf, type ViewState } from '../../slack/modal.js';
import { text } from '../../text/index.js';
import { type ActionRows, readRows } from './action-rows.js';
import { ACTION_CLASSES } from './classes.js';
import { POLICY_IDS } from './ids.js';
import { approverGroups, type ModalField, Policy } from './policy.js';

const P = POLICY_IDS.field;

/** The choices of the policy modal's selects, in the order they are offered. */
export function policyChoices() {
  return {
    requesters: [
      { value: 'anyone', text: text.policy.requestersAnyone },
      { value: 'approvers', text: text.policy.requestersApprovers },
      { value: 'listed', text: text.policy.requestersListed },
    ],
    orderers: [
      { value: 'members', text: text.policy.orderersMembers },
      { value: 'approvers', text: text.policy.orderersApprovers },
      { value: 'listed', text: text.policy.orderersListed },
    ],
    assistantAnswers: [
      { value: 'shared-private', text: text.policy.answersSharedPrivate },
      { value: 'channel', text: text.policy.answersChannel },
      { value: 'asker', text: text.policy.answersAsker },
    ],
    watchManagers: [
      { value: 'adder-and-admins', text: text.policy.watchManagersAdderAndAdmins },
      { value: 'anyone', text: text.policy.watchManagersAnyone },
    ],
    language: [
      { value: 'auto', text: text.policy.languageAuto },
      { value: 'de', text: text.policy.languageGerman },
      { value: 'en', text: text.policy.languageEnglish },
    ],
  } as const satisfies Record<string, readonly { value: string; text: string }[]>;
}

/**
 * The value of the one "orders need approval" checkbox, and of the one "DNS record changes need
 * approval" checkbox: retired switches (ids.ts), read from a modal opened before the rows replaced them.
 */
const ORDERS_NEED_APPROVAL = 'on';
const RECORD_CHANGES_NEED_APPROVAL = 'on';

/** Enough for a few documentation and status sites; the input's length keeps it readable anyway. */
const MAX_LINK_HOSTS = 20;
const HOST = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+([a-z]{2,63}|xn--[a-z0-9-]{1,59})$/;

/** The block of each policy field, so a schema issue is shown on the input it concerns. */
const FIELD_BLOCKS: Record<ModalField, string> = {
  approvers: P.approvers,
  approverGroup: P.approverGroup,
  needed: P.needed,
  expiryHours: P.expiry,
  requesters: P.requesters,
  requesterUsers: P.requesterUsers,
  approvalsChannel: P.channel,
  admins: P.admins,
  orderers: P.orderers,
  ordererUsers: P.ordererUsers,
  ordersNeedApproval: P.ordersNeedApproval,
  recordChangesNeedApproval: P.recordChangesNeedApproval,
  recordChangeExemptTypes: P.recordChangeExemptTypes,
  recordChangeExemptUsers: P.recordChangeExemptUsers,
  validationPublishing: P.validationPublishing,
  assistantAnswers: P.assistantAnswers,
  assistantLinkHosts: P.assistantLinkHosts,
  watchManagers: P.watchManagers,
  language: P.language,
};

/** Host names typed as a list (commas or spaces), or why one of them is not a host name. */
function parseHosts(typed: string): { hosts: string[] } | { error: string } {
  const words = typed
    .split(/[\s,]+/)
    .map((word) => word.toLowerCase().replace(/\.$/, ''))
    .filter((word) => word !== '');
  const bad = words.find((word) => !HOST.test(word));
  if (bad !== undefined) {
    return { error: text.policy.notAHostName({ word: bad.slice(0, 60) }) };
  }
  const hosts = [...new Set(words)];
  if (hosts.length > MAX_LINK_HOSTS) return { error: text.policy.tooManyHosts({ max: MAX_LINK_HOSTS }) };
  return { hosts };
}

/**
 * Reads the whole submitted modal: its fields (`readPolicy`) and its rows per action class
 * (action-rows.ts), or every error at once for `response_action: errors`. The policy's switches for
 * record changes, orders and publishing are the rows' to set (`withRows`), when the rows were submitted.
 */
export function readSubmission(
  values: ViewState,
  /** The modal's private metadata: the classes with approvers of their own, comma-separated. */
  ownApprovers = '',
): { errors: Record<string, string> } | { policy: Policy; rows: ActionRows } {
  const form = readPolicy(values);
  const { rows, errors } = readRows(values);
  if ('errors' in form) return { errors: { ...form.errors, ...errors } };
  // A row's own count can be as unmeetable as the default one, where the class has no approvers of
  // its own (those the YAML sets are not in the modal, which names them in its metadata).
  const own = new Set(ownApprovers.split(','));
  for (const actionClass of ACTION_CLASSES) {
    const approvals = rows[actionClass]?.approvals;
    if (typeof approvals !== 'number' || approvals === 0 || own.has(actionClass)) continue;
    const short = unmeetable({ ...form.policy, needed: approvals });
    const block = POLICY_IDS.action[actionClass].approvals;
    if (short !== undefined) errors[block] ??= short;
  }
  return Object.keys(errors).length > 0 ? { errors } : { policy: form.policy, rows };
}

/**
 * Reads the submitted modal's fields; returns field errors for `response_action: errors` or the new
 * policy. The rows per action class are `readSubmission`'s.
 */
export function readPolicy(values: ViewState): { errors: Record<string, string> } | { policy: Policy } {
  const get = (blockId: string) => stateOf(values, blockId);
  const group = get(P.approverGroup).value?.trim() ?? '';
  const channel = get(P.channel).selected_conversation;
  const hosts = parseHosts(get(P.assistantLinkHosts).value ?? '');
  // Slack sends every input block, an unchecked box as an empty list. A submission without the block
  // (a modal opened before this field existed, or since the row of `record` replaced it) keeps the
  // default, approval on (R41, R47); the row, when submitted, then sets it (`withRows`).
  const recordsChecked = get(P.recordChangesNeedApproval).selected_options;
  const parsed = Policy.safeParse({
    approvers: get(P.approvers).selected_users ?? [],
    // Several groups are kept as one comma-separated field (policy.ts `approverGroups`).
    ...(group === '' ? {} : { approverGroup: approverGroups({ approverGroup: group }).join(',') }),
    needed: Number(get(P.needed).value ?? 1),
    expiryHours: Number(get(P.expiry).value ?? 24),
    requesters: get(P.requesters).selected_option?.value ?? 'anyone',
    requesterUsers: get(P.requesterUsers).selected_users ?? [],
    ...(channel ? { approvalsChannel: channel } : {}),
    admins: get(P.admins).selected_users ?? [],
    orderers: get(P.orderers).selected_option?.value ?? 'members',
    ordererUsers: get(P.ordererUsers).selected_users ?? [],
    ordersNeedApproval:
      get(P.ordersNeedApproval).selected_options?.some((o) => o.value === ORDERS_NEED_APPROVAL) ?? false,
    recordChangesNeedApproval: recordsChecked?.some((o) => o.value === RECORD_CHANGES_NEED_APPROVAL) ?? true,
    recordChangeExemptTypes: get(P.recordChangeExemptTypes).selected_options?.map((o) => o.value) ?? [],
    recordChangeExemptUsers: get(P.recordChangeExemptUsers).selected_users ?? [],
    // A modal opened before this field existed submits none: the default, as for a policy saved before it.
    // One opened since the rows replaced it submits none either: its row sets it (`withRows`).
    validationPublishing: get(P.validationPublishing).selected_option?.value ?? 'own-orders',
    assistantAnswers: get(P.assistantAnswers).selected_option?.value ?? 'shared-private',
    assistantLinkHosts: 'hosts' in hosts ? hosts.hosts : [],
    watchManagers: get(P.watchManagers).selected_option?.value ?? 'adder-and-admins',
    language: get(P.language).selected_option?.value ?? 'auto',
  });
  const errors: Record<string, string> = parsed.success
    ? {}
    : fieldErrors(parsed.error, (field) => FIELD_BLOCKS[field as ModalField], P.requesters);
  // The schema takes any group id; a user group's id has a known shape.
  if (approverGroups({ approverGroup: group }).some((id) => !/^S[A-Z0-9]{2,}$/.test(id)))
    errors[P.approverGroup] = text.policy.approverGroupShape;
  if ('error' in hosts) errors[P.assistantLinkHosts] = hosts.error;
  if (parsed.success) {
    const short = unmeetable(parsed.data);
    if (short !== undefined) errors[P.needed] = short;
    // "Listed people" with nobody listed would let nobody order at all.
    if (parsed.data.orderers === 'listed' && parsed.data.ordererUsers.length === 0)
      errors[P.ordererUsers] = text.policy.orderersNoneListed;
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
  return text.policy.neededUnmeetable({ listed: policy.approvers.length, able, onlyApproversAsk });
}
