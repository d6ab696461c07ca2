import type { ApprovalRequest } from '../../src/features/approvals/record.js';

/** A pending approval request as stored, for builders' tests; `fields` override what a test needs. */
export function approvalRequest(fields: Partial<ApprovalRequest> = {}): ApprovalRequest {
  return {
    id: 'apr_0123456789abcdef',
    workspace: { teamId: 'T0001' },
    operation: 'x',
    params: {},
    paramsHash: 'h',
    target: 't',
    summary: 's',
    details: [],
    requester: 'U1',
    channel: 'C1',
    messageTs: '1.1',
    approverGroup: '',
    askedAdmins: false,
    namedApprovers: [],
    copies: [],
    createdAt: 0,
    epoch: 0,
    expiresAt: 1,
    needed: 1,
    approvals: [],
    state: 'pending',
    decidedBy: '',
    reason: '',
    outcome: '',
    justification: '',
    breakGlass: false,
    basis: 'class',
    ...fields,
  };
}
