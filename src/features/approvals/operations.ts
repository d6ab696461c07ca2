import type { KnownBlock } from '@slack/types';
import type { z } from 'zod';
import type { RegistrarClient } from '../../registrar/index.js';
import type { QuotaWindow } from '../../shared/limiter.js';
import type { WorkspaceRef } from '../../shared/workspace.js';
import type { ActionClass } from '../policy/classes.js';
import type { RequestAct } from '../policy/permissions.js';

/** What every operation is given: the workspace it acts for and the time. Features add what they need. */
export interface OperationContext {
  workspace: WorkspaceRef;
  now: number;
  /** Who asked: set when a request is previewed and when it runs. */
  requester?: string;
  /** The request's message, set when it runs: follow-ups an operation starts report in its thread. */
  thread?: { channel: string; ts: string };
}

/** The context of operations that call the registrar with the workspace's key. */
export type RegistrarContext = OperationContext & { registrar: RegistrarClient };

/** What the request message says about the resource now, and whether the action is possible at all. */
export interface Preview {
  /** mrkdwn lines, already escaped. */
  details: string[];
  /** Set when the action cannot succeed in the resource's current state: refused before any approval. */
  blocker?: string;
  /** What does not fit the message (a long change set's whole plan): uploaded into its thread. */
  attachment?: { filename: string; title: string; content: string };
}

export interface Execution {
  /** Public outcome for the request message and the audit (never a secret). */
  outcome: string;
  /**
   * A transfer auth code: sealed in the vault for 24 h and shown only to the requester, in a modal
   * they open from a DM (docs/requirements.md R28); never in a message, log, job or result.
   */
  authCode?: { domain: string; code: string };
  /** Pending work to follow until it settles, reported in the request message's thread. */
  follow?: { kind: 'dnssec' | 'certificate' | 'record'; resource: string };
  /**
   * What the outcome offers next (a record change's **Revert**), posted in the request message's
   * thread once the outcome is shown: the request message itself keeps only its words.
   */
  offer?: { text: string; blocks: KnownBlock[] };
}

/**
 * What the approver is told about undoing the action before approving: `never` (a revoked
 * certificate, an issued auth code), `revert` (the outcome offers Revert), or nothing said.
 */
export type Undo = 'never' | 'revert';

/**
 * A sensitive action (docs/requirements.md R8), written by its feature. Its parameters are validated
 * into a snapshot when requested; execution later uses exactly that snapshot.
 */
export interface OperationSpec<Ctx extends OperationContext, Name extends string, Params> {
  name: Name;
  /** Which of the policy's action classes governs it (approvals, reason, freezes: policy/classes.ts). */
  actionClass: ActionClass;
  schema: z.ZodType<Params>;
  /**
   * What the requester must be allowed to do (permissions.ts), at request time and again at
   * execution: `request` (the policy's requesters) unless the action is an order or reissue.
   */
  permission?: RequestAct;
  /** "revoke certificate `abc` (www.example.com)": what will happen, in words. */
  summary(params: Params): string;
  /** The domain or certificate id, for the audit and `/domain audit DOMAIN`. */
  target(params: Params): string;
  preview(ctx: Ctx, params: Params): Promise<Preview>;
  /** Fetched again just before execution: a reason to stop, or undefined to go ahead. */
  precheck(ctx: Ctx, params: Params): Promise<string | undefined>;
  execute(ctx: Ctx, params: Params): Promise<Execution>;
  /** Upstream quotas this action spends; checked before a request is accepted and spent on execution. */
  quota?(ctx: Ctx, params: Params): QuotaWindow[];
  /** Approvals beyond the policy's that these parameters call for (a large change set: one), and why. */
  extraApprovals?(params: Params): number;
  /** Whether it can be undone, as the approve button's confirmation says; unsaid when it depends. */
  undo?: Undo;
}

type Snapshot = Record<string, unknown>;

/**
 * An operation as approvals hold it: the name keeps its literal type (so the list of registered
 * operations yields the union of names), the parameters are checked with the schema at every step,
 * and `Params` records their type for type-checked requests. Function properties (not methods) so that
 * an operation needing more context than the composition root gives is a type error.
 */
export interface SensitiveOperation<
  Ctx extends OperationContext,
  Name extends string = string,
  Params extends Snapshot = Snapshot,
> {
  readonly name: Name;
  readonly actionClass: ActionClass;
  readonly permission: RequestAct;
  readonly parse: (params: unknown) => Params;
  readonly summary: (params: Snapshot) => string;
  readonly target: (params: Snapshot) => string;
  readonly preview: (ctx: Ctx, params: Snapshot) => Promise<Preview>;
  readonly precheck: (ctx: Ctx, params: Snapshot) => Promise<string | undefined>;
  readonly execute: (ctx: Ctx, params: Snapshot) => Promise<Execution>;
  readonly quota: (ctx: Ctx, params: Snapshot) => QuotaWindow[];
  readonly extraApprovals: (params: Snapshot) => number;
  readonly undo?: Undo;
}

/** The parameters an operation is requested with. */
export type ParamsOf<Op> = Op extends SensitiveOperation<never, string, infer Params> ? Params : never;

export function defineOperation<Ctx extends OperationContext, Name extends string, Params extends Snapshot>(
  spec: OperationSpec<Ctx, Name, Params>,
): SensitiveOperation<Ctx, Name, Params> {
  const parse = (params: unknown): Params => spec.schema.parse(params);
  return {
    name: spec.name,
    actionClass: spec.actionClass,
    permission: spec.permission ?? 'request',
    parse,
    summary: (params) => spec.summary(parse(params)),
    target: (params) => spec.target(parse(params)),
    preview: (ctx, params) => spec.preview(ctx, parse(params)),
    precheck: (ctx, params) => spec.precheck(ctx, parse(params)),
    execute: (ctx, params) => spec.execute(ctx, parse(params)),
    quota: (ctx, params) => spec.quota?.(ctx, parse(params)) ?? [],
    extraApprovals: (params) => spec.extraApprovals?.(parse(params)) ?? 0,
    ...(spec.undo === undefined ? {} : { undo: spec.undo }),
  };
}
