import { z } from 'zod';
import type { TlsCertificate } from '../../registrar/index.js';
import type { KeySpace, Redis } from '../../shared/redis.js';
import { type WorkspaceRef, workspaceId } from '../../shared/workspace.js';

export const ValidationRecord = z.object({ name: z.string(), type: z.string(), value: z.string() });
export type ValidationRecord = z.infer<typeof ValidationRecord>;

const Remembered = z.object({
  commonName: z.string(),
  records: z.array(ValidationRecord),
  /** Who placed the order, reissue or completion through Regdesk (the publishing policy asks). */
  placedBy: z.string().optional(),
});

/** As long as a CA gives an order to validate. */
const TTL_S = 31 * 86_400;

/**
 * The DNS validation records of the orders and reissues Regdesk placed, by certificate id: the
 * registrar shows them only in the answer to the order or reissue (docs/registrar-api.md §2.2), and
 * publishing them (features/publish) must take them from here, never from a button's value, which a
 * forged payload could point at any name in the zone.
 */
export class ValidationLedger {
  constructor(
    private readonly redis: Redis,
    private readonly keys: KeySpace,
  ) {}

  #key(workspace: WorkspaceRef, certificateId: string): string {
    return this.keys.key(`ws:${workspaceId(workspace)}`, 'tls', 'validation', certificateId);
  }

  /** Keeps a certificate's dns-cname-token records (a newer answer replaces them: a reissue's). */
  async remember(workspace: WorkspaceRef, certificate: TlsCertificate, placedBy?: string): Promise<void> {
    const validation = certificate.validation;
    if (validation?.method !== 'dns-cname-token' || validation.dns_records.length === 0) return;
    const records = validation.dns_records.map(({ name, type, value }) => ({ name, type, value }));
    const value = JSON.stringify({
      commonName: certificate.common_name,
      records,
      ...(placedBy === undefined ? {} : { placedBy }),
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
