import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../../src/config.js';
import { approvalMessage } from '../../src/features/approvals/blocks.js';
import { setExternalDnssec } from '../../src/features/dnssec/operations.js';
import { changeNameservers } from '../../src/features/domains/operations.js';
import { VanitySets } from '../../src/features/domains/vanity.js';
import { ValidationLedger } from '../../src/features/publish/validation-ledger.js';
import { reissueCertificate } from '../../src/features/tls/operations.js';
import { createRegistrarClient } from '../../src/registrar/index.js';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { dnskeyKeyTag } from '../../src/shared/dnskey.js';
import { createRedis, KeySpace } from '../../src/shared/redis.js';
import { approvalRequest } from '../helpers/approval-request.js';
import { assertWithinBlockKitLimits } from '../helpers/block-kit.js';
import { testRedisUrl } from '../helpers/provided-context.js';

const WS = { teamId: 'T0001' };
const fixture = (name: string) => new URL(`../fixtures/csr/${name}`, import.meta.url);

/** docs/requirements.md R10: the approver sees what executes, in full, within Slack's limits. */
describe('an approval request shows exactly what will execute', () => {
  let sandbox: Sandbox;
  const redis = createRedis(testRedisUrl(), 'worker');
  const keys = new KeySpace(`twhat${randomBytes(4).toString('hex')}`);
  const vanitySets = new VanitySets(redis, keys);
  beforeAll(async () => {
    sandbox = await createSandbox();
  });
  afterAll(async () => {
    await sandbox.close();
    redis.disconnect();
  });
  const context = () => ({
    workspace: WS,
    registrar: createRegistrarClient({ baseUrl: sandbox.url, apiKey: sandbox.apiKey }),
    now: Date.now(),
    limits: DEFAULT_LIMITS,
    keys,
    vanitySets,
    validations: new ValidationLedger(redis, keys),
  });
  const requestOf = (details: string[]) => approvalRequest({ details });

  it('computes DNSKEY key tags as RFC 4034 does (its §5.4 example key has tag 60485)', () => {
    const key =
      'AQOeiiR0GOMYkDshWoSKz9XzfwJr1AYtsmx3TGkJaNXVbfi/2pHm822aJ5iI9BMzNXxeYCmZDRD99WYwYqUSdjMmmAphXdvxegXd/M5+X7OrzKBaMbCVdFLUUh6DhweJBjEVv5f2wwjM9XzcnOf+EPbtG9DMBmADjFDc2w/rljwvFw==';
    expect(dnskeyKeyTag(256, 3, 5, key)).toBe(60485);
  });

  it('external DNSSEC: ten 4096-bit DNSKEYs shown whole with their key tags, folded over blocks within limits', async () => {
    const keysShown = Array.from({ length: 10 }, () => randomBytes(516).toString('base64'));
    const records = keysShown.map((publicKey) => ({
      kind: 'dnskey' as const,
      flags: 257,
      protocol: 3,
      algorithm: 8,
      public_key: publicKey,
    }));
    const domain = [...sandbox.state.domains.keys()][0] as string;
    const preview = await setExternalDnssec.preview(context(), { domain, records });
    const message = approvalMessage(requestOf(preview.details));
    const text = JSON.stringify(message.blocks);
    for (const key of keysShown) expect(text).toContain(key);
    expect(text).toContain(`key tag ${dnskeyKeyTag(257, 3, 8, keysShown[0] as string)}`);
    assertWithinBlockKitLimits(message, 'message');
  });

  it("a delegation change names the vanity set's nameservers, not only its id", async () => {
    await vanitySets.remember(WS, [
      { id: 7, nameservers: ['ns1.brand.example', 'ns2.brand.example'] } as never,
    ]);
    const domain = [...sandbox.state.domains.keys()][0] as string;
    const shown = await changeNameservers.preview(context(), { domain, vanitySetId: 7 });
    expect(shown.details.join('\n')).toContain('`ns1.brand.example`, `ns2.brand.example`');
    const unknown = await changeNameservers.preview(context(), { domain, vanitySetId: 8 });
    expect(unknown.details.join('\n')).toContain('not known to Regdesk yet');
  });

  it("a reissue shows the new key's SHA-256 fingerprint, as openssl computes it", async () => {
    const csr = readFileSync(fixture('rsa-2048.csr'), 'utf8');
    const pubkey = execFileSync('openssl', [
      'req',
      '-in',
      fixture('rsa-2048.csr').pathname,
      '-pubkey',
      '-noout',
    ]);
    const der = execFileSync('openssl', ['pkey', '-pubin', '-outform', 'der'], { input: pubkey });
    const expected = (await import('node:crypto')).createHash('sha256').update(der).digest('hex');
    // The preview asks no DNS: the certificate preflight runs only when the request executes.
    const shown = await reissueCertificate.preview(
      { ...context(), certificatePreflight: undefined as never },
      {
        certificateId: 'cert-issued-recent',
        commonName: 'www.example.com',
        params: { csr, dcv_method: 'dns-cname-token' },
      } as never,
    );
    expect(shown.details.join('\n')).toContain(`RSA 2048 bits, public key SHA-256 \`${expected}\``);
  });
});
