import type { AllowedRange } from '../../src/dns/addresses.js';

/**
 * The DNS lab's addresses (127.53.N.0/24 each, test/helpers/dns-lab.ts) and the playground's
 * (127.53.0.0/24) are loopback, which live checks never ask unless LIVE_CHECK_ALLOW says so (contract §2).
 */
export const LAB_RANGE = '127.53.0.0/16';
export const LAB_ALLOWED: AllowedRange[] = [{ network: '127.53.0.0', prefix: 16 }];
