import { z } from 'zod';
import { type TlsCertificate, validationOf } from '../../registrar/index.js';
import type { KeySpace, Redis } from '../../shared/redis.js';
import { type WorkspaceRef, workspaceId } from '../../shared/workspace.js';

export const ValidationRecord = z.lazy(() =>
  z.object({ name: z.string(), type: z.string(), value: z.string() }),
);
export type ValidationRecord = z.infer<typeof ValidationRecord>;

const Remembered = z.lazy(() =>
  z.object({
    commonName: z.string(),
    records: z.array(ValidationRecord),
    /** Who placed the order, reissue or completion through Regdesk (the publishing policy asks). */
    placedBy: z.string().optional(),
    /**
     * Who placed the original order, where Regdesk saw it: a reissue by someone else does not make the
     * certificate theirs to publish for without an approval (contract §3 "Policy").
     */
    orderedBy: z.string().optional(),
  }),
);

/** How the certificate's current validation records came to be, and through whom. */
export interface Placement {
  /** Unknown for an order placed by an approval whose requester was not recorded. */
  by: string | undefined;
  as: 'order' | 'reissue' | 'completion';
}

/** As long as a CA gives an order to validate. */
const TTL_S = 31 * 86_400;

/**
 * The DNS validation records of the orders and reissues Regdesk placed, by certificate id: the
 * registrar shows them only in the answer to the order or reissue (docs/registrar-api.md §2.2), and
 * publishing them (features/publish) must take them from here, never from a button's value, which a
 * forged payload could point at any name in the zone.
 */
/** A name as the certificate and its DCV records compare it: lower case, no trailing dot, no `*.`. */
const baseName = (name: string) => name.toLowerCase().replace(/\.$/, '').replace(/^\*\./, '');

export class ValidationLedger {
  constructor(
    private readonly redis: Redis,
    private readonly keys: KeySpace,
  ) {}

  #key(workspace: WorkspaceRef, certificateId: string): string {
    return this.keys.key(`ws:${workspaceId(workspace)}`, 'tls', 'validation', certificateId);
  }

  /**
   * Keeps a certificate's dns-cname-token records (a newer answer replaces them: a reissue's, which the
   * registrar puts under `reissue.validation`). Only records for the certificate's own names are kept:
   * `_token.<name>` where `<name>` is its common name or one of its DNS names (a wildcard's base), so
   * a registrar answer naming anything else in the zone never reaches publishing.
   */
  async remember(workspace: WorkspaceRef, certificate: TlsCertificate, placed: Placement): Promise<void> {
    const validation = validationOf(certificate);
    if (validation?.method !== 'dns-cname-token' || validation.dns_records.length === 0) return;
    const names = new Set([certificate.common_name, ...certificate.dns_names].map(baseName));
    const records = validation.dns_records
      .filter(({ name }) => names.has(baseName(name.replace(/^[^.]*\./, ''))))
      .map(({ name, type, value }) => ({ name, type, value }));
    if (records.length === 0) return;
    const before = placed.as === 'order' ? undefined : await this.recall(workspace, certificate.id);
    const orderedBy =
      placed.as === 'order'
        ? placed.by
        : placed.as === 'reissue'
          ? (before?.orderedBy ?? before?.placedBy)
          : (before?.orderedBy ?? placed.by);
    const value = JSON.stringify({
      commonName: certificate.common_name,
      records,
      ...(placed.by === undefined ? {} : { placedBy: placed.by }),
      ...(orderedBy === undefined ? {} : { orderedBy }),
    });
    await this.redis.set(this.#key(workspace, certificate.id), value, 'EX', TTL_S);
  }

  async recall(
    workspace: WorkspaceRef,
    certificateId: string,
  ): Promise<z.infer<typeof Remembered> | undefined> {
    const raw = await this.redis.get(this.#key(workspace, certificateId));
    if (raw === null) return undefined;
    try {
      const parsed = Remembered.safeParse(JSON.parse(raw));
      return parsed.success ? parsed.data : undefined;
    } catch {
      return undefined;
    }
  }
}
