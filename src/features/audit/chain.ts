import { createHash } from 'node:crypto';
import { canonicalJson } from '../../shared/canonical-json.js';

/**
 * The hash chain of an audit trail (docs/requirements.md R52). Each entry stores its `position` in
 * the chain (1, 2, …), `prev` (the hash of the entry before it; the genesis hash for the first), `at`
 * (when it was written, ms) and `hash`: SHA-256 of the canonical JSON of those and every content field.
 * Removing, changing or moving an entry breaks a link that `verifyChain` names.
 *
 * The shared `seq` field (the order of both trails of a workspace, for reading them merged) is not
 * hashed: Redis assigns it inside the append script, after Node computed the hash (Redis's Lua has no
 * SHA-256), and within one chain `position` already fixes the order.
 */

/** The `prev` of a chain's first entry: nothing came before it. */
export const GENESIS = '0'.repeat(64);

/** A chain's head (its newest entry) or anchor (its newest trimmed entry), as `position:hash`. */
export interface Link {
  position: number;
  hash: string;
}

/** Where a chain that never had an entry stands: the first entry is position 1 after the genesis hash. */
export const START: Link = { position: 0, hash: GENESIS };

/** Fields of a stored entry that are not its content. */
const CHAIN_FIELDS = new Set(['seq', 'position', 'prev', 'at', 'hash']);

export function formatLink(link: Link): string {
  return `${link.position}:${link.hash}`;
}

/** A head or anchor as stored; undefined when absent or not of the form `position:hash`. */
export function parseLink(text: string | null | undefined): Link | undefined {
  const match = /^(\d{1,15}):([0-9a-f]{64})$/.exec(text ?? '');
  return match === null ? undefined : { position: Number(match[1]), hash: match[2] ?? '' };
}

/** The hash an entry carries: over its place in the chain, its time and its content. */
export function entryHash(
  place: { position: number; prev: string; at: number },
  content: Readonly<Record<string, string>>,
): string {
  return createHash('sha256')
    .update(canonicalJson({ ...content, position: place.position, prev: place.prev, at: place.at }))
    .digest('hex');
}

/** The hash a stored entry should carry, recomputed from its fields (any field not of the chain is content). */
function storedHash(fields: Readonly<Record<string, string>>): string {
  const content = Object.fromEntries(Object.entries(fields).filter(([name]) => !CHAIN_FIELDS.has(name)));
  return entryHash(
    { position: Number(fields.position), prev: fields.prev ?? '', at: Number(fields.at) },
    content,
  );
}

/** What is wrong at the first bad entry of a chain (`id`: its stream id). */
export type ChainProblem =
  /** Its fields do not hash to its `hash`: changed since it was written. */
  | { kind: 'changed'; id: string }
  /** Its fields hash right, but the head names another entry at its position: rewritten whole. */
  | { kind: 'replaced'; id: string; position: number }
  /** It carries no hash, after chained entries: written or rewritten outside Regdesk. */
  | { kind: 'unchained'; id: string }
  /** Entries between `after` and its `position` are not in the stream (`link`: positions follow, hashes do not). */
  | { kind: 'missing_before'; id: string; position: number; after: number; cause: 'gap' | 'link' }
  /** It is stored before the entry at position `before`, which was written before it. */
  | { kind: 'out_of_order'; id: string; position: number; before: number }
  /** The chain ends at `position` (after entry `id`), its head says `head`: the newest entries are gone. */
  | { kind: 'missing_after'; id: string | undefined; position: number; head: number }
  /** Chained entries but no head: the key was deleted, so the next entry would not link. */
  | { kind: 'head_missing'; id: string };

export interface ChainVerdict {
  /** Chained entries checked. */
  checked: number;
  /** Entries from before the chain (no hash) that precede it: counted, not checked. */
  legacy: number;
  problem?: ChainProblem;
}

export interface ChainSource {
  /** The anchor and head when the first entries were read (read with them, atomically). */
  anchor: Link | undefined;
  head: Link | undefined;
  /** The entries, oldest first, every field as stored. */
  rows: AsyncIterable<{ id: string; fields: Readonly<Record<string, string>> }>;
  /** The anchor now: entries trimmed while the chain was read moved it, and a gap it explains is none. */
  currentAnchor(): Promise<Link | undefined>;
}

/**
 * Checks a chain from its oldest kept entry: against the anchor (or the genesis hash when nothing was
 * ever trimmed), each entry against its own hash and the one before it, the newest against the head.
 * Entries without a hash before the first chained one were written before the chain existed.
 */
export async function verifyChain(source: ChainSource): Promise<ChainVerdict> {
  let legacy = 0;
  let checked = 0;
  let previous: Link | undefined;
  let lastId: string | undefined;
  const head = source.head;
  const floor = source.anchor?.position ?? 0;
  let headSeen = head === undefined || head.position <= floor;
  // A gap is reported as such unless the entries it lacks turn up later in the stream: then they were
  // moved, and the entry that came too early is out of order.
  let gap: { problem: ChainProblem & { kind: 'missing_before' } } | undefined;
  const verdict = (problem: ChainProblem): ChainVerdict => ({ checked, legacy, problem });

  for await (const row of source.rows) {
    const fields = row.fields;
    if (gap !== undefined) {
      const position = Number(fields.position);
      const { after, position: early } = gap.problem;
      if (position > after && position < early)
        return verdict({ kind: 'out_of_order', id: gap.problem.id, position: early, before: position });
      continue;
    }
    if (fields.hash === undefined) {
      if (previous === undefined) {
        legacy++;
        continue;
      }
      return verdict({ kind: 'unchained', id: row.id });
    }
    const position = Number(fields.position);
    if (!Number.isSafeInteger(position) || position < 1 || storedHash(fields) !== fields.hash)
      return verdict({ kind: 'changed', id: row.id });
    if (previous !== undefined && position <= previous.position)
      return verdict({ kind: 'out_of_order', id: row.id, position, before: previous.position });
    const expected = previous ?? source.anchor ?? START;
    if (position !== expected.position + 1 || fields.prev !== expected.hash) {
      const moved = previous === undefined ? undefined : await source.currentAnchor();
      const relinked = moved !== undefined && moved.position + 1 === position && moved.hash === fields.prev;
      if (!relinked) {
        const cause = position === expected.position + 1 ? 'link' : 'gap';
        const problem = {
          kind: 'missing_before',
          id: row.id,
          position,
          after: expected.position,
          cause,
        } as const;
        if (cause === 'link') return verdict(problem);
        gap = { problem };
        continue;
      }
    }
    if (head !== undefined && position === head.position) {
      if (fields.hash !== head.hash) return verdict({ kind: 'replaced', id: row.id, position });
      headSeen = true;
    }
    previous = { position, hash: fields.hash };
    lastId = row.id;
    checked++;
  }
  if (gap !== undefined) return verdict(gap.problem);
  if (!headSeen && head !== undefined)
    return verdict({
      kind: 'missing_after',
      id: lastId,
      position: previous?.position ?? floor,
      head: head.position,
    });
  if (head === undefined && lastId !== undefined) return verdict({ kind: 'head_missing', id: lastId });
  return { checked, legacy };
}
