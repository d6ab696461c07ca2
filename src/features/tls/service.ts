import { randomBytes } from 'node:crypto';
import type { KnownBlock } from '@slack/types';
import { z } from 'zod';
import {
  ConflictError,
  ORGANIZATION_FIELDS,
  type OrganizationField,
  type RegistrarClient,
  type TlsCertificate,
  type TlsCertificateReissueParams,
  type TlsOrganization,
} from '../../registrar/index.js';
import { AppError } from '../../shared/app-error.js';
import type { KeySpace, Redis } from '../../shared/redis.js';
import { type WorkspaceRef, workspaceId } from '../../shared/workspace.js';
import { readMetadata } from '../../slack/modal.js';
import { text } from '../../text/index.js';
import type { ValidationLedger } from '../publish/validation-ledger.js';
import { certificateCard, organizationCard } from './blocks.js';
import { csrMismatch } from './csr.js';
import type { RenewalLedger } from './renewals.js';

export interface TlsServiceDeps {
  registrarFor(workspace: WorkspaceRef): RegistrarClient;
  redis: Redis;
  keys: KeySpace;
  /** The validation records of what Regdesk placed, for publishing (features/publish). */
  validations: ValidationLedger;
  /** The orders Regdesk placed, which watches read as renewals (renewals.ts). */
  renewals: RenewalLedger;
}

/** `dcv_method` from a form's choice; DNS unless e-mail was picked (docs/registrar-api.md §4.1, "Order modal"). */
export const dcvMethod = (choice: string): 'dns-cname-token' | 'email' =>
  choice === 'email' ? 'email' : 'dns-cname-token';

export type Card = { text: string; blocks: KnownBlock[] };
export type Download = { kind: 'file'; content: Buffer } | { kind: 'not-issued' };

/** What a reissue keeps between opening its modal and the submission: the names the CSR must fit. */
const ReissueDraft = z.lazy(() =>
  z.object({
    certificateId: z.string(),
    commonName: z.string(),
    dnsNames: z.array(z.string()),
  }),
);
type ReissueDraft = z.infer<typeof ReissueDraft>;
/** A draft's id: 12 random bytes in hex, the only part of it that travels through Slack. */
export const DRAFT_ID = /^[0-9a-f]{24}$/;
/** A reissue modal left open longer than this is answered with "run it again". */
const DRAFT_TTL_SECONDS = 24 * 60 * 60;

export class ReissueExpiredError extends AppError {
  constructor() {
    super('regdesk_tls_reissue_expired', () => text.tls.reissueExpired);
  }
}

export interface ReissueRequest {
  certificateId: string;
  /** For people reading the request and the audit; the registrar is sent `params`. */
  commonName: string;
  params: TlsCertificateReissueParams;
}

/**
 * The reissue form (strings, '' when empty) checked against its draft: the CSR must fit the certificate's
 * names, which are sent back unchanged because a SAN list, if sent, must equal the order's exactly
 * (docs/registrar-api.md §3, §4.1). Issue paths are form fields.
 */
const reissueForm = (draft: ReissueDraft) =>
  z
    .object({ csr: z.string().trim(), dcv: z.string(), comments: z.string().trim() })
    .transform((form, ctx): ReissueRequest => {
      const sans = draft.dnsNames.filter((name) => name !== draft.commonName);
      const mismatch = csrMismatch(form.csr, draft.commonName, sans, 'certificate');
      if (mismatch !== undefined) {
        ctx.addIssue({ code: 'custom', path: ['csr'], message: mismatch });
        return z.NEVER;
      }
      return {
        certificateId: draft.certificateId,
        commonName: draft.commonName,
        params: {
          csr: form.csr,
          dcv_method: dcvMethod(form.dcv),
          dns_names: draft.dnsNames,
          ...(form.comments === '' ? {} : { comments: form.comments }),
        },
      };
    });
export type ReissueFormInput = z.input<ReturnType<typeof reissueForm>>;

/**
 * Made on the first organization checked: ICU's region names cost about 6 MB resident, which a
 * process that never checks one should not hold (issue #17; docs/architecture.md "Memory").
 */
let regions: Intl.DisplayNames | undefined;
const regionName = (code: string) => {
  regions ??= new Intl.DisplayNames(['en'], { type: 'region' });
  return regions.of(code);
};

/**
 * Formats the spec leaves open (docs/registrar-api.md §2.3, "not shown") are checked by common rules:
 * ISO country, e-mail, phone.
 */
export function fieldError(field: OrganizationField, value: string): string | undefined {
  if (value.trim() === '') return text.tls.required;
  if (field === 'country_code' && (!/^[A-Z]{2}$/.test(value) || regionName(value) === value)) {
    return text.tls.notCountryCode;
  }
  if (field === 'email' && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value)) return text.tls.notEmail;
  if (field === 'phone' && !/^\+?[0-9][0-9 ()./-]{5,24}$/.test(value)) return text.tls.notPhone;
  return undefined;
}

const EDIT_MODES = ['update_provider', 'create_replacement'] as const;

const contact = (field: OrganizationField, text: z.ZodString = z.string().trim()) =>
  text.superRefine((value, ctx) => {
    const problem = fieldError(field, value);
    if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem });
  });

/**
 * The organization form: all nine contact fields (docs/registrar-api.md §4.2), and for an edit the
 * `edit_mode`, sent only when one of its two values was picked (§4.2, Regdesk's choice).
 */
