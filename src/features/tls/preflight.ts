import { createHash } from 'node:crypto';
import type { View } from '@slack/types';
import type { DnsClient } from '../../dns/client.js';
import type { TrustAnchor } from '../../dns/validator.js';
import type { RegistrarClient, TlsCertificate } from '../../registrar/index.js';
import type { KeySpace, Redis } from '../../shared/redis.js';
import { withTimeout } from '../../shared/timeout.js';
import { type WorkspaceRef, workspaceId } from '../../shared/workspace.js';
import { noticeModal } from '../../slack/blocks.js';
import { codeSpan, escapeMrkdwn } from '../../slack/mrkdwn.js';
import { text } from '../../text/index.js';
import type { AuditLog } from '../audit/service.js';
import { type CertificateAuthority, type ProductsCa, REGISTRAR_CA } from '../diagnostics/caa.js';
import type { ValidationKind } from '../diagnostics/caa-property.js';
import { certificatePreflight, type PreflightRefusal } from '../diagnostics/preflight.js';
import { LOADING_VIEW } from './ids.js';

/** How a refusal is remembered for the open modal: a second submission then goes ahead anyway. */
const WARNED_TTL_S = 30 * 60;
/**
 * Before a modal's ack: Slack wants the answer within 3 s, so the products get PRODUCTS_BUDGET_MS and
 * the DNS SUBMISSION_BUDGET_MS (the rest is Redis and the way back).
 */
const PRODUCTS_BUDGET_MS = 500;
const SUBMISSION_BUDGET_MS = 1_200;
/** Behind a button the loading modal is already open (slack/modal-flow.ts): the checks may take longer. */
const BUTTON_PRODUCTS_BUDGET_MS = 2_000;
const BUTTON_BUDGET_MS = 5_000;

/** The change a preflight guards, and the sensitive operation it is audited under. */
export type PreflightChange = 'order' | 'reissue' | 'complete';
const OPERATIONS: Record<PreflightChange, string> = {
  order: 'tls.order',
  reissue: 'tls.reissue',
  complete: 'tls.complete',
};

/** What a refusal names: the person, the certificate (or the common name of a new order), the names. */
export interface PreflightAsk {
  change: PreflightChange;
  actor: string;
  target: string;
  names: readonly string[];
}

/** The registrar's ways of validation, as the preflight judges CAA by them (`dcv_method`). */
export const validationKind = (dcvMethod: string | undefined): ValidationKind[] =>
  dcvMethod === 'email' ? ['email'] : dcvMethod === 'dns-cname-token' ? ['dns'] : ['dns', 'email'];

/** Every name of a certificate: its common name and its SANs. */
export const namesOf = (certificate: TlsCertificate): string[] => [
  certificate.common_name,
  ...certificate.dns_names,
];

/** A refusal in the catalog's words: plain text, a modal field error as it is. */
export function refusalText(refusal: PreflightRefusal, ca: CertificateAuthority): string {
  const { name } = refusal;
  if (refusal.check === 'dnssec') {
    const { zone, parent, reason, ds } = refusal.link;
    const words = text.diagnostics;
    switch (reason) {
      case 'noMatchingKey':
        return words.dnssecPreflightNoKey({
          name,
          zone,
          parent,
          records: ds.map((value) => `${zone}. DS ${value}`),
        });
      case 'badSignature':
        return words.dnssecPreflightBadSignature({ name, zone, parent });
      case 'expired':
        return words.dnssecPreflightExpired({ name, zone, parent });
      case 'notYetValid':
        return words.dnssecPreflightNotYetValid({ name, zone, parent });
      case 'missingSignature':
        return words.dnssecPreflightUnsigned({ name, zone, parent });
      case 'noDenial':
        return words.dnssecPreflightNoDenial({ name, zone, parent });
      case 'resolvers':
        return words.dnssecPreflightResolvers({ name, zone, parent });
    }
  }
  const { verdict } = refusal;
  const record = `${verdict.record.name}. CAA ${verdict.record.value}`;
  switch (verdict.reason) {
    case 'issuer':
      return text.diagnostics.caaPreflightError({
        name,
        ca: ca.name,
        issuers: verdict.issuers.join(', '),
        record,
      });
    case 'methods': {
      const params = { name, ca: ca.name, methods: verdict.methods, record };
      return verdict.validation === 'email'
        ? text.diagnostics.caaPreflightMethodsEmail(params)
        : text.diagnostics.caaPreflightMethods(params);
    }
    case 'account':
      return text.diagnostics.caaPreflightAccount({ name, ca: ca.name, record });
    case 'critical':
      return text.diagnostics.caaPreflightCritical({ name, tag: verdict.tag, record });
  }
}

