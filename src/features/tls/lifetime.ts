// When a certificate's life begins and ends, as far as the registrar says: the /tls card and the
// watches (features/watches) read it here, so both count the same days (src/shared/days.ts).
import type { TlsCertificate } from '../../registrar/index.js';
import { DAY_MS, type Lifetime } from '../../shared/days.js';

/**
 * When the order was placed. The spec's certificate object has no order date ("not shown"); an
 * `ordered_at` / `created_at` field, if the registrar sends one (unknown fields are kept), is used.
 */
export function orderedAt(cert: TlsCertificate): number | undefined {
  for (const name of ['ordered_at', 'created_at', 'order_date']) {
    const value = (cert as Record<string, unknown>)[name];
    if (typeof value === 'number') return value < 1e11 ? value * 1000 : value;
    if (typeof value === 'string' && !Number.isNaN(Date.parse(value))) return Date.parse(value);
  }
  return undefined;
}

/** A timestamp field in seconds or milliseconds, or an ISO date; undefined when absent or unreadable. */
function timestamp(cert: TlsCertificate, names: readonly string[]): number | undefined {
  const fields = cert as Record<string, unknown>;
  for (const name of names) {
    const value = fields[name];
    if (typeof value === 'number' && value > 0) return value < 1e11 ? value * 1000 : value;
    if (typeof value === 'string' && !Number.isNaN(Date.parse(value))) return Date.parse(value);
  }
  return undefined;
}

/**
 * A certificate's expiry. The spec's certificate has no end date (docs/registrar-api.md §2.2): an
 * explicit date field is used when the registrar sends one, else order date + purchased days, which
 * is never later than the real end (a renewal's carried-over time only adds), so alerts come early,
 * never late. Undefined when neither is known.
 */
export function certificateExpiry(cert: TlsCertificate): number | undefined {
  const explicit = timestamp(cert, ['expires_at', 'valid_until', 'not_after', 'valid_to']);
  if (explicit !== undefined) return explicit;
  const ordered = orderedAt(cert);
  if (ordered === undefined || cert.validity_days === undefined) return undefined;
  return ordered + cert.validity_days * DAY_MS;
}

/**
 * The issued lifetime: not-before → not-after. The spec's certificate carries no not-before either
 * (docs/registrar-api.md §2.2), so an explicit field (`not_before`, `valid_from`, `issued_at`) is used
 * when the registrar sends one, else the order date (`orderedAt`: the sandbox's `ordered_at`). With
 * an end of order date + purchased days that makes the lifetime exactly `validity_days`; with an
 * explicit end it can only be longer than the issued one (issuance follows the order), so the scaled
 * thresholds come a little early, never late. Undefined without a start and an end, or when the end
 * is not after the start.
 */
export function certificateLifetime(cert: TlsCertificate): Lifetime | undefined {
  const expiresAt = certificateExpiry(cert);
  const startsAt = timestamp(cert, ['not_before', 'valid_from', 'issued_at']) ?? orderedAt(cert);
  if (expiresAt === undefined || startsAt === undefined || expiresAt <= startsAt) return undefined;
  return { startsAt, expiresAt };
}
