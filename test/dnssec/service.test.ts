import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { dnssecFollower } from '../../src/features/dnssec/follow.js';
import { setExternalDnssec } from '../../src/features/dnssec/operations.js';
import {
  cancelDnssec,
  dnssecStatus,
  enableDnssec,
  parseRecords,
  type RecordRules,
  recordRules,
  sha1Algorithms,
  verifyDnssec,
} from '../../src/features/dnssec/service.js';
import {
  ConflictError,
  InternalUpstreamError,
  NotFoundError,
  RecordSetInvalidError,
  type RegistrarClient,
  UpstreamFailedError,
} from '../../src/registrar/index.js';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { sandboxClient } from '../helpers/registrar.js';

const SETTLE_MS = 30_000;
/** What the sandbox's registry accepts (src/sandbox/dnssec.ts). */
const SANDBOX_RULES: RecordRules = { kinds: ['ds'], algorithms: [8, 13, 14], minRecords: 1 };
const NOT_A_RECORD = (line: number) => `Line ${line} is not a DS or DNSKEY record in zone-file form.`;

describe('DNSSEC use cases against the registrar sandbox', () => {
  let sandbox: Sandbox;
  let registrar: RegistrarClient;
  let now: number;
  const puts = () => sandbox.calls.filter((call) => call.operation === 'dnssec.put');
  const dnssecOf = (domain: string) => sandbox.state.domains.get(domain)?.dnssec;

  beforeEach(async () => {
    now = Date.UTC(2026, 10, 22, 12);
    sandbox = await createSandbox({ clock: { now: () => now }, delays: { dnssecSettleMs: SETTLE_MS } });
    registrar = sandboxClient(sandbox);
  });
  afterEach(async () => {
    await sandbox.close();
  });

  describe('enable, verify, cancel', () => {
    it('enables service-managed DNSSEC on the service nameservers and follows the pending answer', async () => {
      const result = await enableDnssec(registrar, 'example.com');
      expect(result).toMatchObject({ outcome: 'enabled', follow: true, state: { dnssec_state: 'pending' } });
      expect(dnssecOf('example.com')).toMatchObject({ mode: 'regfish', desired: 'enabled' });
    });

    it('changes nothing when DNSSEC is already active', async () => {
      expect(await enableDnssec(registrar, 'regdesk-demo.de')).toEqual({ outcome: 'already-active' });
      expect(puts()).toHaveLength(0);
    });

    it('on external nameservers asks for records with the registry’s rules, and sends nothing', async () => {
      expect(await enableDnssec(registrar, 'shop-example.org')).toEqual({
        outcome: 'needs-records',
        rules: SANDBOX_RULES,
      });
      expect(puts()).toHaveLength(0);
      expect(dnssecOf('shop-example.org')?.mode).toBe('none');
    });

    it('verify keeps following while pending, and stops once the registry has settled', async () => {
      await enableDnssec(registrar, 'example.com');
      expect(await verifyDnssec(registrar, 'example.com')).toMatchObject({ follow: true });
      expect(await dnssecFollower.check(registrar, 'example.com')).toEqual({ settled: false });

      now += SETTLE_MS;
      const settled = await verifyDnssec(registrar, 'example.com');
      expect(settled).toMatchObject({ follow: false, state: { dnssec_state: 'active', mode: 'regfish' } });
      const outcome = await dnssecFollower.check(registrar, 'example.com');
      expect(outcome.settled && outcome.text).toContain('is now *active*');
    });

    it('cancel rolls a pending activation back; with nothing pending the registrar’s 409 comes through', async () => {
      await enableDnssec(registrar, 'example.com');
      const cancelled = await cancelDnssec(registrar, 'example.com');
      expect(cancelled).toMatchObject({ dnssec_state: 'inactive', desired_state: 'disabled', mode: 'none' });
      await expect(cancelDnssec(registrar, 'example.com')).rejects.toBeInstanceOf(ConflictError);
    });

    it('a failed enable (502) is reported and never retried, since the PUT may have changed something', async () => {
      sandbox.faults.inject('dnssec.put', { status: 502, times: 1 });
      await expect(enableDnssec(registrar, 'example.com')).rejects.toBeInstanceOf(UpstreamFailedError);
      expect(puts()).toHaveLength(1);
      expect(dnssecOf('example.com')?.mode).toBe('none');
    });

    it('status: an unknown domain is 404, a 500 comes through, a 503 on the read is retried', async () => {
      await expect(dnssecStatus(registrar, 'not-in-account.com')).rejects.toBeInstanceOf(NotFoundError);
      sandbox.faults.inject('dnssec.get', { status: 500, times: 1 });
      await expect(dnssecStatus(registrar, 'example.com')).rejects.toBeInstanceOf(InternalUpstreamError);
      sandbox.faults.inject('dnssec.get', { status: 503, times: 1 });
      expect(await dnssecStatus(registrar, 'regdesk-demo.de')).toMatchObject({ dnssec_state: 'active' });
    });
  });

  describe('external records', () => {
    it('parses DS and DNSKEY lines in zone-file form; digests and keys may be split by spaces', () => {
      const rules: RecordRules = { kinds: ['ds', 'dnskey'], algorithms: [13], minRecords: 2 };
      const text = '  DS 12345 13 2 49fd46e6 c4b45c55\n\ndnskey 257 3 13 mdsswUyr3DPW 132mw==\n';
      expect(parseRecords(text, rules)).toEqual({
        records: [
          { kind: 'ds', key_tag: 12345, algorithm: 13, digest_type: 2, digest: '49FD46E6C4B45C55' },
          { kind: 'dnskey', flags: 257, protocol: 3, algorithm: 13, public_key: 'mdsswUyr3DPW132mw==' },
        ],
      });
    });

    it('refuses a kind the registry does not accept', () => {
      expect(parseRecords('DNSKEY 257 3 13 mdsswUyr3DPW132mw==', SANDBOX_RULES)).toEqual({
        error: 'Line 1: the registry accepts only DS records.',
      });
    });

    it('refuses an algorithm outside the accepted ones, naming the line', () => {
      expect(parseRecords('DS 1 13 2 AB\nDS 2 5 2 CD', SANDBOX_RULES)).toEqual({
        error: 'Line 2: algorithm 5 is not accepted (accepted: 8, 13, 14).',
      });
    });

    it('refuses a DS with digest type 1 (SHA-1), naming the line; RSA/SHA-1 algorithms stay accepted', () => {
      const rules: RecordRules = { kinds: ['ds', 'dnskey'], algorithms: [], minRecords: 1 };
      expect(parseRecords(`DS 1 13 2 AB\nDS 2 13 1 ${'CD'.repeat(20)}`, rules)).toEqual({
        error:
          'Line 2: digest type 1 (SHA-1) is refused by registries. Use the DS with digest type 2 (SHA-256).',
      });
      const old = parseRecords('DS 1 5 2 AB\nDS 2 7 4 CD\nDNSKEY 257 3 5 AwEAAc==', rules);
      expect(old).toMatchObject({ records: [{ algorithm: 5 }, { algorithm: 7 }, { algorithm: 5 }] });
      if ('error' in old) throw new Error(old.error);
      expect(sha1Algorithms(old.records)).toEqual([5, 7]);
      expect(sha1Algorithms([{ kind: 'ds', algorithm: 13, digest_type: 2 }])).toEqual([]);
    });

    it('the approval request of RSA/SHA-1 records warns of the deprecation and names the rollover', async () => {
      const context = { registrar, workspace: { teamId: 'T0001' }, now };
      const preview = async (algorithm: number) =>
        (
          await setExternalDnssec.preview(
            context,
            setExternalDnssec.parse({
              domain: 'shop-example.org',
              records: [{ kind: 'ds', key_tag: 1, algorithm, digest_type: 2, digest: 'AB' }],
            }),
          )
        ).details.join('\n');
      expect(await preview(5)).toContain('Algorithm 5 (RSA/SHA-1) is deprecated by RFC 9905');
      expect(await preview(5)).toContain('13 (ECDSAP256SHA256) or 15 (ED25519)');
      expect(await preview(13)).not.toContain('RFC 9905');
    });

    it('needs at least min_records records, and at most 10', () => {
      expect(parseRecords('DS 1 13 2 AB', { ...SANDBOX_RULES, minRecords: 2 })).toEqual({
        error: 'At least 2 records are needed.',
      });
      expect(parseRecords('  \n', SANDBOX_RULES)).toEqual({ error: 'At least 1 record is needed.' });
      const eleven = Array.from({ length: 11 }, (_, i) => `DS ${i} 13 2 AB`).join('\n');
      expect(parseRecords(eleven, SANDBOX_RULES)).toEqual({ error: 'At most 10 records.' });
    });

    it('refuses malformed lines: not a record, non-hex digest, missing fields, non-integer numbers', () => {
      for (const text of [
        'not a record',
        'DS 12345 13 2 XYZ',
        'DS 12345 13 2',
        'DS 1.5 13 2 AB',
        'TXT 1 2 3 4',
      ]) {
        expect(parseRecords(text, SANDBOX_RULES)).toEqual({ error: NOT_A_RECORD(1) });
      }
      expect(parseRecords('DS 1 13 2 AB\nexample.com. 3600 IN DS 1 13 2 AB', SANDBOX_RULES)).toEqual({
        error: NOT_A_RECORD(2),
      });
    });

    it('without stated capabilities the rules default to DS records and at least one', () => {
      const bare = { dnssec_state: 'inactive', desired_records: [], live_records: [] };
      expect(recordRules(bare)).toMatchObject({ kinds: ['ds'], minRecords: 1 });
      const emptyKinds = { ...bare, capabilities: { accepted_record_kinds: [], accepted_algorithms: [13] } };
      expect(recordRules(emptyKinds)).toEqual({ kinds: ['ds'], algorithms: [13], minRecords: 1 });
      // No stated algorithms means no restriction, not "none accepted".
      expect(parseRecords('DS 12345 8 2 49FD46E6C4B45C55D4AC', recordRules(bare))).toMatchObject({
        records: [{ algorithm: 8 }],
      });
    });

    it('records within the rules are accepted by the registry once approved, and followed until active', async () => {
      const enable = await enableDnssec(registrar, 'shop-example.org');
      if (enable.outcome !== 'needs-records') throw new Error(`unexpected ${enable.outcome}`);
      const parsed = parseRecords('DS 12345 13 2 49FD46E6C4B45C55D4AC', enable.rules);
      if ('error' in parsed) throw new Error(parsed.error);

      const context = { registrar, workspace: { teamId: 'T0001' }, now };
      const params = setExternalDnssec.parse({ domain: 'shop-example.org', records: parsed.records });
      const execution = await setExternalDnssec.execute(context, params);
      expect(execution.follow).toEqual({ kind: 'dnssec', resource: 'shop-example.org' });
      expect(dnssecOf('shop-example.org')).toMatchObject({ mode: 'external', desired: 'enabled' });

      now += SETTLE_MS;
      const outcome = await dnssecFollower.check(registrar, 'shop-example.org');
      expect(outcome.settled && outcome.text).toContain('is now *active* (mode `external`)');
    });

    it('records outside the registry’s real rules are refused by it (417) and nothing changes', async () => {
      const parsed = parseRecords('DS 12345 5 2 ABCDEF', { ...SANDBOX_RULES, algorithms: [5] });
      if ('error' in parsed) throw new Error(parsed.error);
      const context = { registrar, workspace: { teamId: 'T0001' }, now };
      const params = setExternalDnssec.parse({ domain: 'shop-example.org', records: parsed.records });
      await expect(setExternalDnssec.execute(context, params)).rejects.toBeInstanceOf(RecordSetInvalidError);
      expect(dnssecOf('shop-example.org')?.mode).toBe('none');
    });
  });
});
