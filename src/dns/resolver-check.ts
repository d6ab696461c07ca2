import type { Logger } from '../shared/logger.js';
import { type DnsClient, DnsUnreachable } from './client.js';

export type ResolverValidation = 'validating' | 'notValidating' | 'unreachable';

/**
 * Whether the configured resolvers validate DNSSEC: the root's SOA, asked with DO, comes back with
 * the AD bit only from a validating resolver (the root is signed; every validator holds its anchor).
 * Docker's, Kubernetes' and systemd's default resolvers forward without validating.
 */
export async function resolversValidate(dns: DnsClient): Promise<ResolverValidation> {
  try {
    const answer = await dns.forCheck().resolve('.', 'SOA', { dnssec: true });
    if (answer.rcode !== 'NOERROR') return 'unreachable';
    return answer.authenticated ? 'validating' : 'notValidating';
  } catch (error) {
    if (error instanceof DnsUnreachable) return 'unreachable';
    throw error;
  }
}

/**
 * Says once, at start, when DNSSEC verdicts cannot lean on the resolvers (docs/requirements.md R50):
 * Regdesk then validates from the root itself, and says "not verified" where it cannot read the chain.
 * In the background: start-up waits for no resolver.
 */
export function logResolverValidation(dns: DnsClient, logger: Logger): void {
  resolversValidate(dns).then(
    (state) => {
      if (state === 'notValidating')
        logger.warn(
          { resolvers: dns.resolvers.map((server) => `${server.host}:${server.port}`) },
          'the DNS resolvers do not validate DNSSEC: Regdesk validates the chain from the root itself, and says "not verified" where it cannot',
        );
      else if (state === 'unreachable')
        logger.info(
          'the DNS resolvers did not answer the root SOA: whether they validate DNSSEC is not known',
        );
    },
    (error: unknown) =>
      logger.warn({ err: error }, 'checking whether the DNS resolvers validate DNSSEC failed'),
  );
}
