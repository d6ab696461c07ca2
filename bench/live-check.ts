/**
 * One `/dns check`'s memory (issue #49), in a process of its own started with Regdesk's Node flags:
 * the check's modules loaded and one check of the silent zone run first (what a process has after
 * its first check), then, after BEFORE_MS, the measured check, its start and end printed so the
 * bench reads the resident size before, during and after it. Environment: BENCH_DNS_PORT (the silent
 * zone's world), REDIS_URL and BENCH_KEY_PREFIX (the ledger of placed orders, empty), and the
 * registrar sandbox's BENCH_REGISTRAR_URL and BENCH_REGISTRAR_KEY.
 */
import { DnsClient } from '../src/dns/client.js';
import { IANA_ROOT_ANCHORS, parseTrustAnchors } from '../src/dns/validator.js';
import { ProductsCa } from '../src/features/diagnostics/caa.js';
import { diagnose } from '../src/features/diagnostics/service.js';
import { RenewalLedger } from '../src/features/tls/renewals.js';
import { createRegistrarClient } from '../src/registrar/index.js';
import { createRedis, KeySpace, waitForReady } from '../src/shared/redis.js';
import { RESOLVER_ADDRESS, SILENT_ALLOWED, SILENT_ZONE } from './lib/silent-zone.js';

/** How long the bench reads the size before the measured check. */
const BEFORE_MS = 2_000;

const env = (name: string): string => {
  const value = process.env[name];
  if (value === undefined || value === '') throw new Error(`live-check: ${name} is not set`);
  return value;
};
const port = Number(env('BENCH_DNS_PORT'));
const redis = createRedis(env('REDIS_URL'), 'request', 'bench-live-check');
await waitForReady(redis);
const anchors = parseTrustAnchors(IANA_ROOT_ANCHORS);
const deps = {
  dns: new DnsClient({
    resolvers: [{ host: RESOLVER_ADDRESS, port }],
    nameserverPort: port,
    allowed: SILENT_ALLOWED,
  }),
  ledger: new RenewalLedger(redis, new KeySpace(env('BENCH_KEY_PREFIX'))),
  now: Date.now,
  productsCa: new ProductsCa(),
  trustAnchors: 'anchors' in anchors ? anchors.anchors : [],
};
const source = {
  registrar: createRegistrarClient({
    baseUrl: env('BENCH_REGISTRAR_URL'),
    apiKey: env('BENCH_REGISTRAR_KEY'),
    timeoutMs: 10_000,
  }),
  workspace: { teamId: 'TLIVECHECK' },
};
const check = async () => (await diagnose(deps, source, SILENT_ZONE)).notChecked.length;

await check();
// Started with --expose-gc by the bench (only for this): full collections around the measured check,
// so the heap it reports after is what the check left held, not garbage not yet collected.
const collect = () => {
  (globalThis as { gc?: () => void }).gc?.();
  return (process.memoryUsage().heapUsed / 1_048_576).toFixed(2);
};
const heapBefore = collect();
// The bench reads the size before for this long, then during the check, then after it.
process.stdout.write('live check warmed up, listening on http://127.0.0.1:0\n');
await new Promise((resolve) => setTimeout(resolve, BEFORE_MS));
process.stdout.write('live check started\n');
const unchecked = await check();
process.stdout.write(`live check done (${unchecked} not checked; heap ${heapBefore} -> ${collect()} MB)\n`);
// Alive until the bench has read the size after the check and stops it.
setInterval(() => undefined, 60_000);
