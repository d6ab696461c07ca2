/**
 * What issue #29's limit rows share: a registrar that counts a request when it arrives, up to this
 * long after it was sent (a random delay per request), and rounds run quiet or beside processes that
 * keep the machine's two cores busy.
 */
export const ARRIVAL_JITTER_MS = 50;
export const BURNERS = 2;

export interface Round {
  busy: boolean;
  /** The share of the limit's floor (or ceiling) the round must reach. */
  utilisation: number;
}
