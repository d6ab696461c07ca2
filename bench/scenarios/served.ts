import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:tls';
import { CT_LIMITS } from '../../src/ct/certspotter.js';
import { SERVED_LIMITS } from '../../src/served/probe.js';
import { type Child, LISTENING, repoRoot, startNode } from '../lib/children.js';
import { type BenchContext, keyPrefix, sleep, startSandbox, TEAM } from '../lib/context.js';
import { startAddressResolver } from '../lib/dns.js';
import { judged, ms, type Row } from '../lib/report.js';

/** The workspace of issue #46's bench row: 5,000 watched certificates, at the default 6-h interval. */
const CERTIFICATES = 5_000;
const INTERVAL_MS = 6 * 3_600_000;
/** Looks measured end to end (registrar reads, identity, resolution, handshakes): a fair sample. */
const SAMPLE = 200;
/** One worker runs this many looks at once (features/watches/index.ts CONCURRENCY). */
const CONCURRENCY = 8;
/** Zone looks in Certificate Transparency. */
const ZONES = 100;
/** The child's whole measurement; a busy 2-core machine takes a few times the 3 s of an idle one. */
const MEASURE_TIMEOUT_MS = 150_000;
/**
 * Redis per certificate for what this issue adds (the state's `served`, the identity of its PEM): at
 * most what a watch already costs (the Watches row: about 700 B per item at 5,000, items, due times
 * and states), so served checks and CT at most double a watch's footprint (≤ 70 MB at WATCH_LIMIT's
 * 50,000).
 */
const BYTES_CEILING = 700;
const nameOf = (i: number) => `c${i}.served-bench.example`;
const MEASURED = /^served measured (\{.*\})$/m;

/** A self-signed P-256 certificate for `names` from openssl (the bench never reads test/). */
function certificate(names: string[]): { pem: string; key: string } {
  const dir = mkdtempSync(join(tmpdir(), 'served-bench-'));
  try {
    execFileSync(
      'openssl',
      ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-days', '47']
        .concat(['-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'), '-subj', `/CN=${names[0]}`])
        .concat(['-addext', `subjectAltName=${names.map((n) => `DNS:${n}`).join(',')}`]),
      { stdio: 'ignore' },
    );
    return {
      pem: readFileSync(join(dir, 'cert.pem'), 'utf8'),
      key: readFileSync(join(dir, 'key.pem'), 'utf8'),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Issue #46: a workspace watching 5,000 certificates. Each look of a certificate asks its names what
 * they serve (its two names, one address, one port: the bench's TLS server on loopback) and each zone
 * look asks Cert Spotter once (a local stand-in answering "nothing new"). The looks run in a child on
 * the pass's Node (bench/served.ts); the servers, the registrar sandbox and the counting stay here.
 * Measured: the looks an hour one worker can do against the looks an hour 5,000 certificates need,
 * handshakes and CT calls per look against the bounds of one look, and Redis bytes per certificate
 * for what the looks keep.
 */
export async function servedScale(ctx: BenchContext): Promise<Row[]> {
  const { sandbox } = await startSandbox(ctx, {});
  const cert = certificate([nameOf(0), 'www.served-bench.example']);
  const tls = createServer({ cert: cert.pem, key: cert.key });
  let handshakes = 0;
  // Counted at the TCP accept: the prober closes as soon as its side of the handshake is done.
  tls.on('connection', () => {
    handshakes++;
  });
  tls.on('tlsClientError', () => undefined);
  await new Promise<void>((resolve) => tls.listen(0, '127.0.0.1', () => resolve()));
  const resolver = await startAddressResolver('127.0.0.1');
  let ctCalls = 0;
  const ct = createHttpServer((_req, res) => {
    ctCalls++;
    res.writeHead(200, { 'content-type': 'application/json' }).end('[]');
  });
  await new Promise<void>((resolve) => ct.listen(0, '127.0.0.1', () => resolve()));
  let child: Child | undefined;
  try {
    const seed = sandbox.state.certificates.get('cert-issued-recent');
    if (seed === undefined) throw new Error('sandbox seed changed');
    for (let i = 0; i < CERTIFICATES; i++) {
      const id = `cert-bench-${i}`;
      sandbox.state.certificates.set(id, {
        ...seed,
        id,
        common_name: nameOf(i),
        dns_names: [nameOf(i), 'www.served-bench.example'],
        pem: cert.pem,
      });
    }
    child = await startNode(
      ctx.runtime,
      `served on ${ctx.runtime.label}`,
      join(repoRoot(), 'dist', 'bench', 'served.js'),
      [],
      {
        PATH: process.env.PATH ?? '',
        REDIS_URL: ctx.redisUrl,
        BENCH_KEY_PREFIX: keyPrefix(ctx, 'served'),
        BENCH_TEAM: TEAM,
        BENCH_REGISTRAR_URL: sandbox.url,
        BENCH_REGISTRAR_KEY: sandbox.apiKey,
        BENCH_RESOLVER: resolver.address,
        BENCH_TLS_PORT: String((tls.address() as { port: number }).port),
        BENCH_CT_URL: `http://127.0.0.1:${(ct.address() as { port: number }).port}/v1`,
        BENCH_CERT_PEM: cert.pem,
        BENCH_CERTIFICATES: String(CERTIFICATES),
        BENCH_SAMPLE: String(SAMPLE),
        BENCH_CONCURRENCY: String(CONCURRENCY),
        BENCH_ZONES: String(ZONES),
      },
      LISTENING,
      ctx.runtime.flags,
    );
    const deadline = Date.now() + MEASURE_TIMEOUT_MS;
    let line = MEASURED.exec(child.tail());
    while (line === null) {
      if (Date.now() > deadline) throw new Error(`no measurement within ${MEASURE_TIMEOUT_MS / 1000} s`);
      await sleep(100);
      line = MEASURED.exec(child.tail());
    }
    const { meanMs, bytesPerItem, zones } = JSON.parse(line[1] ?? '{}') as {
      meanMs: number;
      bytesPerItem: number;
      zones: number;
    };
    const capacityPerHour = (CONCURRENCY * 3_600_000) / meanMs;
    const neededPerHour = (CERTIFICATES * 3_600_000) / INTERVAL_MS;
    const perLook = handshakes / SAMPLE;
    return [
      judged(
        'served: looks an hour needed for 5,000 certificates (6 h) / one worker can do',
        `${neededPerHour.toFixed(0)} / ${capacityPerHour.toFixed(0)} (look ${ms(meanMs)})`,
        'capacity of one worker',
        neededPerHour / capacityPerHour,
        '<=',
        0.5,
      ),
      judged(
        'served: handshakes per certificate look (2 names, 1 address, 1 port)',
        perLook.toFixed(2),
        `${SERVED_LIMITS.handshakes} (limit of one look)`,
        perLook / SERVED_LIMITS.handshakes,
        '<=',
        1,
      ),
      judged(
        'served: CT calls per zone look with nothing new',
        (ctCalls / zones).toFixed(2),
        `${CT_LIMITS.maxPages} (pages of one look)`,
        ctCalls / zones / CT_LIMITS.maxPages,
        '<=',
        1,
      ),
      judged(
        'served: Redis bytes per certificate (state + identity)',
        `${bytesPerItem.toFixed(0)} B`,
        `${BYTES_CEILING} B`,
        bytesPerItem / BYTES_CEILING,
        '<=',
        1,
      ),
    ];
  } finally {
    await child?.stop();
    await resolver.stop();
    await new Promise<void>((resolve) => tls.close(() => resolve()));
    await new Promise<void>((resolve) => ct.close(() => resolve()));
  }
}