/** What a button that would fail opens instead of its form: nothing was sent, why, and what to set. */
export const refusedNotice = (title: string, certificateId: string, refusal: string): View =>
  noticeModal(
    title,
    [
      text.diagnostics.preflightNotSent({ id: codeSpan(certificateId) }),
      escapeMrkdwn(refusal),
      text.diagnostics.preflightTryAgain,
    ].join('\n\n'),
    LOADING_VIEW,
  );

/**
 * The certificate preflight of issue #45 (contract §3 "Certificates under the 2026 rules"): before an
 * order, renewal, reissue or completion goes to the registrar, every name's DNSSEC chain and CAA
 * (diagnostics/preflight.ts) for the CA behind the registrar's products. A refusal says why and what
 * to set, is audited as a refusal, and nothing is sent. In a modal a second submission of the same
 * names goes ahead (the person may be fixing it while a resolver still holds the old records); a
 * check that cannot be made in time lets it through. What each refusal means: docs/certificates-2026.md.
 */
export class CertificatePreflight {
  constructor(
    private readonly deps: {
      dnsClient: DnsClient;
      productsCa: ProductsCa;
      trustAnchors: readonly TrustAnchor[];
      registrarFor(workspace: WorkspaceRef): RegistrarClient;
      redis: Redis;
      keys: KeySpace;
      audit: AuditLog;
      now: () => number;
    },
  ) {}

  async #refusal(
    workspace: WorkspaceRef,
    names: readonly string[],
    kinds: readonly ValidationKind[],
    budgets: { products: number; dns: number },
  ): Promise<string | undefined> {
    const registrar = this.deps.registrarFor(workspace);
    // Read within its budget; the read goes on and fills the cache for the next time.
    const ca =
      (await withTimeout(
        this.deps.productsCa.for(workspaceId(workspace), () => registrar.tls.products()),
        budgets.products,
      )) ?? REGISTRAR_CA;
    const found = await certificatePreflight(this.deps.dnsClient, {
      names,
      ca,
      kinds,
      anchors: this.deps.trustAnchors,
      now: this.deps.now(),
      budgetMs: budgets.dns,
    });
    return found === undefined ? undefined : refusalText(found, ca);
  }

  async #audit(workspace: WorkspaceRef, ask: PreflightAsk, outcome: string): Promise<void> {
    await this.deps.audit.append(workspace, {
      action: 'refuse',
      actor: ask.actor,
      operation: OPERATIONS[ask.change],
      target: ask.target,
      outcome,
    });
  }

  /**
   * A modal's submission (order, reissue) by its chosen `dcvMethod`, before the ack: the field error
   * to show, or undefined to go ahead. The same names submitted again from the same view go ahead.
   */
  async atSubmission(
    workspace: WorkspaceRef,
    viewId: string,
    ask: PreflightAsk,
    dcvMethod: string,
  ): Promise<string | undefined> {
    const refusal = await this.#refusal(workspace, ask.names, validationKind(dcvMethod), {
      products: PRODUCTS_BUDGET_MS,
      dns: SUBMISSION_BUDGET_MS,
    });
    if (refusal === undefined) return undefined;
    const fingerprint = createHash('sha256')
      .update([...ask.names].sort().join(','))
      .digest('hex')
      .slice(0, 32);
    const key = this.deps.keys.key(`ws:${workspaceId(workspace)}`, 'tls', 'preflight-warned', viewId);
    const before = await this.deps.redis.set(key, fingerprint, 'EX', WARNED_TTL_S, 'GET');
    if (before === fingerprint) return undefined;
    await this.#audit(workspace, ask, refusal);
    const anyway =
      ask.change === 'reissue'
        ? text.diagnostics.preflightReissueAnyway
        : text.diagnostics.preflightOrderAnyway;
    return `${refusal} ${anyway}`;
  }

  /**
   * A Renew, Reissue or Complete button, before its form opens: what to say instead (plain text), or
   * undefined to open it. `dcvMethod` is the order's when known; otherwise any way the registrar
   * offers will do, since the form still lets the person choose.
   */
  async atButton(
    workspace: WorkspaceRef,
    ask: PreflightAsk,
    dcvMethod?: string,
  ): Promise<string | undefined> {
    const refusal = await this.#refusal(workspace, ask.names, validationKind(dcvMethod), {
      products: BUTTON_PRODUCTS_BUDGET_MS,
      dns: BUTTON_BUDGET_MS,
    });
    if (refusal === undefined) return undefined;
    await this.#audit(workspace, ask, refusal);
    return refusal;
  }

  /**
   * An approved request about to run (approvals/execution.ts, the operation's precheck): the reason it
   * stops, or undefined. The execution tells and audits a stop itself.
   */
  async atExecution(
    workspace: WorkspaceRef,
    names: readonly string[],
    dcvMethod: string | undefined,
  ): Promise<string | undefined> {
    return this.#refusal(workspace, names, validationKind(dcvMethod), {
      products: BUTTON_PRODUCTS_BUDGET_MS,
      dns: BUTTON_BUDGET_MS,
    });
  }
}
