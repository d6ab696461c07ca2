/**
 * A `Retry-After` header (RFC 9110 §10.2.3: seconds, or an HTTP date) as milliseconds from `now`,
 * between a second and `maxMs`; `defaultMs` when it is absent or unreadable. Shared by the outside
 * APIs that say when to ask again (Certificate Transparency, RDAP).
 */
export function retryAfterMs(
  header: string | null | undefined,
  now: number,
  bounds: { defaultMs: number; maxMs: number },
): number {
  const value = header?.trim() ?? '';
  let ms = bounds.defaultMs;
  if (/^\d+$/.test(value)) ms = Number(value) * 1000;
  else if (value !== '' && !Number.isNaN(Date.parse(value))) ms = Date.parse(value) - now;
  return Math.min(bounds.maxMs, Math.max(1_000, ms));
}
