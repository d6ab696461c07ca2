import type { DnsRecord } from '../../registrar/index.js';
import type { RecordChange, RecordValue } from '../records/changes.js';
import { sameRecord } from '../records/make.js';
import { hasPriority } from '../records/record-data.js';
import { recordValueOf } from '../records/rules.js';

/** *merge* never deletes; *replace* also deletes the zone's records absent from the text (contract §3). */
export type ImportMode = 'merge' | 'replace';

/** A change set's plan: one step per record, in a fixed order, and how many records stay as they are. */
export interface ChangePlan {
  steps: RecordChange[];
  unchanged: number;
  /** The zone's records a plan may touch (neither `auto` nor the apex NS set): the 30 % rule's base. */
  manageable: number;
}

/** Above this share of a zone changed or deleted, the request needs one approval more (contract §3). */
export const LARGE_SHARE = 0.3;
/** …for zones of at least this many records: a small zone's every change is a large share. */
export const LARGE_ZONE_MIN = 10;

const canonical = (name: string) => `${name.toLowerCase().replace(/\.$/, '')}.`;

/**
 * Records a change set never touches: those the registrar manages (`auto`) and the apex NS set, which
 * is the delegation's business (`/domain ns`), not a zone file's.
 */
export function untouchable(
  origin: string,
  record: { name: string; type: string; auto?: boolean | undefined },
) {
  return (
    record.auto === true ||
    (record.type.toUpperCase() === 'NS' && canonical(record.name) === canonical(origin))
  );
}

/**
 * A record as a plan holds it. MX and SRV data that carries its priority in front (`10 mail.x.`, as
 * some zones are stored) is split into priority and data, so a step writes what the registrar takes.
 */
function planned(record: DnsRecord): RecordValue | undefined {
  const value = recordValueOf(record);
  if (value === undefined || !hasPriority(value.type) || value.priority !== undefined) return value;
  const match = /^(\d{1,5})\s+(\S.*)$/.exec(value.data);
  return match === null ? value : { ...value, priority: Number(match[1]), data: match[2] ?? value.data };
}

const key = (value: { name: string; type: string }) => `${canonical(value.name)} ${value.type.toUpperCase()}`;

/**
 * The plan from the zone as it is to the records of the text (docs/requirements.md R53). Per owner
 * and type: records equal in data and TTL stay; the rest pair up in order as changes (an edit keeps
 * the record's id, so its history and the nameservers' view move together), what is left of the text
 * is created and — in *replace* — what is left of the zone is deleted. Steps are ordered deletes, changes, creates, each
 * by owner, type and data, so a plan read twice is the same plan.
 */
export function planChanges(
  origin: string,
  current: readonly DnsRecord[],
  wanted: readonly RecordValue[],
  mode: ImportMode,
): ChangePlan {
  const existing = new Map<string, { id: number; value: RecordValue }[]>();
  let manageable = 0;
  for (const record of current) {
    if (untouchable(origin, record) || record.id === undefined) continue;
    const value = planned(record);
    if (value === undefined) continue;
    manageable += 1;
    const list = existing.get(key(value)) ?? [];
    list.push({ id: record.id, value });
    existing.set(key(value), list);
  }
  const desired = new Map<string, RecordValue[]>();
  for (const value of wanted) {
    if (untouchable(origin, value)) continue;
    const list = desired.get(key(value)) ?? [];
    // The same record twice in the text is one record.
    if (!list.some((other) => sameRecord(other, value))) list.push(value);
    desired.set(key(value), list);
  }
  const deletes: RecordChange[] = [];
  const edits: RecordChange[] = [];
  const creates: RecordChange[] = [];
  let unchanged = 0;
  for (const name of new Set([...existing.keys(), ...desired.keys()])) {
    const have = [...(existing.get(name) ?? [])];
    const want: RecordValue[] = [];
    for (const value of desired.get(name) ?? []) {
      const same = have.findIndex((record) => sameRecord(record.value, value));
      if (same >= 0) {
        have.splice(same, 1);
        unchanged += 1;
      } else want.push(value);
    }
    const pairs = Math.min(have.length, want.length);
    for (let i = 0; i < pairs; i += 1) {
      const from = have[i];
      const to = want[i];
      if (from !== undefined && to !== undefined)
        edits.push({ kind: 'edit', id: from.id, before: from.value, after: to });
    }
    for (const to of want.slice(pairs)) creates.push({ kind: 'add', after: to });
    for (const from of have.slice(pairs)) {
      if (mode === 'replace') deletes.push({ kind: 'delete', id: from.id, before: from.value });
      else unchanged += 1;
    }
  }
  const order = (change: RecordChange) => {
    const value = change.kind === 'delete' ? change.before : change.after;
    return `${key(value)} ${value.data}`;
  };
  const sorted = (changes: RecordChange[]) => changes.sort((a, b) => order(a).localeCompare(order(b)));
  return { steps: [...sorted(deletes), ...sorted(edits), ...sorted(creates)], unchanged, manageable };
}

/**
 * Whether the set is large (contract §3): changes and deletions together above 30 % of a zone of at
 * least 10 records it may touch. Such a request needs one approval more, and says why.
 */
export function isLarge(plan: ChangePlan): boolean {
  if (plan.manageable < LARGE_ZONE_MIN) return false;
  const touched = plan.steps.filter((step) => step.kind !== 'add').length;
  return touched > plan.manageable * LARGE_SHARE;
}