export const OrganizationForm = z.lazy(() =>
  z.object({
    ...(Object.fromEntries(ORGANIZATION_FIELDS.map((field) => [field, contact(field)])) as Record<
      OrganizationField,
      z.ZodString
    >),
    country_code: contact('country_code', z.string().trim().toUpperCase()),
    edit_mode: z
      .string()
      .optional()
      .transform((mode) => EDIT_MODES.find((known) => known === mode)),
  }),
);
export type OrganizationFormOutput = z.output<typeof OrganizationForm>;

/**
 * The TLS use cases apart from ordering (order-service.ts): showing and downloading certificates,
 * reissuing, and TLS organizations. Plain calls with a workspace; no Slack beyond Block Kit cards.
 */
export class TlsService {
  constructor(private readonly deps: TlsServiceDeps) {}

  async certificate(workspace: WorkspaceRef, id: string): Promise<TlsCertificate> {
    return this.deps.registrarFor(workspace).tls.get(id);
  }

  async showCertificate(workspace: WorkspaceRef, id: string): Promise<Card> {
    return certificateCard(await this.certificate(workspace, id));
  }

  /**
   * The issued certificate (and chain) only: Regdesk never sees private keys. A 409 means "artifact not
   * available yet" (docs/registrar-api.md §4.1).
   */
  async download(workspace: WorkspaceRef, id: string, format: 'pem' | 'zip'): Promise<Download> {
    try {
      const file = await this.deps.registrarFor(workspace).tls.download(id, format);
      const content = file.format === 'pem' ? Buffer.from(file.text, 'utf8') : Buffer.from(file.bytes);
      return { kind: 'file', content };
    } catch (error) {
      if (error instanceof ConflictError) return { kind: 'not-issued' };
      throw error;
    }
  }

  /**
   * Reads the certificate and keeps its names under a random id for the modal's submission. Redis, not
   * `private_metadata`: a SAN list can exceed Slack's 3000 characters.
   */
  async startReissue(
    workspace: WorkspaceRef,
    certificateId: string,
  ): Promise<{ certificate: TlsCertificate; draftId: string }> {
    const certificate = await this.certificate(workspace, certificateId);
    const draft: ReissueDraft = {
      certificateId: certificate.id,
      commonName: certificate.common_name,
      dnsNames: certificate.dns_names,
    };
    const draftId = randomBytes(12).toString('hex');
    await this.deps.redis.set(
      this.#draftKey(workspace, draftId),
      JSON.stringify(draft),
      'EX',
      DRAFT_TTL_SECONDS,
    );
    return { certificate, draftId };
  }

  /**
   * Checks a submitted reissue form against the draft its modal was opened with. The draft is read
   * through a schema: like `private_metadata`, it may have been written by an older deployment.
   */
  async prepareReissue(
    workspace: WorkspaceRef,
    draftId: string,
    form: ReissueFormInput,
  ): Promise<z.ZodSafeParseResult<ReissueRequest>> {
    const raw = DRAFT_ID.test(draftId) ? await this.deps.redis.get(this.#draftKey(workspace, draftId)) : null;
    if (raw === null) throw new ReissueExpiredError();
    return reissueForm(readMetadata(ReissueDraft, raw)).safeParse(form);
  }

  async reissue(workspace: WorkspaceRef, request: ReissueRequest, by: string): Promise<TlsCertificate> {
    const certificate = await this.deps
      .registrarFor(workspace)
      .tls.reissue(request.certificateId, request.params);
    // Its validation records, for publishing (validation-ledger.ts); the reissue stands either way.
    await this.deps.validations
      .remember(workspace, certificate, { by, as: 'reissue' })
      .catch(() => undefined);
    return certificate;
  }

  /** Completes a staged order; its validation records, which appear now, are kept for publishing. */
  async complete(
    workspace: WorkspaceRef,
    certificateId: string,
    orgId: string,
    by: string,
  ): Promise<TlsCertificate> {
    const certificate = await this.deps.registrarFor(workspace).tls.complete(certificateId, orgId);
    await this.deps.validations
      .remember(workspace, certificate, { by, as: 'completion' })
      .catch(() => undefined);
    return certificate;
  }

  async organization(workspace: WorkspaceRef, id: string): Promise<TlsOrganization> {
    return this.deps.registrarFor(workspace).organizations.get(id);
  }

  async showOrganization(workspace: WorkspaceRef, id: string): Promise<Card> {
    return organizationCard(await this.organization(workspace, id));
  }

  /** Creates an organization, or updates `orgId` (with the chosen edit mode, if any). */
  async saveOrganization(
    workspace: WorkspaceRef,
    orgId: string | undefined,
    form: OrganizationFormOutput,
  ): Promise<TlsOrganization> {
    const registrar = this.deps.registrarFor(workspace);
    const { edit_mode, ...fields } = form;
    if (orgId === undefined) return registrar.organizations.create(fields);
    return registrar.organizations.update(orgId, {
      ...fields,
      ...(edit_mode === undefined ? {} : { edit_mode }),
    });
  }

  #draftKey(workspace: WorkspaceRef, draftId: string): string {
    return this.deps.keys.key(`ws:${workspaceId(workspace)}`, 'tls', 'reissue', draftId);
  }
}
