import type { DnsRecord, RegistrarClient } from '../../registrar/index.js';
import { AppError } from '../../shared/app-error.js';
import type { WorkspaceRef } from '../../shared/workspace.js';
import { escapeMrkdwn } from '../../slack/mrkdwn.js';
import { text } from '../../text/index.js';
import type { MadeChange, RecordChange, RecordChanges, RecordValue } from './changes.js';
import { presentation } from './record-data.js';
import { checkChange, recordValueOf } from './rules.js';

/** A change as requested: the zone, the change, who asked, and the change it reverts if any. */
export interface ChangeRequest {
  domain: string;
  change: RecordChange;
  by: string;
  revertOf?: string | undefined;
  /** When the reverted change was made. */
  revertOfMadeAt?: number | undefined;
}

/** Records as the rules and the nameservers compare them: name, type, presentation and TTL. */
export const sameRecord = (a: RecordValue, b: RecordValue): boolean =>
  a.name === b.name &&
  a.type === b.type &&
  a.ttl === b.ttl &&
  presentation(a.type, a.data, a.priority) === presentation(b.type, b.data, b.priority);

/**
 * Why the change cannot be made on the zone as it is now, or undefined: every rule (rules.ts), and for
 * an edit or delete, that the record is still exactly what the requester saw (it may have been
 * changed since by someone else; acting then would overwrite or delete what nobody approved).
 */
export function refusal(records: readonly DnsRecord[], request: ChangeRequest): string | undefined {
  const { change, domain } = request;
  if (change.kind !== 'add') {
    const current = records.find((record) => record.id === change.id);
    const now = current === undefined ? undefined : recordValueOf(current);
    if (
      current !== undefined &&
      current.auto !== true &&
      (now === undefined || !sameRecord(now, change.before))
    )
      return text.records.changedSince({ id: change.id });
  }
  const errors = checkChange(
    domain,
    records,
    change.kind === 'add'
      ? { kind: 'add', after: change.after }
      : change.kind === 'edit'
        ? { kind: 'edit', id: change.id, after: change.after }
        : { kind: 'delete', id: change.id },
  );
  const error = Object.values(errors).find((found) => found !== undefined);
  // Said in mrkdwn (a refusal, an approval's blocker) and quoting the zone's records as they are:
  // escaped, so a TXT holding `<!channel>` or a link stays words (the modal's field errors are plain
  // text and take the rules' sentences unescaped).
  return error === undefined ? undefined : escapeMrkdwn(error);
}

/** The zone's negative-caching TTL (RFC 2308 §5: the smaller of the SOA's TTL and its minimum). */
async function negativeTtl(registrar: RegistrarClient, domain: string): Promise<number> {
  const soa = await registrar.dns
    .zone(domain)
    .then((zone) => zone.soa)
    .catch(() => undefined);
  const bounds = [soa?.ttl, soa?.minimum].filter((value): value is number => value !== undefined);
  // The registrar did not say: an hour is the usual SOA minimum, and the message says "up to".
  return bounds.length === 0 ? 3_600 : Math.min(...bounds);
}

/** How long resolvers may still answer from before the change (MadeChange.cacheSeconds). */
async function cacheSeconds(
  registrar: RegistrarClient,
  domain: string,
  records: readonly DnsRecord[],
  change: RecordChange,
): Promise<number> {
  const old = change.kind === 'add' ? undefined : change.before;
  const held = old === undefined ? [] : records.filter((r) => r.name === old.name && r.type === old.type);
  const ttls = held.map((record) => record.ttl ?? 0);
  // A name that had nothing of the type (an add, or an edit that moves the record) is cached as "no such record".
  const newName = change.kind !== 'delete' && (old === undefined || old.name !== change.after.name);
  if (newName) ttls.push(await negativeTtl(registrar, domain));
  return Math.max(0, ...ttls);
}

/**
 * Makes the change at the registrar: the zone's records read and kept first (R47), the rules checked
 * once more on them, then one write. Throws `ChangeRefused` when the zone no longer allows the change
 * (nothing written), or the registrar's error as it answered.
 */
export async function makeChange(
  registrar: RegistrarClient,
  changes: RecordChanges,
  workspace: WorkspaceRef,
  request: ChangeRequest,
  now: number,
): Promise<MadeChange> {
  const { domain, change } = request;
  const records = await registrar.dns.records(domain);
  const refused = refusal(records, request);
  if (refused !== undefined) throw new ChangeRefused(refused);
  const cache = await cacheSeconds(registrar, domain, records, change);
  let recordId: number;
  if (change.kind === 'add') {
    const created = await registrar.dns.createRecord(writable(change.after));
    // The registrar answers the created record with its id (spec addendum §1 #3); without one, 0 says "unknown".
    recordId = created.id ?? 0;
  } else if (change.kind === 'edit') {
    await registrar.dns.updateRecord(change.id, writable(change.after));
    recordId = change.id;
  } else {
    await registrar.dns.deleteRecord(change.id);
    recordId = change.id;
  }
  return changes.keep(workspace, {
    domain,
    change,
    recordId,
    by: request.by,
    at: now,
    ...(request.revertOf === undefined ? {} : { revertOf: request.revertOf }),
    before: records,
    cacheSeconds: cache,
  });
}

/** A record as the registrar takes it (the body of `POST /dns/rr` and `PATCH /dns/rr/{id}`). */
export function writable(value: RecordValue) {
  return {
    type: value.type,
    name: value.name,
    data: value.data,
    ttl: value.ttl,
    ...(value.priority === undefined ? {} : { priority: value.priority }),
  };
}

/**
 * The change that undoes `made`, under the same rules as any other: an add is undone by deleting the
 * record it created, an edit by editing it back, a delete by adding the record again as it was.
 */
export function revertOf(made: MadeChange): RecordChange {
  const { change } = made;
  switch (change.kind) {
    case 'add':
      return { kind: 'delete', id: made.recordId, before: change.after };
    case 'edit':
      return { kind: 'edit', id: made.recordId, before: change.after, after: change.before };
    case 'delete':
      return { kind: 'add', after: change.before };
  }
}

/** The zone no longer allows the change (a rule, or the record changed meanwhile): nothing was written. */
export class ChangeRefused extends AppError {
  constructor(reason: string) {
    super('regdesk_record_change_refused', reason);
  }
}
