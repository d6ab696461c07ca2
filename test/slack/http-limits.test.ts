import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isLoopback, MAX_BODY_BYTES, MAX_BUFFERED_BYTES } from '../../src/slack/http-front.js';
import { type Harness, startHarness } from '../helpers/app-harness.js';

const METRICS_TOKEN = 'metrics-token-0123456789';

/**
 * Posts `size` bytes (announced in Content-Length); resolves with the status Regdesk answered and how
 * much of the body had been written by then.
 */
function post(
  url: string,
  size: number,
  headers: Record<string, string> = {},
): Promise<{ status: number; sentBeforeAnswer: number }> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${url}/slack/events`,
      { method: 'POST', headers: { 'content-type': 'application/json', ...headers } },
      (res) => {
        res.resume();
        resolve({ status: res.statusCode ?? 0, sentBeforeAnswer: sent });
      },
    );
    // The server may close while we are still writing: that is the point, not a failure.
    req.on('error', (error) =>
      error.message.includes('EPIPE') || error.message.includes('ECONNRESET') ? undefined : reject(error),
    );
    if (size >= 0) req.setHeader('content-length', String(size));
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    const pump = (): void => {
      while (sent < size) {
        const piece = chunk.subarray(0, Math.min(chunk.length, size - sent));
        sent += piece.length;
        if (!req.write(piece)) {
          req.once('drain', pump);
          return;
        }
      }
      req.end();
    };
    if (size >= 0) pump();
    else req.end('{}');
  });
}

let sent = 0;
const postBytes = async (url: string, size: number, headers: Record<string, string> = {}) => {
  sent = 0;
  return (await post(url, size, headers)).status;
};

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
    // 50 MB were offered; buffering them would show many times over (GC noise stays well below).
    expect(used() - before).toBeLessThan(20 * 1024 * 1024);
    // The answer came while most of the body was still unsent: it was never read.
    sent = 0;
    const answer = await post(h.url, 5 * 1024 * 1024);
    expect(answer.status).toBe(413);
    expect(answer.sentBeforeAnswer).toBeLessThan(5 * 1024 * 1024);
    expect(await postBytes(h.url, MAX_BODY_BYTES + 1)).toBe(413);
  });

  it('answers 411 when the length is not announced, and still serves normal requests', async () => {
    expect(await postBytes(h.url, -1, { 'transfer-encoding': 'chunked' })).toBe(411);
    const res = await h.driver.command('/domain', 'help');
    expect(res.status).toBe(200);
  });

  it('bounds the bytes held across requests: slow senders past the budget get 503, and then normal requests pass', async () => {
    const slow = Array.from({ length: MAX_BUFFERED_BYTES / MAX_BODY_BYTES }, () => {
      const req = request(`${h.url}/slack/events`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': String(MAX_BODY_BYTES) },
      });
      req.on('error', () => {});
      req.write('{');
      return req;
    });
    // Every slow sender has been accepted (its share taken) once the next one is refused.
    let refused = 0;
    for (let tries = 0; tries < 100 && refused === 0; tries++) {
      const status = await postBytes(h.url, 1024);
      if (status === 503) refused++;
      else await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(refused).toBe(1);
    for (const req of slow) req.destroy();
    await expect
      .poll(async () => (await h.driver.command('/domain', 'help')).status, { timeout: 10_000 })
      .toBe(200);
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

describe('/metrics without METRICS_TOKEN', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h.stop();
  });

  it('answers this machine (loopback) and no other peer', async () => {
    expect((await fetch(`${h.url}/metrics`)).status).toBe(200);
    for (const local of ['127.0.0.1', '::1', '::ffff:127.0.0.1', '127.1.2.3'])
      expect(isLoopback(local)).toBe(true);
    for (const remote of ['10.0.0.5', '::ffff:192.168.1.2', '2001:db8::1', undefined])
      expect(isLoopback(remote)).toBe(false);
  });
});

describe('/metrics with METRICS_PORT (a listener that never faces Slack)', () => {
  let h: Harness;
  let tokened: Harness;
  beforeAll(async () => {
    h = await startHarness({ env: { METRICS_PORT: '0' } });
    tokened = await startHarness({ env: { METRICS_PORT: '0', METRICS_TOKEN } });
  });
  afterAll(async () => {
    await h?.stop();
    await tokened?.stop();
  });

  const metricsUrl = (harness: Harness) => `http://127.0.0.1:${harness.running.metricsHttp?.port}/metrics`;

  it('serves the metrics there without a token, and not on PORT, even to loopback (a same-host proxy)', async () => {
    const open = await fetch(metricsUrl(h));
    expect(open.status).toBe(200);
    expect(await open.text()).toContain('regdesk_http_requests_total');
    const onSlackPort = await fetch(`${h.url}/metrics`);
    expect(onSlackPort.status).toBe(404);
    expect(await onSlackPort.json()).toMatchObject({ error: 'metrics_elsewhere' });
  });

  it('serves them on PORT too to the bearer of METRICS_TOKEN, and on METRICS_PORT to anyone', async () => {
    expect((await fetch(`${tokened.url}/metrics`)).status).toBe(401);
    const withToken = await fetch(`${tokened.url}/metrics`, {
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    });
    expect(withToken.status).toBe(200);
    expect((await fetch(metricsUrl(tokened))).status).toBe(200);
  });
});
