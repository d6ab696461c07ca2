import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Harness } from '../helpers/app-harness.js';
import { AGENT_CALLBACK, call, connect, errorOf, startMcpHarness, TestAgent } from './support.js';

const WS = { teamId: 'T0001' };

describe('agents sign in with Slack and act as that person (OAuth for /mcp, stand-in OIDC)', () => {
  let h: Harness & { base: string };

  beforeAll(async () => {
    h = await startMcpHarness();
    h.slack.users.set('U0ALICE', { id: 'U0ALICE', real_name: 'Alice' });
    h.slack.users.set('U0GUEST', { id: 'U0GUEST', is_restricted: true });
    h.slack.users.set('U0GONE', { id: 'U0GONE' });
  }, 60_000);
  afterAll(async () => {
    await h?.stop();
  });

  it('answers /mcp without a token 401 with the resource metadata, which names the authorization server', async () => {
    const answer = await fetch(`${h.base}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(answer.status).toBe(401);
    const challenge = answer.headers.get('www-authenticate') ?? '';
    expect(challenge).toMatch(/^Bearer /);
    const metadataUrl = /resource_metadata="([^"]+)"/.exec(challenge)?.[1] ?? '';
    expect(metadataUrl).toBe(`${h.base}/.well-known/oauth-protected-resource/mcp`);
    const resource = (await (await fetch(metadataUrl)).json()) as Record<string, unknown>;
    expect(resource.resource).toBe(`${h.base}/mcp`);
    expect(resource.authorization_servers).toEqual([`${h.base}/`]);
    const root = (await (await fetch(`${h.base}/.well-known/oauth-protected-resource`)).json()) as Record<
      string,
      unknown
    >;
    expect(root.resource).toBe(`${h.base}/mcp`);
    const server = (await (await fetch(`${h.base}/.well-known/oauth-authorization-server`)).json()) as Record<
      string,
      unknown
    >;
    expect(server.code_challenge_methods_supported).toEqual(['S256']);
    expect(server.registration_endpoint).toBe(`${h.base}/register`);
    // A made-up token is refused the same way.
    const forged = await fetch(`${h.base}/mcp`, {
      method: 'POST',
      headers: { authorization: 'Bearer rda_forged', 'content-type': 'application/json' },
      body: '{}',
    });
    expect(forged.status).toBe(401);
  });

  it('runs the whole dance with the SDK client: registration, PKCE, Slack sign-in, tokens; then reads as the person', async () => {
    const agent = new TestAgent('Claude (test)', 'U0ALICE');
    const client = await connect(h.base, agent);
    // Slack was asked as Slack documents Sign in with Slack.
    const authorize = h.slack.callsTo('openid/connect/authorize').at(-1);
    expect(authorize?.args.scope).toBe('openid profile');
    expect(authorize?.args.client_id).toBe('1234.5678');
    expect(h.slack.succeeded('openid.connect.token')).toHaveLength(1);
    expect(h.slack.succeeded('openid.connect.userInfo')).toHaveLength(1);
    expect(agent.saved?.refresh_token).toBeDefined();
    expect(agent.saved?.expires_in).toBe(3600);

    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(
      expect.arrayContaining(['domain_info', 'dns_records', 'tls_show', 'request_revoke', 'request_status']),
    );
    expect(tools.every((tool) => tool.outputSchema !== undefined)).toBe(true);

    const info = await call(client, 'domain_info', { domain: 'example.com' });
    expect(info.isError).not.toBe(true);
    expect(info.structuredContent?.domain).toBe('example.com');

    // Every call is audited as the person, naming the client.
    const entries = await h.running.services.audit.latest(WS, { limit: 5 });
    const mine = entries.find((entry) => entry.operation === 'mcp.domain_info');
    expect(mine?.actor).toBe('U0ALICE');
    expect(mine?.detail).toBe('client: Claude (test)');
    await client.close();
  });

  it('stores codes and tokens only hashed', async () => {
    const agent = new TestAgent('Hash check', 'U0ALICE');
    const client = await connect(h.base, agent);
    const keys = await h.running.services.redis.keys(`${h.keyPrefix}:*`);
    const values = await Promise.all(
      keys
        .filter((key) => key.includes('{mcp}'))
        .map((key) => h.running.services.redis.get(key).catch(() => '')),
    );
    const everything = keys.join('\n') + values.join('\n');
    expect(everything).not.toContain(agent.saved?.access_token ?? 'x');
    expect(everything).not.toContain(agent.saved?.refresh_token ?? 'x');
    await client.close();
  });

  it('rotates refresh tokens: a spent one presented again ends the grant', async () => {
    const agent = new TestAgent('Rotator', 'U0ALICE');
    const client = await connect(h.base, agent);
    const first = agent.saved?.refresh_token ?? '';
    const refresh = (token: string) =>
      fetch(`${h.base}/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'refresh_token',
          refresh_token: token,
          client_id: agent.client?.client_id ?? '',
        }),
      });
    const renewed = await refresh(first);
    expect(renewed.status).toBe(200);
    const tokens = (await renewed.json()) as { access_token: string; refresh_token: string };
    expect(tokens.refresh_token).not.toBe(first);
    // The spent one again: someone else holds it, so the whole grant ends, the new tokens too.
    expect((await refresh(first)).status).toBe(400);
    expect((await refresh(tokens.refresh_token)).status).toBe(400);
    await client.close();
  });

  it('refuses a token for another resource (RFC 8707) at the authorization request', async () => {
    const agent = new TestAgent('Elsewhere', 'U0ALICE');
    const register = await fetch(`${h.base}/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(agent.clientMetadata),
    });
    const { client_id } = (await register.json()) as { client_id: string };
    const url = new URL(`${h.base}/authorize`);
    for (const [name, value] of Object.entries({
      response_type: 'code',
      client_id,
      redirect_uri: AGENT_CALLBACK,
      code_challenge: 'x'.repeat(43),
      code_challenge_method: 'S256',
      resource: 'https://registrar.example/mcp',
    }))
      url.searchParams.set(name, value);
    const answer = await fetch(url, { redirect: 'manual' });
    expect(answer.status).toBe(302);
    expect(new URL(answer.headers.get('location') ?? '').searchParams.get('error')).toBe('invalid_target');
  });

  it('asks the person to allow the named client (no token for a link someone else registered); a denial ends it', async () => {
    const agent = new TestAgent('Evil <b>agent</b>', 'U0ALICE', 'deny');
    await expect(connect(h.base, agent)).rejects.toThrow(/access_denied/);
    expect(agent.consentPage).toContain('Evil &lt;b&gt;agent&lt;/b&gt;');
    expect(agent.consentPage).toContain('127.0.0.1:9');
    expect(agent.saved).toBeUndefined();
    // The consent is used once: pressing again is refused.
    const consent = /name="consent" value="([^"]+)"/.exec(agent.consentPage)?.[1] ?? '';
    const again = await fetch(`${h.base}/mcp/oauth/consent`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ consent, decision: 'allow' }),
    });
    expect(again.status).toBe(400);
  });

  it('refuses a guest at sign-in, and a person deactivated since, at their next call', async () => {
    const guest = new TestAgent('Guest agent', 'U0GUEST');
    await expect(connect(h.base, guest)).rejects.toThrow(/access_denied/);

    const agent = new TestAgent('Soon gone', 'U0GONE');
    const client = await connect(h.base, agent);
    expect((await call(client, 'watch_list')).isError).not.toBe(true);
    h.slack.users.set('U0GONE', { id: 'U0GONE', deleted: true });
    // The directory caches users.info for 60 s (slack/users.ts): Regdesk asks again once it lapses.
    await h.running.services.redis.del(`${h.keyPrefix}:{ws:-:T0001}:slack-user:U0GONE`);
    const refused = await call(client, 'watch_list');
    expect(refused.isError).toBe(true);
    expect(errorOf(refused).error).toBe('not_allowed_outsider');
    await client.close();
  });

  it('refuses a person of another workspace (the app may be signed into from anywhere)', async () => {
    h.slack.users.set('U0ELSEWHERE', { id: 'U0ELSEWHERE', team_id: 'T0OTHER' });
    await expect(connect(h.base, new TestAgent('Stranger', 'U0ELSEWHERE'))).rejects.toThrow(/access_denied/);
  });

  it('refuses a revoked token at once', async () => {
    const agent = new TestAgent('Revoked', 'U0ALICE');
    const client = await connect(h.base, agent);
    const revoke = await fetch(`${h.base}/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        token: agent.saved?.access_token ?? '',
        client_id: agent.client?.client_id ?? '',
      }),
    });
    expect(revoke.status).toBe(200);
    const answer = await fetch(`${h.base}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${agent.saved?.access_token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(answer.status).toBe(401);
    await client.close().catch(() => {});
  });
});
