import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APPROVAL_IDS } from '../../src/features/approvals/ids.js';
import { Policy } from '../../src/features/policy/policy.js';
import { ask, WS } from '../approvals/support.js';
import type { Harness } from '../helpers/app-harness.js';
import { buttonPress } from '../helpers/payloads.js';
import { call, connect, errorOf, startMcpHarness, TestAgent } from './support.js';

const REQUESTER = 'U0AGENTUSER';
const ADMIN = 'UADMIN1';

describe('agents only request: the same approval as Slack, executed once people approve (request_revoke)', () => {
  let h: Harness & { base: string };
  let client: Client;
  /** Every tool result the agent saw, to look for secrets in. */
  const seen: CallToolResult[] = [];
  const use = async (name: string, args: Record<string, unknown> = {}) => {
    const result = await call(client, name, args);
    seen.push(result);
    return result;
  };
  const setAgents = (mcp: 'off' | 'read' | 'write') =>
    h.running.services.policies.set(WS, Policy.parse({ mcp }));

  beforeAll(async () => {
    h = await startMcpHarness();
    h.slack.users.set(REQUESTER, { id: REQUESTER });
    h.slack.users.set(ADMIN, { id: ADMIN, is_admin: true });
    client = await connect(h.base, new TestAgent('Slackbot (test)', REQUESTER));
  }, 60_000);
  afterAll(async () => {
    await client?.close();
    await h?.stop();
  });

  const revokes = () => h.sandbox.calls.filter((c) => c.operation === 'tls.revoke').length;

  it('with mcp: read (the default), refuses writes and still reads', async () => {
    const refused = await use('request_revoke', {
      certificateId: 'cert-issued-recent',
      reason: 'superseded',
      channel: 'C0MCP1',
    });
    expect(refused.isError).toBe(true);
    expect(errorOf(refused).error).toBe('agents_read_only');
    expect((await use('tls_show', { id: 'cert-issued-recent' })).isError).not.toBe(true);
    expect(revokes()).toBe(0);
  });

  it('with mcp: off, refuses reads too', async () => {
    await setAgents('off');
    const refused = await use('domain_info', { domain: 'example.com' });
    expect(errorOf(refused).error).toBe('agents_off');
    const entries = await h.running.services.audit.latest(WS, { limit: 3 });
    expect(entries.find((entry) => entry.operation === 'mcp.domain_info')?.outcome).toBe(
      'refused: agents_off',
    );
  });

  it('creates the request in Slack, nothing reaches the registrar until a person approves, then exactly once', async () => {
    await setAgents('write');
    const before = revokes();
    const made = await use('request_revoke', {
      certificateId: 'cert-issued-recent',
      reason: 'superseded',
      justification: 'replaced by the new wildcard certificate',
      channel: 'C0MCP1',
    });
    expect(made.isError).not.toBe(true);
    const request = made.structuredContent as { id: string; state: string; link: string; channel: string };
    expect(request.state).toBe('pending');
    expect(request.channel).toBe('C0MCP1');
    expect(request.link).toMatch(/^https:\/\/slack\.com\/archives\/C0MCP1\/p\d+$/);
    // Posted where Slack's requests are, with Slack's buttons.
    const posted = h.slack
      .succeeded('chat.postMessage')
      .find((c) => c.args.channel === 'C0MCP1' && JSON.stringify(c.args.blocks).includes(request.id));
    expect(JSON.stringify(posted?.args.blocks)).toContain(APPROVAL_IDS.approve);
    expect(revokes()).toBe(before);

    // The agent's person cannot approve it themselves; the registrar is still untouched.
    await h.driver.interaction(buttonPress(APPROVAL_IDS.approve, request.id, { user: REQUESTER }));
    expect((await use('request_status', { id: request.id })).structuredContent?.state).toBe('pending');
    expect(revokes()).toBe(before);

    await h.driver.interaction(buttonPress(APPROVAL_IDS.approve, request.id, { user: ADMIN }));
    await expect
      .poll(async () => (await use('request_status', { id: request.id })).structuredContent?.state, {
        timeout: 20_000,
      })
      .toBe('succeeded');
    expect(revokes()).toBe(before + 1);
    await h.driver.interaction(buttonPress(APPROVAL_IDS.approve, request.id, { user: ADMIN }));
    expect(revokes()).toBe(before + 1);

    // The audit names the person and the client for the agent's call, and the request as Slack's.
    const entries = await h.running.services.audit.latest(WS, { limit: 50 });
    const byAgent = entries.find(
      (entry) => entry.operation === 'mcp.request_revoke' && entry.outcome === 'ok',
    );
    expect(byAgent?.actor).toBe(REQUESTER);
    expect(byAgent?.detail).toBe('client: Slackbot (test)');
    expect(entries.some((entry) => entry.action === 'request' && entry.requestId === request.id)).toBe(true);
  });

  it('requests record changes as Slack does: a pending request, the zone untouched; a broken record refused', async () => {
    const writes = () =>
      h.sandbox.calls.filter((c) => /^dns\.record(Create|Update|Delete)$/.test(c.operation)).length;
    const before = writes();
    const made = await use('request_record_change', {
      domain: 'example.com',
      change: 'create',
      record: { type: 'TXT', name: '_agent-test', data: 'hello from an agent', ttl: 3600 },
      justification: 'verification record for the new mail provider',
      channel: 'C0MCP3',
    });
    expect(made.isError).not.toBe(true);
    expect(made.structuredContent?.state).toBe('pending');
    expect(made.structuredContent?.operation).toBe('dns.record');
    expect(writes()).toBe(before);
    const missing = await use('request_record_change', {
      domain: 'example.com',
      change: 'delete',
      channel: 'C0MCP3',
    });
    expect(errorOf(missing).error).toBe('invalid_input');
    const unknown = await use('request_record_change', {
      domain: 'example.com',
      change: 'delete',
      recordId: 999_999,
      channel: 'C0MCP3',
    });
    expect(errorOf(unknown).error).toBe('not_found');
  });

  it('checks availability and live DNS with structured results; bad input is refused by the schema', async () => {
    const checked = await use('domain_check', {
      names: ['surely-free-name-4711.de', 'example.com', 'co.uk'],
    });
    const results = checked.structuredContent?.results as Array<{ name: string; state: string }>;
    expect(results.map((result) => result.state)).toHaveLength(3);
    expect(results.find((result) => result.name === 'example.com')?.state).toBe('taken');
    expect(results.some((result) => result.state === 'invalid')).toBe(true);
    // The world's DNS is closed in the harness: every question is "could not check", never a finding.
    const dns = await use('dns_check', { domain: 'example.com' });
    expect(dns.isError).not.toBe(true);
    expect((dns.structuredContent?.notChecked as unknown[] | undefined)?.length).toBeGreaterThan(0);
    const bad = await use('domain_info', { domain: '<script>' });
    expect(bad.isError).toBe(true);
  });

  it('asks for a channel when the policy names no approvals channel', async () => {
    const refused = await use('request_revoke', { certificateId: 'cert-issued-old', reason: 'superseded' });
    expect(errorOf(refused).error).toBe('channel_needed');
  });

  it('never shows an auth code: a request for one made in Slack and executed, then every read', async () => {
    const { id } = await ask(h, '/domain', 'authcode regdesk-demo.de', {
      user: REQUESTER,
      channel: 'C0MCP2',
    });
    await h.driver.interaction(buttonPress(APPROVAL_IDS.approve, id, { user: ADMIN }));
    await expect
      .poll(() => h.running.services.vault.getExpiring(WS, 'auth-code', id), { timeout: 20_000 })
      .toBeDefined();
    const code = (await h.running.services.vault.getExpiring(WS, 'auth-code', id)) ?? 'never';
    await use('request_status', { id });
    await use('domain_info', { domain: 'regdesk-demo.de' });
    await use('audit_recent', { limit: 50 });
    await use('audit_recent', { target: 'regdesk-demo.de' });
    await use('dns_records', { domain: 'regdesk-demo.de' });
    await use('watch_list');
    await use('tls_show');
    const everything = JSON.stringify(seen);
    expect(everything).toContain(id);
    expect(everything).not.toContain(code);
    expect(everything).not.toMatch(/[a-z0-9]{6}-[a-z0-9]{6}!Q/);
  });
});
