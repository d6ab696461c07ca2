import { z } from 'zod';
import { AppError } from '../../shared/app-error.js';
import { type WorkspaceRef, workspaceFields } from '../../shared/workspace.js';
import { currentLocale, type Locale, text } from '../../text/index.js';
import type { Undo } from './operations.js';

export type ApprovalState =
  | 'pending'
  | 'approved'
  | 'executing'
  | 'succeeded'
  | 'failed'
  | 'denied'
  | 'expired'
  | 'withdrawn';

export const FINAL_STATES: readonly ApprovalState[] = [
  'succeeded',
  'failed',
  'denied',
  'expired',
  'withdrawn',
];

/** A copy of the request in an approver's DM, re-rendered with the channel message at every step (R11). */
export interface MessageCopy {
  user: string;
  channel: string;
  ts: string;
}

/** One request for a sensitive action, as stored. Parameters are a snapshot taken at request time. */
export interface ApprovalRequest {
  id: string;
  workspace: WorkspaceRef;
  operation: string;
  /** JSON snapshot of the parameters; execution uses exactly these (docs/requirements.md R10). */
  params: Record<string, unknown>;
  paramsHash: string;
  target: string;
  summary: string;
  /** mrkdwn lines describing the resource's state when requested (escaped by the operation). */
  details: string[];
  /**
   * The summary and details in the other languages, worded when it was requested: the channel reads
   * the workspace's language (`summary`, `details`), an approver's copy and App Home their reader's.
   * Absent on requests stored before it, which read as stored.
   */
  translations?: Partial<Record<Locale, RequestWording>>;
  /** What the approve button's confirmation says about undoing it (the operation's `undo`). */
  undo?: Undo;
  requester: string;
  channel: string;
  /** The public request message, updated in place at every step (set once it is posted). */
  messageTs: string;
  /** The user groups that approve it, comma-separated ('' for none): the message mentions them. */
  approverGroup: string;
  /** The policy listed no approvers, so the workspace's admins and owners were asked. */
  askedAdmins: boolean;
  /** Admins asked in the message itself rather than by DM (past the DM limit). */
  namedApprovers: string[];
  copies: MessageCopy[];
  createdAt: number;
  /**
   * The data epoch when requested (src/shared/integrity.ts): a request older than the current epoch
   * was made before Regdesk's data was lost or rolled back, and never executes (R40).
   */
  epoch: number;
  expiresAt: number;
  needed: number;
  approvals: string[];
  state: ApprovalState;
  decidedBy: string;
  /** Why an approver denied it. */
  reason: string;
  outcome: string;
  /** Why the requester asks (the policy's `reason: required`, contract §3); '' when not given. */
  justification: string;
  /** Made during a freeze with Break glass: one approval more, one of them an admin's or owner's. */
  breakGlass: boolean;
  /**
   * How the count was reached, so the execution's check compares like with like: the class's count,
   * at least one whatever the class says (someone else's validation records), or none but for the
   * broken glass (an exempt record change).
   */
  basis: RequestBasis;
}

/** What a request is about, in one language. */
export interface RequestWording {
  summary: string;
  details: string[];
}

/** The request's summary and details in the language being spoken, else as stored. */
export function wordingOf(request: ApprovalRequest): RequestWording {
  return request.translations?.[currentLocale()] ?? { summary: request.summary, details: request.details };
}

export type RequestBasis = 'class' | 'always' | 'exempt';
const BASES: readonly string[] = ['class', 'always', 'exempt'] satisfies RequestBasis[];

/** The JSON fields of the stored hash; a value that fails its schema is never acted on. */
const StoredParams = z.lazy(() => z.record(z.string(), z.unknown()));
const StoredDetails = z.lazy(() => z.array(z.string()));
const StoredTranslations = z.lazy(() =>
  z.partialRecord(z.enum(['en', 'de']), z.object({ summary: z.string(), details: z.array(z.string()) })),
);
const StoredCopies = z.lazy(() =>
  z.array(z.object({ user: z.string(), channel: z.string(), ts: z.string() })),
);

