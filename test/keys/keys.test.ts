import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEY_IDS } from '../../src/features/keys/ids.js';
import { createRedis } from '../../src/shared/redis.js';
import { inputActionId } from '../../src/slack/modal.js';
import { type Harness, startHarness } from '../helpers/app-harness.js';
import { assertWithinBlockKitLimits } from '../helpers/block-kit.js';
import { messageText, viewSubmission } from '../helpers/payloads.js';
import { testRedisUrl } from '../helpers/provided-context.js';
import { allRedisText } from '../helpers/redis-dump.js';

const GOOD_KEY = 'rf_workspace_a_key_canary_77aa11';
const keyValues = (key: string) => ({
  [KEY_IDS.keyBlock]: { [inputActionId(KEY_IDS.keyBlock)]: { type: 'plain_text_input', value: key } },
});

describe('/domain key and per-workspace registrar keys', () => {
  let h: Harness;
  const redis = createRedis(testRedisUrl(), 'worker');

  beforeAll(async () => {
    // Outside sandbox mode: a workspace without a key cannot reach the registrar.
    h = await startHarness({
      env: { REGFISH_SANDBOX: '0', VAULT_MASTER_KEY: Buffer.alloc(32, 7).toString('base64') },
    });
    h.sandbox.addKey(GOOD_KEY, ['domain:read', 'tls:read'], 'acct-a');
    h.slack.users.set('UADMIN', { id: 'UADMIN', is_admin: true });
    h.slack.users.set('UOWNER', { id: 'UOWNER', is_owner: true });
    h.slack.users.set('UPLAIN', { id: 'UPLAIN' });
    // People of the other workspaces (user ids are per workspace in these tests).
    h.slack.users.set('UPLAINB', { id: 'UPLAINB', team_id: 'T0002' });
    h.slack.users.set('UOWNERB', { id: 'UOWNERB', is_owner: true, team_id: 'T0002' });
    h.slack.users.set('UREGADMIN', { id: 'UREGADMIN', team_id: 'T0003' });
  });
  afterAll(async () => {
    await h.stop();
    redis.disconnect();
  });

  it('tells a workspace without a key how to set one', async () => {
    await h.driver.command('/domain', 'info example.com', {
      user: 'UPLAIN',
      responseUrl: h.slack.responseUrl('nokey'),
    });
    await h.slack.waitFor((calls) => calls.some((c) => c.method === 'response_url:nokey'));
    expect(JSON.stringify(h.slack.callsTo('response_url:nokey')[0]?.args)).toContain('/domain key');
  });

  it('refuses non-admins, and opens the modal for admins', async () => {
    await h.driver.command('/domain', 'key', { user: 'UPLAIN', responseUrl: h.slack.responseUrl('plain') });
    await h.slack.waitFor((calls) => calls.some((c) => c.method === 'response_url:plain'));
    expect(JSON.stringify(h.slack.callsTo('response_url:plain')[0]?.args)).toContain('Only workspace admins');
    expect(h.slack.callsTo('views.open')).toHaveLength(0);

    await h.driver.command('/domain', 'key', { user: 'UADMIN' });
    await h.slack.waitFor((calls) => calls.some((c) => c.method === 'views.open'));
    const view = h.slack.callsTo('views.open')[0]?.args.view;
    assertWithinBlockKitLimits(view, 'modal');
    expect(JSON.stringify(view)).toContain('No key is stored');
  });

  it('answers input errors inline on the field', async () => {
    const empty = await h.driver.interaction(
      viewSubmission(KEY_IDS.modal, keyValues(''), { user: 'UADMIN' }),
    );
    expect(empty.json()).toMatchObject({
      response_action: 'errors',
      errors: { [KEY_IDS.keyBlock]: expect.any(String) },
    });
    const spaced = await h.driver.interaction(
      viewSubmission(KEY_IDS.modal, keyValues('two words'), { user: 'UADMIN' }),
    );
    expect(spaced.json()).toMatchObject({ response_action: 'errors' });
  });

  it('checks a key with the registrar first: a rejected key is not stored and the modal says why', async () => {
    const res = await h.driver.interaction(
      viewSubmission(KEY_IDS.modal, keyValues('rf_wrong_key'), { user: 'UADMIN', viewId: 'VBAD' }),
    );
    expect(res.json()).toMatchObject({ response_action: 'update' });
    await h.slack.waitFor((calls) =>
      calls.some((c) => c.method === 'views.update' && c.args.view_id === 'VBAD'),
    );
    expect(messageText(h.slack.callsTo('views.update').at(-1) ?? { method: '', args: {}, at: 0 })).toContain(
      '401',
    );
    expect(await h.running.services.vault.describe({ teamId: 'T0001' }, 'registrar-key')).toBeUndefined();
  });

  it('tells the admin by DM when they closed the modal before the registrar answered', async () => {
    h.slack.failNext('views.update', 'not_found');
    await h.driver.interaction(
      viewSubmission(KEY_IDS.modal, keyValues(GOOD_KEY), { user: 'UADMIN', viewId: 'VCLOSED' }),
    );
    await h.slack.waitFor(() =>
      h.slack
        .succeeded('chat.postMessage')
        .some((c) => c.args.channel === 'DUADMIN' && messageText(c).includes('accepted')),
    );
    expect(h.logs.join('')).not.toContain(GOOD_KEY);
  });

  it('stores an accepted key sealed (no plaintext in Redis), audits it, and uses it for calls', async () => {
    await h.driver.interaction(
      viewSubmission(KEY_IDS.modal, keyValues(GOOD_KEY), { user: 'UADMIN', viewId: 'VGOOD' }),
    );
    await h.slack.waitFor((calls) =>
      calls.some((c) => c.method === 'views.update' && c.args.view_id === 'VGOOD'),
    );
    expect(messageText(h.slack.callsTo('views.update').at(-1) ?? { method: '', args: {}, at: 0 })).toContain(
      'accepted',
    );
    expect(await allRedisText(redis, h.keyPrefix)).not.toContain(GOOD_KEY);
    expect(h.logs.join('')).not.toContain(GOOD_KEY);

    const before = h.sandbox.calls.length;
    await h.driver.command('/domain', 'info example.com', {
      user: 'UPLAIN',
      responseUrl: h.slack.responseUrl('info-a'),
    });
    await h.slack.waitFor((calls) => calls.some((c) => c.method === 'response_url:info-a'));
    expect(JSON.stringify(h.slack.callsTo('response_url:info-a')[0]?.args)).toContain('example.com');
    expect(h.sandbox.calls.slice(before).some((c) => c.operation === 'domains.get' && c.status === 200)).toBe(
      true,
    );

    const audit = JSON.stringify((await h.driver.command('/domain', 'audit', { user: 'UPLAIN' })).json());
    expect(audit).toContain('set the API key');
  });

  it('names the key in Redis by a keyed fingerprint, never by its plain SHA-256 (R18)', async () => {
    const { vault, workspaceKeys } = h.running.services;
    const fingerprint = vault.fingerprint(GOOD_KEY);
    const sha256 = createHash('sha256').update(GOOD_KEY).digest('hex');
    expect(await workspaceKeys.keyHashFor({ teamId: 'T0001' })).toBe(fingerprint);
    expect(sha256).not.toContain(fingerprint);

    await h.driver.command('/domain', 'check regdesk-fingerprint.com', {
      user: 'UPLAIN',
      responseUrl: h.slack.responseUrl('check-a'),
    });
    await h.slack.waitFor((calls) => calls.some((c) => c.method === 'response_url:check-a'));
    const dump = await allRedisText(redis, h.keyPrefix);
    expect(dump).toContain(`{key:${fingerprint}}:quota:availability`);
    expect(dump).not.toContain(sha256.slice(0, 16));
  });

  it('keeps workspaces apart: workspace B has no key, cannot see A’s, and setting B’s leaves A’s alone', async () => {
    await h.driver.command('/domain', 'info example.com', {
      team: 'T0002',
      user: 'UPLAINB',
      responseUrl: h.slack.responseUrl('info-b'),
    });
    await h.slack.waitFor((calls) => calls.some((c) => c.method === 'response_url:info-b'));
    expect(JSON.stringify(h.slack.callsTo('response_url:info-b')[0]?.args)).toContain('/domain key');
    await h.driver.interaction(
      viewSubmission(KEY_IDS.modal, keyValues(h.sandbox.apiKey), {
        user: 'UOWNERB',
        team: 'T0002',
        viewId: 'VB',
      }),
    );
    await h.slack.waitFor((calls) =>
      calls.some(
        (c) => c.method === 'views.update' && c.args.view_id === 'VB' && messageText(c).includes('accepted'),
      ),
    );
    expect(await h.running.services.workspaceKeys.apiKeyFor({ teamId: 'T0001' })).toBe(GOOD_KEY);
    expect(await h.running.services.workspaceKeys.apiKeyFor({ teamId: 'T0002' })).toBe(h.sandbox.apiKey);
  });

  it('lets a Regdesk admin named in the policy open the key modal', async () => {
    await h.running.services.policies.set(
      { teamId: 'T0003' },
      { ...(await h.running.services.policies.get({ teamId: 'T0003' })), admins: ['UREGADMIN'] },
    );
    const before = h.slack.callsTo('views.open').length;
    await h.driver.command('/domain', 'key', { team: 'T0003', user: 'UREGADMIN' });
    await h.slack.waitFor((calls) => calls.filter((c) => c.method === 'views.open').length > before);
  });

  it('removes the key on request, and everything of a workspace but its audit trail on app_uninstalled', async () => {
    await h.driver.interaction(
      viewSubmission(
        KEY_IDS.modal,
        {
          [KEY_IDS.removeBlock]: {
            [inputActionId(KEY_IDS.removeBlock)]: {
              type: 'checkboxes',
              selected_options: [{ value: KEY_IDS.removeOption }],
            },
          },
        },
        { user: 'UOWNERB', team: 'T0002', viewId: 'VRM' },
      ),
    );
    await h.slack.waitFor((calls) =>
      calls.some(
        (c) => c.method === 'views.update' && c.args.view_id === 'VRM' && messageText(c).includes('removed'),
      ),
    );
    expect(await h.running.services.vault.describe({ teamId: 'T0002' }, 'registrar-key')).toBeUndefined();

    await h.driver.event({ type: 'app_uninstalled' }, { team: 'T0001' });
    await expect
      .poll(async () => h.running.services.vault.describe({ teamId: 'T0001' }, 'registrar-key'))
      .toBeUndefined();
    // Only the audit trail (its order counter and its chain's head) is left, with the uninstall
    // recorded and an expiry of its retention period.
    const left = async () => (await redis.keys(`${h.keyPrefix}:{ws:-:T0001}:*`)).sort();
    await expect
      .poll(left)
      .toEqual([
        `${h.keyPrefix}:{ws:-:T0001}:audit`,
        `${h.keyPrefix}:{ws:-:T0001}:audit:head`,
        `${h.keyPrefix}:{ws:-:T0001}:audit:seq`,
      ]);
    const trail = await h.running.services.audit.latest({ teamId: 'T0001' }, { limit: 50 });
    expect(trail[0]).toMatchObject({ action: 'uninstall', actor: 'slack:app_uninstalled' });
    expect(trail.some((entry) => entry.action === 'key_set')).toBe(true);
    for (const key of ['audit', 'audit:head']) {
      const ttl = await redis.pttl(`${h.keyPrefix}:{ws:-:T0001}:${key}`);
      expect(ttl, key).toBeGreaterThan(300 * 24 * 60 * 60 * 1000);
    }
  });
});
