import type { z } from 'zod';
import type { QuotaWindow } from '../../shared/limiter.js';
import type { WorkspaceRef } from '../../vault/store.js';

export interface OperationContext<Registrar> {
  workspace: WorkspaceRef;
  registrar: Registrar;
  now: number;
}

/** What the request message says about the resource now, and whether the action is possible at all. */
export interface Preview {
  /** mrkdwn lines, already escaped. */
  details: string[];
  /** Set when the action cannot succeed in the resource's current state: refused before any approval. */
  blocker?: string;
}

export interface Execution {
  /** Public outcome for the request message and the audit (never a secret). */
  outcome: string;
  /** Shown only to the requester (the auth code); never stored, logged or posted publicly. */
  privateText?: string;
  /** Pending work to follow until it settles, reported in the request message's thread. */
  follow?: { kind: 'dnssec' | 'certificate'; resource: string };
}

/**
 * A sensitive action (docs/requirements.md R8). Its parameters are validated into a snapshot when requested;
 * execution later uses exactly that snapshot.
 */
export interface OperationSpec<Registrar, Params> {
  name: string;
  schema: z.ZodType<Params>;
  /** "revoke certificate `abc` (www.example.com)": what will happen, in words. */
  summary(params: Params): string;
  /** The domain or certificate id, for the audit and `/domain audit DOMAIN`. */
  target(params: Params): string;
  preview(ctx: OperationContext<Registrar>, params: Params): Promise<Preview>;
  /** Fetched again just before execution: a reason to stop, or undefined to go ahead. */
  precheck(ctx: OperationContext<Registrar>, params: Params): Promise<string | undefined>;
  execute(ctx: OperationContext<Registrar>, params: Params): Promise<Execution>;
  /** Upstream quotas this action spends; checked before a request is accepted and spent on execution. */
  quota?(workspace: WorkspaceRef, params: Params): QuotaWindow[];
}

/** The same operation with its parameter type erased, so one registry holds them all. */
export interface SensitiveOperation<Registrar> {
  name: string;
  parse(params: unknown): Record<string, unknown>;
  summary(params: Record<string, unknown>): string;
  target(params: Record<string, unknown>): string;
  preview(ctx: OperationContext<Registrar>, params: Record<string, unknown>): Promise<Preview>;
  precheck(ctx: OperationContext<Registrar>, params: Record<string, unknown>): Promise<string | undefined>;
  execute(ctx: OperationContext<Registrar>, params: Record<string, unknown>): Promise<Execution>;
  quota(workspace: WorkspaceRef, params: Record<string, unknown>): QuotaWindow[];
}

export function defineOperation<Registrar, Params extends Record<string, unknown>>(
  spec: OperationSpec<Registrar, Params>,
): SensitiveOperation<Registrar> {
  const parse = (params: unknown): Params => spec.schema.parse(params);
  return {
    name: spec.name,
    parse,
    summary: (params) => spec.summary(parse(params)),
    target: (params) => spec.target(parse(params)),
    preview: (ctx, params) => spec.preview(ctx, parse(params)),
    precheck: (ctx, params) => spec.precheck(ctx, parse(params)),
    execute: (ctx, params) => spec.execute(ctx, parse(params)),
    quota: (workspace, params) => spec.quota?.(workspace, parse(params)) ?? [],
  };
}
