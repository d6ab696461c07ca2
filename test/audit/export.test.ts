import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_POLICY } from '../../src/features/policy/policy.js';
import { commandAnswer } from '../helpers/answers.js';
import { type Harness, startHarness } from '../helpers/app-harness.js';
import { uploadedFile } from '../helpers/uploads.js';

const WS = { teamId: 'T0001' };

describe('/domain audit export (signed requests, strict fake Slack)', () => {
  let h: Harness;
  const command = (user: string, words: string) => commandAnswer(h, '/domain', words, { user });
  const uploads = () => h.slack.succeeded('files.completeUploadExternal');

  beforeAll(async () => {
    h = await startHarness();
    h.slack.users.set('UADMIN', { id: 'UADMIN', is_admin: true });
    await h.running.services.policies.set(WS, { ...DEFAULT_POLICY, admins: ['URDA'] });
    const { audit } = h.running.services;
    await audit.append(WS, { action: 'key_set', actor: 'UADMIN' });
    await audit.append(WS, {
      action: 'request',
      actor: 'U0001',
      operation: 'domain.ns',
      target: 'example.com',
      requestId: 'apr_0123456789abcdef',
      paramsHash: 'a'.repeat(64),
    });
    await audit.append(WS, { action: 'policy_change', actor: 'UADMIN' });
  });
  afterAll(async () => {
    await h.stop();
  });

  it('refuses a plain member, saying why, audited, and uploads nothing', async () => {
    const answer = await command('UPLAIN', 'audit export');
    expect(answer).toContain('Only workspace admins, owners and Regdesk admins can export the audit trail.');
    expect(uploads()).toHaveLength(0);
    const [latest] = await h.running.services.audit.latest(WS, { limit: 1 });
    expect(latest).toMatchObject({ action: 'refuse', actor: 'UPLAIN', operation: 'audit.export' });
  });

  it("uploads the workspace's whole trail as JSON Lines into a workspace admin's DM with Regdesk", async () => {
    const answer = await command('UADMIN', 'audit export');
    expect(answer).toContain('is in your DM with Regdesk');
    expect(uploads()).toHaveLength(1);
    expect(uploads()[0]?.args.channel_id).toBe('DUADMIN');
    const file = uploadedFile([...h.slack.uploads.values()][0] ?? Buffer.alloc(0));
    expect(file.endsWith('\n')).toBe(true);
    const lines = file.trimEnd().split('\n');
    const entries = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    // Oldest first: the three seeded entries, then the refused export.
    expect(entries.map((e) => e.action)).toEqual(['key_set', 'request', 'policy_change', 'refuse']);
    expect(entries[1]).toMatchObject({
      actor: 'U0001',
      operation: 'domain.ns',
      target: 'example.com',
      paramsHash: 'a'.repeat(64),
      time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    // The export itself is audited.
    const [latest] = await h.running.services.audit.latest(WS, { limit: 1 });
    expect(latest).toMatchObject({ action: 'export', actor: 'UADMIN', outcome: '4 entries' });
  });

  it('lets a Regdesk admin of the policy export too', async () => {
    expect(await command('URDA', 'audit export')).toContain('is in your DM with Regdesk');
    expect(uploads().at(-1)?.args.channel_id).toBe('DURDA');
  });
});
