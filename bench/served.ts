/**
 * The measured half of the `served` bench row (issue #46), in a process of its own started on the
 * pass's Node with Regdesk's flags (bench/scenarios/served.ts), so the Node 26 row is measured on
 * Node 26 and not on the bench's own Node. It watches BENCH_CERTIFICATES certificates, looks at a
 * sample end to end (registrar reads, identity, resolution, handshakes), writes what a look keeps for
 * the rest, runs zone looks in Certificate Transparency, and prints one line:
 * `served measured {"meanMs":…,"bytesPerItem":…,"zones":…}`.
 * Environment: REDIS_URL, BENCH_KEY_PREFIX, BENCH_REGISTRAR_URL, BENCH_REGISTRAR_KEY, BENCH_TEAM,
 * BENCH_RESOLVER (the bench's resolver), BENCH_TLS_PORT, BENCH_CT_URL, BENCH_CERT_PEM (what every
 * name serves), BENCH_CERTIFICATES, BENCH_SAMPLE, BENCH_CONCURRENCY, BENCH_ZONES.
 */
import { CertSpotter } from '../src/ct/certspotter.js';
import { DnsClient } from '../src/dns/client.js';
import { parseDnsServers } from '../src/dns/servers.js';
import { ctLook } from '../src/features/watches/ct-look.js';
import { CertificateIdentities, identityStamp } from '../src/features/watches/identities.js';
import { KnownIssuances } from '../src/features/watches/known-issuances.js';
import { servedLook } from '../src/features/watches/served-look.js';
import { type WatchItem, WatchStore } from '../src/features/watches/store.js';
import { createRegistrarClient } from '../src/registrar/index.js';
import { ServedProbe } from '../src/served/probe.js';
import { createRedis, KeySpace, waitForReady } from '../src/shared/redis.js';
import { type WorkspaceRef, workspaceId } from '../src/shared/workspace.js';

const env = (name: string): string => {
  const value = process.env[name];
  if (value === undefined || value === '') throw new Error(`served bench: ${name} is not set`);
  return value;
};
const count = (name: string) => Number(env(name));

const CERTIFICATES = count('BENCH_CERTIFICATES');
const SAMPLE = count('BENCH_SAMPLE');
const CONCURRENCY = count('BENCH_CONCURRENCY');
const ZONES = count('BENCH_ZONES');
const PEM = env('BENCH_CERT_PEM');
const WORKSPACE: WorkspaceRef = { teamId: env('BENCH_TEAM') };

process.stdout.write('served bench started, listening on http://127.0.0.1:0\n');
const redis = createRedis(env('REDIS_URL'), 'worker', 'bench-served');
await waitForReady(redis);
const keys = new KeySpace(env('BENCH_KEY_PREFIX'));
const servers = parseDnsServers(env('BENCH_RESOLVER'));
if (!('servers' in servers)) throw new Error(servers.problem);
const dnsClient = new DnsClient({
  resolvers: servers.servers,
  allowed: [{ network: '127.0.0.1', prefix: 32 }],
});
const registrar = createRegistrarClient({
  baseUrl: env('BENCH_REGISTRAR_URL'),
  apiKey: env('BENCH_REGISTRAR_KEY'),
  timeoutMs: 10_000,
});
const store = new WatchStore(redis, keys);
const identities = new CertificateIdentities(redis, keys);
const items: WatchItem[] = Array.from({ length: CERTIFICATES }, (_, i) => ({
  kind: 'certificate',
  id: `cert-bench-${i}`,
  channel: 'CBENCH',
  addedBy: 'UBENCH',
  addedAt: Date.now(),
}));
for (let i = 0; i < items.length; i += 1_000)
  await store.add(
    WORKSPACE,
    items.slice(i, i + 1_000),
    { workspace: CERTIFICATES, perPerson: undefined, adder: 'UBENCH' },
    Date.now(),
  );
const deps = {
  servedProbe: new ServedProbe({ ports: [count('BENCH_TLS_PORT')] }),
  dnsClient,
  identities,
  now: Date.now,
};
const source = { registrar, workspace: WORKSPACE, paced: <T>(call: () => Promise<T>) => call() };

// A sample looked at end to end, CONCURRENCY at a time as one worker does; the other certificates
// get what a look keeps (their state's `served` and their identity) written as a look writes it.
const durations: number[] = [];
let next = 0;
let kept: Awaited<ReturnType<typeof servedLook>>['served'];
const keep = (id: string) =>
  store.saveState(WORKSPACE, 'certificate', id, {
    failures: 0,
    ...(kept === undefined ? {} : { served: kept }),
  });
const worker = async () => {
  while (next < SAMPLE) {
    const item = items[next++] as WatchItem;
    const started = performance.now();
    const cert = await registrar.tls.get(item.id);
    kept = (await servedLook(deps, source, item, { failures: 0 }, cert, undefined)).served;
    durations.push(performance.now() - started);
    await keep(item.id);
  }
};
await Promise.all(Array.from({ length: CONCURRENCY }, worker));
const template = await registrar.tls.get(items[0]?.id ?? '');
const leaf = await identities.of(WORKSPACE, template, async () => PEM, Date.now());
for (const item of items.slice(SAMPLE)) {
  await keep(item.id);
  await identities.remember(WORKSPACE, item.id, identityStamp(template), leaf ?? null, Date.now());
}

// Bytes: the state hash's and the identities' share per certificate.
const wsKey = (part: string) => keys.key(`ws:${workspaceId(WORKSPACE)}`, 'watch', part);
const bytes = async (key: string) => Number((await redis.call('MEMORY', 'USAGE', key, 'SAMPLES', '0')) ?? 0);
const bytesPerItem = ((await bytes(wsKey('state'))) + (await bytes(wsKey('identities')))) / CERTIFICATES;

// CT: zone looks with nothing new.
const ctDeps = {
  certSpotter: new CertSpotter({ baseUrl: env('BENCH_CT_URL') }),
  identities,
  knownIssuances: new KnownIssuances(redis, keys),
  now: Date.now,
};
for (let i = 0; i < ZONES; i++) {
  const zone: WatchItem = {
    kind: 'domain',
    id: `z${i}.served-bench.example`,
    channel: 'CBENCH',
    addedBy: 'UBENCH',
    addedAt: Date.now(),
  };
  await ctLook(ctDeps, source, zone, { failures: 0 });
}

const meanMs = durations.reduce((a, b) => a + b, 0) / durations.length;
process.stdout.write(`served measured ${JSON.stringify({ meanMs, bytesPerItem, zones: ZONES })}\n`);
redis.disconnect();
// Alive until the bench has read the line and stops it.
setInterval(() => undefined, 60_000);
