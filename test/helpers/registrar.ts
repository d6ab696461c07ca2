import { createRegistrarClient, type RegistrarClient } from '../../src/registrar/index.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import { createLogger } from '../../src/shared/logger.js';

/**
 * The real registrar client against an in-process sandbox, as use-case tests need it: quiet, a short
 * timeout, and retries without waiting (the retry rule itself is tested in test/registrar).
 */
export function sandboxClient(sandbox: Sandbox): RegistrarClient {
  return createRegistrarClient({
    baseUrl: sandbox.url,
    apiKey: async () => sandbox.apiKey,
    logger: createLogger({ level: 'silent' }),
    timeoutMs: 2_000,
    sleep: async () => undefined,
  });
}
