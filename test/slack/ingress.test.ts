import { readFileSync } from 'node:fs';
import type { App } from '@slack/bolt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Feature } from '../../src/slack/app.js';
import { type Harness, SIGNING_SECRET, startHarness } from '../helpers/app-harness.js';
import { signSlackRequest } from '../helpers/slack-driver.js';

const vector = JSON.parse(
  readFileSync(new URL('../fixtures/slack-signing/docs_example_vector.json', import.meta.url), 'utf8'),
) as { signing_secret: string; x_slack_request_timestamp: string; body: string; x_slack_signature: string };

describe('request signing helper', () => {
  it("matches Slack's published worked example", () => {
    expect(
      signSlackRequest(vector.signing_secret, Number(vector.x_slack_request_timestamp), vector.body),
    ).toBe(vector.x_slack_signature);
  });
});

describe('Slack ingress over HTTP', () => {
  let h: Harness;
  const mentions: string[] = [];
  const probe: Feature = (app: App, deps) => {
    deps.router.add('/domain', {
      name: 'check',
      usage: () => 'check NAME',
      summary: () => 'test subcommand',
      run: async ({ ack }) => {
        await ack({ response_type: 'ephemeral', text: 'checked' });
      },
    });
    deps.router.add('/dns', {
      name: 'boom',
      usage: () => 'boom',
      summary: () => 'throws before acking',
      run: async () => {
        throw new Error('kaboom with xoxb-secret-token-in-message');
      },
    });
    app.event('app_mention', async ({ event }) => {
      mentions.push(event.text);
    });
  };

  beforeAll(async () => {
    h = await startHarness({ features: [probe] });
  });
  afterAll(async () => {
    await h.stop();
  });

  it('answers a signed /domain help ephemerally within 3 s', async () => {
    const res = await h.driver.command('/domain', 'help');
    expect(res.status).toBe(200);
    expect(res.elapsedMs).toBeLessThan(3_000);
    const body = res.json() as { response_type: string; text: string };
    expect(body.response_type).toBe('ephemeral');
    expect(body.text).toContain('/domain check NAME');
    expect(body.text).toContain('/domain help');
  });

  it('gives usage for empty input', async () => {
    const res = await h.driver.command('/domain', '');
    expect((res.json() as { text: string }).text).toContain('/domain check NAME');
  });

  it('suggests the near-miss subcommand for unknown input', async () => {
    const res = await h.driver.command('/domain', 'chekc example.com');
    const body = res.json() as { response_type: string; text: string };
    expect(body.response_type).toBe('ephemeral');
    expect(body.text).toContain("I don't know");
    expect(body.text).toContain('Did you mean `/domain check`?');
  });

  it('escapes hostile input echoed in help', async () => {
    const res = await h.driver.command('/domain', '<!channel> hi');
    const body = res.json() as { text: string };
    expect(body.text).toContain('&lt;!channel&gt;');
    expect(body.text).not.toContain('<!channel>');
  });

  it('routes a known subcommand to its handler', async () => {
    const res = await h.driver.command('/domain', 'check example.com');
    expect(res.json()).toMatchObject({ text: 'checked' });
  });

  it('answers a handler failure with a reference and logs no token', async () => {
    const res = await h.driver.command('/dns', 'boom');
    const body = res.json() as { response_type: string; text: string };
    expect(body.response_type).toBe('ephemeral');
    expect(body.text).toContain('Something went wrong');
    expect(h.logs.join('')).not.toContain('xoxb-secret-token-in-message');
  });

  it('refuses a bad signature with 401', async () => {
    const body = 'command=%2Fdomain&text=help';
    const res = await h.driver.send(body, 'application/x-www-form-urlencoded', { signature: 'v0=deadbeef' });
    expect(res.status).toBe(401);
  });

  it('refuses a request without signature headers, and a signature of another length, with 401', async () => {
    const body = 'command=%2Fdomain&text=check+example.com';
    const res = await fetch(`${h.url}/slack/events`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body,
    });
    expect(res.status).toBe(401);
    const signed = await h.driver.send(body, 'application/x-www-form-urlencoded', { signature: 'v0=' });
    expect(signed.status).toBe(401);
  });

  it("answers Slack's unsigned SSL check with an empty 200 and acts on nothing it carries", async () => {
    // A forged payload riding along with ssl_check=1 must not reach any handler.
    const body = new URLSearchParams({
      ssl_check: '1',
      command: '/domain',
      text: 'check example.com',
      payload: JSON.stringify({ type: 'block_actions', actions: [{ action_id: 'x' }] }),
    }).toString();
    const res = await fetch(`${h.url}/slack/events`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body,
    });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('');
  });

  it('refuses a timestamp 10 minutes old, and 10 minutes in the future, with 401', async () => {
    for (const offset of [-600, 600]) {
      const timestamp = Math.floor(Date.now() / 1000) + offset;
      const body = 'command=%2Fdomain&text=help';
      const signature = signSlackRequest(SIGNING_SECRET, timestamp, body);
      const res = await h.driver.send(body, 'application/x-www-form-urlencoded', { timestamp, signature });
      expect(res.status).toBe(401);
    }
  });

  it('processes a redelivered event (same event_id, X-Slack-Retry-Num) once', async () => {
    const event = { type: 'app_mention', user: 'U0001', text: 'hello once', channel: 'C0001', ts: '1.1' };
    await h.driver.event(event, { eventId: 'EvDUP1' });
    await h.driver.event(event, { eventId: 'EvDUP1', retryNum: 1 });
    await h.driver.event({ ...event, text: 'second' }, { eventId: 'EvDUP2' });
    await expect.poll(() => mentions.length).toBe(2);
    expect(mentions).toEqual(['hello once', 'second']);
  });

  it('serves /healthz with per-dependency status', async () => {
    const res = await fetch(`${h.url}/healthz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ ok: true, redis: { ok: true } });
  });

  it('exposes request counts and ack latency by command in /metrics', async () => {
    await h.driver.command('/domain', 'help');
    const text = await (await fetch(`${h.url}/metrics`)).text();
    expect(text).toMatch(/regdesk_slack_ack_seconds_count\{kind="command",command="\/domain"\} \d+/);
    expect(text).toMatch(
      /regdesk_http_requests_total\{method="POST",route="\/slack\/events",status="200"\} \d+/,
    );
    // The standard process metrics keep their usual names (Prometheus' conventions, issue #32).
    expect(text).toMatch(/^process_cpu_seconds_total \d/m);
  });
});
