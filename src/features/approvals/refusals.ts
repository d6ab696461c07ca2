import { AppError } from '../../shared/app-error.js';
import { slackDate } from '../../slack/blocks.js';
import { text } from '../../text/index.js';
import type { ActiveFreeze, Rules } from '../policy/rules.js';
import type { RequestBasis } from './record.js';

/** Why a request is not made as asked, and how many approvals one needs (requesting.ts, request.ts). */

/** A refusal the person pressing or asking should read (ephemeral). */
export class ApprovalRefused extends AppError {
  constructor(message: string | (() => string)) {
    super('regdesk_approval_refused', message);
  }
}

/**
 * A frozen class of action: refused, naming the freeze and when it ends (contract §3 "Policy"). Where
 * the action was asked as a request, the refusal offers Break glass (request.ts).
 */
export class FrozenRefusal extends ApprovalRefused {
  constructor(readonly freeze: ActiveFreeze) {
    super(() => text.approvals.frozen({ name: freeze.name, until: slackDate(freeze.until) }));
  }
}

export function frozenRefusal(freeze: ActiveFreeze): FrozenRefusal {
  return new FrozenRefusal(freeze);
}

/**
 * The policy asks why (`reason: required`) and none was given: the requester is asked in a modal
 * before any request exists (request.ts), so nothing is reserved, stored or posted yet.
 */
export class ReasonNeeded extends AppError {
  constructor() {
    super('regdesk_reason_needed', () => text.approvals.reasonNeeded);
  }
}

/** The shortest reason the policy accepts where it requires one (contract §3 "Policy"). */
export const MIN_REASON_LENGTH = 10;

/**
 * How many approvals a request needs: the class's count (at least one where the action always asks,
 * as publishing for someone else's order does), one more when it breaks a freeze's glass. 0: the
 * policy runs it at once.
 */
export function approvalsNeeded(rules: Rules, basis: RequestBasis, breakGlass: boolean): number {
  const usual = basis === 'exempt' ? 0 : basis === 'always' ? Math.max(1, rules.approvals) : rules.approvals;
  return breakGlass ? usual + 1 : usual;
}
