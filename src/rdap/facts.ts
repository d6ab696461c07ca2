import { FnProperty, JCard, type RdapDomain, type RdapEntity } from './schema.js';

/** What a watch needs of an RDAP domain answer. */
export interface RdapFacts {
  /** The `expiration` event (RFC 9083 §4.5, §10.2.3), when the registry publishes one. */
  expiresAt?: number;
  /** The `fn` of the entity with the role `registrar` (RFC 9083 §10.2.4). */
  registrar?: string;
  /** A transfer prohibited by the registrar or the registry (RFC 8056 §2 maps EPP's statuses). */
  transferLock: boolean;
  /** Past its expiry and on its way out: redemption period or pending delete (RFC 8056 §2, RFC 3915). */
  lapsing: boolean;
}

/**
 * RFC 9083 §10.2.2 has "transfer prohibited" of its own; RFC 8056 maps EPP's clientTransferProhibited
 * and serverTransferProhibited to the other two.
 */
const TRANSFER_LOCKS = new Set([
  'transfer prohibited',
  'client transfer prohibited',
  'server transfer prohibited',
]);
const LAPSING = new Set(['redemption period', 'pending delete', 'pending restore']);
/** A registrar's name as shown: long enough for any real one, short enough for a list line. */
const MAX_NAME = 80;

export function rdapFacts(domain: RdapDomain): RdapFacts {
  const statuses = new Set((domain.status ?? []).map((status) => status.trim().toLowerCase()));
  const expiry = (domain.events ?? []).find(
    (event) => event.eventAction.trim().toLowerCase() === 'expiration',
  );
  const expiresAt = expiry?.eventDate === undefined ? Number.NaN : Date.parse(expiry.eventDate);
  const registrar = (domain.entities ?? [])
    .filter((entity) => entity.roles?.some((role) => role.toLowerCase() === 'registrar'))
    .map(nameOf)
    .find((name) => name !== undefined);
  return {
    ...(Number.isFinite(expiresAt) && expiresAt > 0 ? { expiresAt } : {}),
    ...(registrar === undefined ? {} : { registrar }),
    transferLock: [...statuses].some((status) => TRANSFER_LOCKS.has(status)),
    lapsing: [...statuses].some((status) => LAPSING.has(status)),
  };
}

/** The entity's formatted name from its jCard, printable characters only. */
function nameOf(entity: RdapEntity): string | undefined {
  const card = JCard.safeParse(entity.vcardArray);
  if (!card.success) return undefined;
  for (const property of card.data[1]) {
    const fn = FnProperty.safeParse(property);
    if (!fn.success) continue;
    // Control characters (Unicode's Cc) would break a list line or hide part of the name.
    const name = fn.data[3]
      .replace(/\p{Cc}/gu, ' ')
      .replace(/\s+/g, ' ')
      .trim();
    if (name !== '') return name.slice(0, MAX_NAME);
  }
  return undefined;
}
