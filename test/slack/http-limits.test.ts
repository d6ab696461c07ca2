import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_BODY_BYTES } from '../../src/slack/http-front.js';
import { type Harness, startHarness } from '../helpers/app-harness.js';

const METRICS_TOKEN = 'metrics-token-0123456789';

/** Posts `size` bytes (announced in Content-Length) and resolves with the status Regdesk answered. */
function postBytes(url: string, size: number, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${url}/slack/events`,
      { method: 'POST', headers: { 'content-type': 'application/json', ...headers } },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    // The server may close while we are still writing: that is the point, not a failure.
    req.on('error', (error) =>
      error.message.includes('EPIPE') || error.message.includes('ECONNRESET') ? undefined : reject(error),
    );
    if (size >= 0) req.setHeader('content-length', String(size));
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    let sent = 0;
    const pump = () => {
      while (sent < size) {
        const piece = chunk.subarray(0, Math.min(chunk.length, size - sent));
        sent += piece.length;
        if (!req.write(piece)) return req.once('drain', pump);
      }
      req.end();
    };
    if (size >= 0) pump();
    else req.end('{}');
  });
}

describe('the HTTP front refuses what Slack never sends, and keeps operators data to itself', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness({ env: { METRICS_TOKEN } });
  });
  afterAll(async () => {
    await h.stop();
  });

  it('answers 413 to bodies over 1 MiB from their headers, without buffering them', async () => {
    // Buffers live outside the JS heap: count both.
    const used = () => process.memoryUsage().heapUsed + process.memoryUsage().external;
    const before = used();
    for (let i = 0; i < 10; i++) expect(await postBytes(h.url, 5 * 1024 * 1024)).toBe(413);
    const grown = used() - before;
    // 50 MB were offered; buffering even one of them would show.
    expect(grown).toBeLessThan(5 * 1024 * 1024);
    expect(await postBytes(h.url, MAX_BODY_BYTES + 1)).toBe(413);
  });

  it('answers 411 when the length is not announced, and still serves normal requests', async () => {
    expect(await postBytes(h.url, -1, { 'transfer-encoding': 'chunked' })).toBe(411);
    const res = await h.driver.command('/domain', 'help');
    expect(res.status).toBe(200);
  });

  it('/metrics needs the bearer token; /healthz says only whether it can serve', async () => {
    expect((await fetch(`${h.url}/metrics`)).status).toBe(401);
    expect((await fetch(`${h.url}/metrics`, { headers: { authorization: 'Bearer wrong' } })).status).toBe(
      401,
    );
    const ok = await fetch(`${h.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(ok.status).toBe(200);
    expect(await ok.text()).toContain('regdesk_http_requests_total');
    const health = await fetch(`${h.url}/healthz`);
    expect(await health.json()).toEqual({ ok: true, redis: { ok: true } });
  });
});
