import { NotFoundError } from '../../registrar/index.js';

/** Reads at once while checking names; the pace (pace.ts), not this, bounds the rate. */
const CONCURRENCY = 4;

export interface Sorted {
  /** The registrar answered with the item: it may be watched. */
  known: string[];
  /** The registrar does not know it for this key (404). */
  unknown: string[];
  /** The read failed otherwise (key refused, registrar down, pace): not watched, said why. */
  failed: { id: string; error: unknown }[];
}

/**
 * Reads each item before it is watched, as `/tls watch add` always did for certificates: a name the
 * registrar does not know for this key is not watched (security review item 4: a list of made-up
 * names once put an alert per name in the channel), and one that cannot be read now is not either
 * (the adder is told, and may try again). Results keep the order of `ids`.
 */
export async function sortKnown(
  ids: readonly string[],
  read: (id: string) => Promise<unknown>,
): Promise<Sorted> {
  const outcome = new Map<string, 'known' | 'unknown' | { error: unknown }>();
  let next = 0;
  const worker = async () => {
    while (next < ids.length) {
      const id = ids[next++] as string;
      try {
        await read(id);
        outcome.set(id, 'known');
      } catch (error) {
        outcome.set(id, error instanceof NotFoundError ? 'unknown' : { error });
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, ids.length) }, worker));
  const sorted: Sorted = { known: [], unknown: [], failed: [] };
  for (const id of ids) {
    const result = outcome.get(id);
    if (result === 'known') sorted.known.push(id);
    else if (result === 'unknown') sorted.unknown.push(id);
    else if (result !== undefined) sorted.failed.push({ id, error: result.error });
  }
  return sorted;
}
