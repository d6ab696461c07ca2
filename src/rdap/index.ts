export {
  BOOTSTRAP_MAX_AGE_MS,
  BOOTSTRAP_RETRY_MS,
  matchServer,
  parseBootstrap,
  type ServerLookup,
} from './bootstrap.js';
export {
  RDAP_LIMITS,
  RDAP_PACE,
  RDAP_RETRY,
  RdapClient,
  type RdapClientDeps,
  type RdapFailure,
  type RdapLookup,
} from './client.js';
export { type RdapFacts, rdapFacts } from './facts.js';
export type { HttpLimits } from './http.js';
