import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { ValidationLedger } from '../../src/features/publish/validation-ledger.js';
import { ORDER_IDS } from '../../src/features/tls/ids.js';
import { RenewalLedger } from '../../src/features/tls/renewals.js';
import type { TlsServiceDeps } from '../../src/features/tls/service.js';
import type { RegistrarClient } from '../../src/registrar/index.js';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { createRedis, KeySpace, type Redis, waitForReady } from '../../src/shared/redis.js';
import { stateInput } from '../helpers/payloads.js';
import { testRedisUrl } from '../helpers/provided-context.js';
import { sandboxClient } from '../helpers/registrar.js';

/**
 * What the TLS use-case tests run against: the in-process registrar sandbox through the real client,
 * and real Redis under a key prefix of their own. No Slack.
 */
export interface World {
  sandbox: Sandbox;
  registrar: RegistrarClient;
  redis: Redis;
  /** Fresh deps under a new key prefix, so each test starts with an empty Redis. */
  deps(): TlsServiceDeps;
  close(): Promise<void>;
}

export const WORKSPACE = { teamId: 'T0TLS' };

export async function startWorld(): Promise<World> {
  const sandbox = await createSandbox({ delays: { certificateIssueMs: 60_000 } });
  const registrar = sandboxClient(sandbox);
  // The request role, as in production: no offline queue, so wait until it is connected.
  const redis = createRedis(testRedisUrl(), 'request', 'tls-test');
  await waitForReady(redis);
  const prefixes: string[] = [];
  return {
    sandbox,
    registrar,
    redis,
    deps: () => {
      const prefix = `t-${randomBytes(5).toString('hex')}`;
      prefixes.push(prefix);
      const keys = new KeySpace(prefix);
      return {
        registrarFor: () => registrar,
        redis,
        keys,
        validations: new ValidationLedger(redis, keys),
        renewals: new RenewalLedger(redis, keys),
      };
    },
    close: async () => {
      for (const prefix of prefixes) {
        let cursor = '0';
        do {
          const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 500);
          if (keys.length > 0) await redis.del(...keys);
          cursor = next;
        } while (cursor !== '0');
      }
      redis.disconnect();
      await sandbox.close();
    },
  };
}

/** Real openssl CSRs from test/fixtures/csr (see its README): www.example.com and example.com. */
export const fixtureCsr = (name: string): string =>
  readFileSync(new URL(`../fixtures/csr/${name}.csr`, import.meta.url), 'utf8');

/** A fresh CSR for other names (the private key is thrown away at once). */
export function csrFor(commonName: string, sans: readonly string[]): string {
  const args = ['req', '-new', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'];
  args.push('-keyout', '/dev/null', '-subj', `/CN=${commonName}`);
  if (sans.length > 0) args.push('-addext', `subjectAltName=${sans.map((s) => `DNS:${s}`).join(',')}`);
  return execFileSync('openssl', args, { stdio: ['ignore', 'pipe', 'ignore'] }).toString();
}

/** An issued certificate of its own in the sandbox, so a test can change it without touching others. */
export function addIssuedCertificate(sandbox: Sandbox, id: string, names: readonly string[]): void {
  sandbox.state.certificates.set(id, {
    id,
    status: 'issued',
    common_name: names[0] ?? '',
    product: 'RapidSSL',
    dns_names: [...names],
    order_state: 'COMPLETED',
    organization_id: null,
    validity_days: 365,
    orderedAt: Date.now(),
    issueAt: null,
    dcv_method: 'dns-cname-token',
    action_required: false,
  });
}

/** The `/tls order` modal filled in for `cn` (RapidSSL, DNS validation, a matching CSR). */
export function orderForm(cn: string): Record<string, Record<string, unknown>> {
  return {
    ...stateInput(ORDER_IDS.product, { type: 'static_select', selected_option: { value: 'RapidSSL' } }),
    ...stateInput(ORDER_IDS.cn, { type: 'plain_text_input', value: cn }),
    ...stateInput(ORDER_IDS.csr, { type: 'plain_text_input', value: csrFor(cn, []) }),
    ...stateInput(ORDER_IDS.dcv, { type: 'radio_buttons', selected_option: { value: 'dns-cname-token' } }),
  };
}
