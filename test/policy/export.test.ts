import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { policyOf } from '../../src/features/policy/document.js';
import { rulesFor } from '../../src/features/policy/rules.js';
import { parsePolicyYaml } from '../../src/features/policy/yaml.js';
import { commandAnswer } from '../helpers/answers.js';
import { type Harness, startHarness } from '../helpers/app-harness.js';
import { uploadedFile } from '../helpers/uploads.js';

const WS = { teamId: 'T0001' };

describe('/domain policy export (signed requests, strict fake Slack)', () => {
  let h: Harness;
  const command = (user: string, words: string) => commandAnswer(h, '/domain', words, { user });
  const uploads = () => h.slack.succeeded('files.completeUploadExternal');

  beforeAll(async () => {
    h = await startHarness();
    h.slack.users.set('UADMIN', { id: 'UADMIN', is_admin: true });
    const parsed = parsePolicyYaml(`approvals: 2
actions:
  revoke: { approvals: 3 }
freezes:
  - name: Weekends
    weekly: { days: [sat, sun], from: "00:00", to: "24:00", timeZone: Europe/Berlin }
    actions: [delegation]
`);
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
    await h.running.services.policies.set(WS, policyOf(parsed.document));
  });
  afterAll(() => h.stop());

  it('refuses a plain member, saying why, and uploads nothing', async () => {
    const answer = await command('UPLAIN', 'policy export');
    expect(answer).toContain('workspace admins');
    expect(uploads()).toHaveLength(0);
  });

  it("uploads the policy as the YAML regdesk policy set reads, into the admin's DM, audited", async () => {
    const answer = await command('UADMIN', 'policy export');
    expect(answer).toContain('is in your DM with Regdesk');
    expect(uploads()).toHaveLength(1);
    expect(uploads()[0]?.args.channel_id).toBe('DUADMIN');
    const file = uploadedFile([...h.slack.uploads.values()][0] ?? Buffer.alloc(0));
    const exported = parsePolicyYaml(file);
    if (!exported.ok) throw new Error(JSON.stringify(exported.errors));
    expect(rulesFor(exported.document, 'revoke').approvals).toBe(3);
    expect(rulesFor(exported.document, 'authcode').approvals).toBe(2);
    expect(exported.document.freezes.map((freeze) => freeze.name)).toEqual(['Weekends']);
    const [latest] = await h.running.services.audit.latest(WS, { limit: 1 });
    expect(latest).toMatchObject({ action: 'export', actor: 'UADMIN' });
  });
});
