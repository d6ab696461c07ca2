import { z } from 'zod';

/** What a look raises (checks.ts, and sweep.ts for failed looks), as it waits in the outbox (outbox.ts). */

/** `known`: Mark as known, on a Certificate Transparency alert (known-issuance.ts; the alert's `issuance`). */
export const AlertButton = z.lazy(() => z.enum(['show', 'renew', 'reissue', 'verify', 'known']));
export type AlertButton = z.infer<typeof AlertButton>;

/**
 * Why an alert is raised, without the item: alerts of one sweep with the same cause, for the same
 * channel, are posted as one message (outbox.ts; `causeKey` groups them, blocks.ts `batchMessage`
 * words them). `reason` is the first failure's words, and not part of the key (`code` is).
 */
export const AlertCause = z.lazy(() =>
  z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('domain-expiry'), threshold: z.number(), lapses: z.boolean() }),
    /** A domain held at another registrar, its expiry read through RDAP (rdap-look.ts). */
    z.object({ kind: z.literal('rdap-expiry'), threshold: z.number() }),
    z.object({ kind: z.literal('certificate-expiry'), threshold: z.number(), renewed: z.boolean() }),
    z.object({ kind: z.literal('delegation') }),
    z.object({ kind: z.literal('dnssec-drift') }),
    z.object({ kind: z.literal('dnssec-stuck') }),
    z.object({ kind: z.literal('certificate-status'), status: z.string() }),
    z.object({ kind: z.literal('certificate-stuck'), usualDays: z.number() }),
    z.object({ kind: z.literal('not-found') }),
    z.object({ kind: z.literal('unreachable'), code: z.string(), reason: z.string() }),
    /** A new finding of the live DNS check (dns-look.ts), by its kind. */
    z.object({ kind: z.literal('dns-finding'), code: z.string() }),
    /** A name serving an older certificate, or one that ends sooner (served-look.ts). */
    z.object({ kind: z.literal('served-stale'), why: z.enum(['older', 'sooner']) }),
    /** No name of a certificate could be asked, several looks in a row (served-look.ts). */
    z.object({ kind: z.literal('served-unchecked') }),
    /**
     * An issuance in Certificate Transparency the registrar does not list (ct-look.ts). The issuance is
     * part of the cause, so each is posted alone, with its own Mark as known.
     */
    z.object({ kind: z.literal('ct-foreign'), issuance: z.string() }),
    /** The Certificate Transparency search failed several looks in a row (ct-look.ts). */
    z.object({ kind: z.literal('ct-unchecked') }),
  ]),
);
export type AlertCause = z.infer<typeof AlertCause>;

export const causeKey = (cause: AlertCause): string =>
  cause.kind === 'unreachable' ? `unreachable:${cause.code}` : JSON.stringify(cause);

export const Alert = z.lazy(() =>
  z.object({
    /** Identifies the threshold (and the date it concerns): raised once per mark. */
    mark: z.string(),
    /** `loud` mentions the channel (@here): the domain lapses unless someone acts. */
    level: z.enum(['loud', 'warn']),
    /** The message when the alert is alone. */
    text: z.string(),
    buttons: z.array(AlertButton),
    cause: AlertCause,
    /** The item's line in a message about several with the same cause. */
    line: z.string(),
    /** A Certificate Transparency issuance (its TBS SHA-256), for the Mark as known button. */
    issuance: z.string().optional(),
    /**
     * Raised by one look only: the look moves past what it found (the CT cursor), so no later look
     * raises it again. It is staged before that look's state is saved (sweep.ts), and a post that
     * fails is retried by the outbox rather than left to the next look (outbox.ts).
     */
    once: z.literal(true).optional(),
  }),
);
export type Alert = z.infer<typeof Alert>;
