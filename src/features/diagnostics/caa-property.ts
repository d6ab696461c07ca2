import { CAA_TAGS } from '../../dns/caa-tags.js';
/**
 * CAA property values as RFC 8659 §4.2 writes them, with RFC 8657's `accounturi` and
 * `validationmethods` parameters:
 *
 *   issue-value = *WSP [issuer-domain-name *WSP] [";" *WSP [parameters *WSP]]
 *   parameters  = (parameter *WSP ";" *WSP parameters) / parameter
 *   parameter   = tag *WSP "=" *WSP value
 *
 * An empty issuer (`;`) names no CA: with no other `issue` record, no CA may issue.
 */
export interface IssueValue {
  /** Lower case, without a trailing dot; '' when the value names no CA. */
  issuer: string;
  /** Parameters in their order, tags in lower case (RFC 8659: tags match case-insensitively). */
  parameters: ReadonlyArray<readonly [string, string]>;
}

/** A label of an issuer domain or a parameter tag: letters and digits, inner hyphens (RFC 8659 §4.2). */
const LABEL = /^[a-z0-9](?:-*[a-z0-9])*$/i;
/** A parameter: tag, `=`, and a value of printable characters except `;` (no spaces). */
const PARAMETER = /^([a-z0-9](?:-*[a-z0-9])*)[ \t]*=[ \t]*([\x21-\x3a\x3c-\x7e]*)$/i;
const WSP = /^[ \t]+|[ \t]+$/g;

/** The issuer and parameters of an `issue`/`issuewild` value, or undefined when it is malformed. */
export function parseIssueValue(value: string): IssueValue | undefined {
  const [head = '', ...rest] = value.split(';');
  const issuer = head.replace(WSP, '').replace(/\.$/, '').toLowerCase();
  if (issuer !== '' && !issuer.split('.').every((label) => LABEL.test(label))) return undefined;
  const parameters: Array<readonly [string, string]> = [];
  for (const part of rest) {
    const trimmed = part.replace(WSP, '');
    // `digicert.com;` (no parameters after the `;`) is allowed; tolerate an empty one between them too.
    if (trimmed === '') continue;
    const match = PARAMETER.exec(trimmed);
    if (match === null) return undefined;
    parameters.push([(match[1] ?? '').toLowerCase(), match[2] ?? '']);
  }
  return { issuer, parameters };
}

/**
 * Whether a validation method label (RFC 8657 §4) is DNS-based. Regdesk's orders are validated
 * through DNS unless the person picks e-mail (features/tls: `dcv_method` `dns-cname-token`, a CNAME
 * the zone serves), which is `dns-01` in ACME's terms. The labels are ACME method names (IANA's
 * registry: `dns-01`, `http-01`, `tls-alpn-01`, …) or a CA's own names, which Regdesk cannot know for
 * sure: it treats `dns-01` and any label containing `dns` (e.g. `dns-account-01`,
 * `ca-dns-txt-change`) as DNS-based, and every other label (`http-01`, `tls-alpn-01`,
 * `email-reply-00`) as not.
 */
export const isDnsMethod = (label: string): boolean => {
  const lower = label.trim().toLowerCase();
  return lower === 'dns-01' || lower.includes('dns');
};

/**
 * Whether a label names validation by e-mail to a domain contact (the registrar's `dcv_method`
 * `email`). No ACME method does (`email-reply-00`, RFC 8823, proves an e-mail address for S/MIME, not
 * a domain), so only a CA's own label can (RFC 8657 §4: non-ACME labels carry the CA's prefix);
 * Regdesk takes any other label that mentions mail (`ca-email`, `ca-constructed-email`) as one.
 */
export const isEmailMethod = (label: string): boolean => {
  const lower = label.trim().toLowerCase();
  return lower !== 'email-reply-00' && lower.includes('mail');
};

/** How an order proves control of its names, as the registrar offers it (`dcv_method`). */
export type ValidationKind = 'dns' | 'email';

const MEANS: Record<ValidationKind, (label: string) => boolean> = {
  dns: isDnsMethod,
  email: isEmailMethod,
};

/** Whether every `validationmethods` of the value (if any) lists a label of `kind`. */
const permits = (value: IssueValue, kind: ValidationKind): boolean =>
  value.parameters
    .filter(([tag]) => tag === 'validationmethods')
    .every(([, list]) => list.split(',').some(MEANS[kind]));

/** Why a record naming the CA still does not authorize Regdesk's order; undefined when it does. */
export type Restriction = 'account' | 'methods';

/**
 * What keeps an `issue` value that names the CA from authorizing an order through the registrar's
 * account validated by one of `kinds`: `validationmethods` allowing none of them (the CA must refuse,
 * RFC 8657 §4), or `accounturi` (RFC 8657 §3: only that ACME account; the registrar's account is not
 * known to Regdesk, so the order may be refused). Methods first: that one surely fails.
 */
export function restrictionOf(
  value: IssueValue,
  kinds: readonly ValidationKind[] = ['dns'],
): Restriction | undefined {
  if (!kinds.some((kind) => permits(value, kind))) return 'methods';
  if (value.parameters.some(([tag]) => tag === 'accounturi')) return 'account';
  return undefined;
}

/**
 * The value to set instead: the same without `accounturi`, and allowing `kind`: `dns-01` added to
 * its methods, or for e-mail, which has no label every CA shares, without `validationmethods`.
 */
export function relaxedValue(value: IssueValue, kind: ValidationKind = 'dns'): string {
  const parameters = value.parameters.flatMap(([tag, v]): string[] => {
    if (tag === 'accounturi') return [];
    if (tag === 'validationmethods' && !v.split(',').some(MEANS[kind]))
      return kind === 'email' ? [] : [`${tag}=${v === '' ? '' : `${v},`}dns-01`];
    return [`${tag}=${v}`];
  });
  return [value.issuer, ...parameters].join('; ');
}

/** The validation methods a value allows, as written (for the finding). */
export const methodsOf = (value: IssueValue): string =>
  value.parameters
    .filter(([tag]) => tag === 'validationmethods')
    .map(([, list]) => list)
    .join(', ');

/**
 * RFC 8659 §4.1: a property with the Issuer Critical flag (128) and a tag the CA does not understand
 * forbids all issuance. Regdesk counts the tags CAs process today as understood (dns/caa-tags.ts).
 */
const KNOWN_TAGS: readonly string[] = CAA_TAGS;

export const isUnknownCritical = (record: { flags?: number | undefined; tag: string }): boolean =>
  ((record.flags ?? 0) & 128) !== 0 && !KNOWN_TAGS.includes(record.tag.toLowerCase());
