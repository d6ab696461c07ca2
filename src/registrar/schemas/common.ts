import { z } from 'zod';

/**
 * Timestamps in domain and record objects are integers whose unit the spec leaves open (2.6, "not
 * shown"). Accepted: seconds, milliseconds, or an ISO string; normalised to epoch milliseconds.
 * Values below 1e11 are read as seconds (1e11 s is the year 5138; 1e11 ms is 1973).
 */
export const Timestamp = z.lazy(() =>
  z.union([z.number(), z.string()]).transform((value, ctx) => {
    if (typeof value === 'number') return value < 1e11 ? value * 1000 : value;
    const numeric = Number(value);
    if (value.trim() !== '' && Number.isFinite(numeric)) return numeric < 1e11 ? numeric * 1000 : numeric;
    const parsed = Date.parse(value);
    if (Number.isNaN(parsed)) {
      ctx.addIssue({ code: 'custom', message: 'not a timestamp' });
      return z.NEVER;
    }
    return parsed;
  }),
);

/** Error envelope (docs/registrar-api.md §7.1); `code` values on errors are not shown, so any number is accepted. */
export const ErrorEnvelope = z.lazy(() =>
  z.looseObject({
    success: z.literal(false),
    message: z.string().optional(),
    error: z.string().optional(),
    code: z.number().optional(),
  }),
);
export type ErrorEnvelope = z.infer<typeof ErrorEnvelope>;

/**
 * Success envelope (docs/registrar-api.md §2.1): the payload is validated by each operation's own schema.
 * `response` may be absent: the recorded `DELETE /dns/rr/{id}` answer has none (its text is in `error`).
 */
export const SuccessEnvelope = z.lazy(() =>
  z.looseObject({
    success: z.literal(true),
    code: z.number().optional(),
    response: z.unknown().optional(),
  }),
);