/** A stored request whose JSON fields are not what Regdesk wrote: shown as damaged, never executed. */
export class CorruptApprovalError extends AppError {
  constructor(id: string, field: string) {
    super('regdesk_approval_corrupt', () => text.approvals.corruptRequest({ id }), {
      message: `approval ${id}: stored ${field} fails its schema`,
    });
  }
}

export function serialize(request: ApprovalRequest): Record<string, string> {
  return {
    id: request.id,
    teamId: request.workspace.teamId,
    enterpriseId: request.workspace.enterpriseId ?? '',
    operation: request.operation,
    params: JSON.stringify(request.params),
    paramsHash: request.paramsHash,
    target: request.target,
    summary: request.summary,
    details: JSON.stringify(request.details),
    ...(request.translations === undefined ? {} : { translations: JSON.stringify(request.translations) }),
    ...(request.undo === undefined ? {} : { undo: request.undo }),
    requester: request.requester,
    channel: request.channel,
    messageTs: request.messageTs,
    approverGroup: request.approverGroup,
    askedAdmins: request.askedAdmins ? '1' : '',
    namedApprovers: request.namedApprovers.join(','),
    copies: JSON.stringify(request.copies),
    createdAt: String(request.createdAt),
    epoch: String(request.epoch),
    expiresAt: String(request.expiresAt),
    needed: String(request.needed),
    approvals: request.approvals.join(','),
    state: request.state,
    decidedBy: request.decidedBy,
    reason: request.reason,
    outcome: request.outcome,
    justification: request.justification,
    breakGlass: request.breakGlass ? '1' : '',
    basis: request.basis,
  };
}

function storedJson<T>(schema: z.ZodType<T>, fields: Record<string, string>, field: string): T {
  const id = fields.id ?? '';
  let json: unknown;
  try {
    json = JSON.parse(fields[field] ?? '');
  } catch {
    throw new CorruptApprovalError(id, field);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw new CorruptApprovalError(id, field);
  return parsed.data;
}

export function deserialize(fields: Record<string, string>): ApprovalRequest {
  return {
    id: fields.id ?? '',
    workspace: workspaceFields({ teamId: fields.teamId ?? '', enterpriseId: fields.enterpriseId }),
    operation: fields.operation ?? '',
    params: storedJson(StoredParams, fields, 'params'),
    paramsHash: fields.paramsHash ?? '',
    target: fields.target ?? '',
    summary: fields.summary ?? '',
    details: storedJson(StoredDetails, fields, 'details'),
    ...(fields.translations === undefined
      ? {}
      : { translations: storedJson(StoredTranslations, fields, 'translations') }),
    ...(fields.undo === 'never' || fields.undo === 'revert' ? { undo: fields.undo } : {}),
    requester: fields.requester ?? '',
    channel: fields.channel ?? '',
    messageTs: fields.messageTs ?? '',
    approverGroup: fields.approverGroup ?? '',
    askedAdmins: fields.askedAdmins === '1',
    namedApprovers: (fields.namedApprovers ?? '') === '' ? [] : (fields.namedApprovers ?? '').split(','),
    // Requests stored before approvers were sent copies have no such field.
    copies: fields.copies === undefined ? [] : storedJson(StoredCopies, fields, 'copies'),
    createdAt: Number(fields.createdAt ?? 0),
    // Requests stored before epochs existed belong to the first one.
    epoch: Number(fields.epoch ?? 0),
    expiresAt: Number(fields.expiresAt ?? 0),
    needed: Number(fields.needed ?? 1),
    approvals: (fields.approvals ?? '') === '' ? [] : (fields.approvals ?? '').split(','),
    state: (fields.state ?? 'pending') as ApprovalState,
    decidedBy: fields.decidedBy ?? '',
    reason: fields.reason ?? '',
    outcome: fields.outcome ?? '',
    // Requests stored before policy v2 have neither field.
    justification: fields.justification ?? '',
    breakGlass: fields.breakGlass === '1',
    basis: BASES.includes(fields.basis ?? '') ? (fields.basis as RequestBasis) : 'class',
  };
}
