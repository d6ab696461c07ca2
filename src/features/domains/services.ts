import type { KeySpace, Redis } from '../../shared/redis.js';
import { VanitySets } from './vanity.js';

export interface DomainServices {
  /** The account's vanity nameserver sets as last seen (delegation changes answer with them). */
  vanitySets: VanitySets;
}

export function buildDomainServices({ redis, keys }: { redis: Redis; keys: KeySpace }): DomainServices {
  return { vanitySets: new VanitySets(redis, keys) };
}
