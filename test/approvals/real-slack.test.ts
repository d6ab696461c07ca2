import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APPROVAL_IDS } from '../../src/features/approvals/ids.js';
import { DEFAULT_POLICY } from '../../src/features/policy/policy.js';
import { createRedis } from '../../src/shared/redis.js';
import { inputActionId } from '../../src/slack/modal.js';
import { type Harness, startHarness } from '../helpers/app-harness.js';
import { messageText, viewSubmission } from '../helpers/payloads.js';
import { testRedisUrl } from '../helpers/provided-context.js';
import { ask, dmsTo, expectNoRequestStored, press, toldTo, WS, waitForDm } from './support.js';

const ALICE = 'U0001'; // asks
const ADMINS = ['UADM1', 'UADM2']; // workspace admins approve under the default policy
const HOUR = 3_600_000;

describe('approval requests where Slack refuses things (strict fake Slack, signed requests)', () => {
  let h: Harness;
  const redis = createRedis(testRedisUrl(), 'worker');

  beforeAll(async () => {
    h = await startHarness({
      prepareSlack: (slack) => {
        slack.conversation('GSECRET', { kind: 'private', botMember: false, members: [ALICE] });
        slack.conversation('DPEER', { kind: 'im', botMember: false, members: [ALICE, 'UPEER'] });
        slack.conversation('CNOBOT', { kind: 'public', botMember: false });
        slack.conversation('COLD', { kind: 'public', botMember: true, archived: true });
      },
    });
    for (const id of ADMINS) h.slack.users.set(id, { id, is_admin: true });
  });
  afterAll(async () => {
    await h.stop();
    redis.disconnect();
  });

  const revoke = (channel: string, url: string) =>
    h.driver.command('/tls', 'revoke cert-issued-recent keyCompromise', {
      user: ALICE,
      channel,
      responseUrl: h.slack.responseUrl(url),
    });
  const answerAt = async (url: string) => {
    await h.slack.waitFor((calls) => calls.some((c) => c.method === `response_url:${url}`));
    return JSON.stringify(h.slack.callsTo(`response_url:${url}`)[0]?.args);
  };

  it('answers the requester privately with advice, and stores nothing, where the request cannot be posted', async () => {
    // A private channel and a DM between people, neither with the bot; an archived channel.
    await revoke('GSECRET', 'private');
    await revoke('DPEER', 'dm');
    await revoke('COLD', 'archived');
    for (const url of ['private', 'dm']) {
      const answer = await answerAt(url);
      expect(answer).toContain('/invite @Regdesk');
      expect(answer).toContain('set an approvals channel in `/domain policy`');
    }
    expect(await answerAt('archived')).toContain('archived');
    await expectNoRequestStored(redis, h);
  });

  it('refuses, storing nothing, when the approvals channel is one the bot cannot post in', async () => {
    await h.running.services.policies.set(WS, { ...DEFAULT_POLICY, approvalsChannel: 'CNOBOT' });
    try {
      await revoke('C0001', 'approvals-channel');
      const answer = await answerAt('approvals-channel');
      expect(answer).toContain('approvals channel <#CNOBOT>');
      expect(answer).toContain('/invite @Regdesk');
      expect(answer).toContain('Nothing was requested');
    } finally {
      await h.running.services.policies.set(WS, DEFAULT_POLICY);
    }
    await expectNoRequestStored(redis, h);
    expect(h.sandbox.state.certificates.get('cert-issued-recent')?.status).not.toBe('certificate-revoked');
  });

  it('stores a request with its message, its expiry and its reminder; times are <!date^…>, never frozen phrases', async () => {
    const { id, ts } = await ask(h, '/tls', 'revoke cert-issued-recent keyCompromise', {
      user: ALICE,
      channel: 'CSHOWN',
    });
    const { approvalStore, approvalQueue, audit } = h.running.services;
    const stored = await approvalStore.get(WS, id);
    expect(stored).toMatchObject({ channel: 'CSHOWN', messageTs: ts, state: 'pending' });
    expect((await approvalStore.pending(WS)).map((r) => r.id)).toEqual([id]);
    expect((await audit.latest(WS)).filter((e) => e.action === 'request').map((e) => e.requestId)).toEqual([
      id,
    ]);

    const lifetime = 24 * HOUR;
    const expire = await approvalQueue.getJob(`expire-${id}`);
    const remind = await approvalQueue.getJob(`remind-${id}`);
    expect(await expire?.getState()).toBe('delayed');
    expect(await remind?.getState()).toBe('delayed');
    expect(expire?.opts.delay).toBeGreaterThan(lifetime - 60_000);
    expect(remind?.opts.delay).toBeGreaterThan(0.8 * lifetime - 60_000);
    expect(remind?.opts.delay).toBeLessThanOrEqual(0.8 * lifetime);
    expect(JSON.stringify([expire?.data, remind?.data])).not.toMatch(/xox|trigger|response_url/);

    const message = messageText(
      h.slack.succeeded('chat.postMessage').find((c) => c.args.channel === 'CSHOWN') ?? {
        method: '',
        args: {},
        at: 0,
      },
    );
    expect(message).toContain(`expires <!date^${Math.floor((stored?.expiresAt ?? 0) / 1000)}^`);
    expect(message).not.toMatch(/\bin \d+ (hours?|minutes?)\b|\bago\b|\btomorrow\b/);
    await press(h, APPROVAL_IDS.withdraw, id, ALICE, 'CSHOWN');
    await waitForDm(h, ALICE, 'You withdrew');
  });

  it('executes exactly once when the request message was deleted before Approve, and the requester learns the outcome', async () => {
    const { id, ts } = await ask(h, '/tls', 'revoke cert-issued-old superseded', {
      user: ALICE,
      channel: 'CDEL',
    });
    h.slack.deleteMessage('CDEL', ts);
    const revokes = () => h.sandbox.calls.filter((c) => c.operation === 'tls.revoke').length;
    const before = revokes();
    await Promise.all(ADMINS.map((admin) => press(h, APPROVAL_IDS.approve, id, admin, 'CDEL')));

    const done = await waitForDm(h, ALICE, 'is done');
    expect(done).toContain('revoke');
    await new Promise((resolve) => setTimeout(resolve, 300)); // let a duplicate surface
    expect(revokes() - before).toBe(1);
    expect((await h.running.services.approvalStore.get(WS, id))?.state).toBe('succeeded');
    // The approver who got through is told it runs; Slack refused every update of the deleted
    // message, and no transition waited for it.
    await h.slack.waitFor(() =>
      ADMINS.some((admin) => toldTo(h, admin).some((t) => t.includes('could not be updated'))),
    );
    const updates = h.slack.callsTo('chat.update').filter((c) => c.args.channel === 'CDEL');
    expect(updates.length).toBeGreaterThan(0);
    expect(updates.every((c) => JSON.stringify(c.result).includes('message_not_found'))).toBe(true);
    // Nobody is told that nothing changed.
    const told = [...ADMINS, ALICE].flatMap((user) => toldTo(h, user)).join('\n');
    expect(told).not.toContain('Nothing was changed');
    expect(told).toContain('already');
  });

  it('executes only what was approved, by people who still may: tampered parameters and a demoted approver fail', async () => {
    const revokes = () => h.sandbox.calls.filter((c) => c.operation === 'tls.revoke').length;
    const before = revokes();
    // Certificates of their own: earlier tests revoke the seeded ones.
    const seed = h.sandbox.state.certificates.get('cert-issued-recent');
    if (seed === undefined) throw new Error('no seeded certificate');
    for (const id of ['cert-tamper', 'cert-demote'])
      h.sandbox.state.certificates.set(id, { ...seed, id, status: 'issued' });

    // Parameters changed in the store after approval was asked: refused before any registrar call.
    const tampered = await ask(h, '/tls', 'revoke cert-tamper superseded', {
      user: ALICE,
      channel: 'CTAMPER',
    });
    const key = `${h.keyPrefix}:{ws:-:T0001}:approval:${tampered.id}`;
    await redis.hset(
      key,
      'params',
      JSON.stringify({ certificateId: 'cert-issued-recent', reason: 'superseded' }),
    );
    await press(h, APPROVAL_IDS.approve, tampered.id, 'UADM1', 'CTAMPER');
    expect(await waitForDm(h, ALICE, 'differ from what was approved')).toContain('failed');

    // The approver became a guest between pressing and execution (Slack's answer no longer cached).
    const demoted = await ask(h, '/tls', 'revoke cert-demote superseded', {
      user: ALICE,
      channel: 'CDEMOTE',
    });
    const client = await h.running.services.slackFor(WS);
    const store = h.running.services.approvalStore;
    await store.approve(WS, demoted.id, 'UADM2', Date.now());
    h.slack.users.set('UADM2', { id: 'UADM2', is_admin: true, is_restricted: true });
    await redis.del(`${h.keyPrefix}:{ws:-:T0001}:slack-user:UADM2`);
    await h.running.services.approvals.execute(WS, demoted.id, client);
    expect((await store.get(WS, demoted.id))?.state).toBe('failed');
    expect(await waitForDm(h, ALICE, 'may no longer approve')).toContain('failed');
    expect(revokes() - before).toBe(0);
    h.slack.users.set('UADM2', { id: 'UADM2', is_admin: true });
    await redis.del(`${h.keyPrefix}:{ws:-:T0001}:slack-user:UADM2`);
  });

  it('lets deny, withdraw and expiry happen in an archived channel, through a 429, or with the message gone', async () => {
    // Deny after the channel was archived: the decision stands, the requester hears the reason.
    const denied = await ask(h, '/domain', 'ns example.com set 12', { user: ALICE, channel: 'CARCH' });
    h.slack.archive('CARCH');
    await press(h, APPROVAL_IDS.deny, denied.id, 'UADM1', 'CARCH');
    await h.slack.waitFor(() => h.slack.succeeded('views.open').length > 0);
    const modal = h.slack.succeeded('views.open').at(-1)?.args.view as { private_metadata?: string };
    const reason = { type: 'plain_text_input', value: 'change freeze until Monday' };
    await h.driver.interaction(
      viewSubmission(
        APPROVAL_IDS.denyModal,
        { [APPROVAL_IDS.denyReasonBlock]: { [inputActionId(APPROVAL_IDS.denyReasonBlock)]: reason } },
        { user: 'UADM1', privateMetadata: modal.private_metadata ?? '' },
      ),
    );
    expect(await waitForDm(h, ALICE, 'was denied by <@UADM1>')).toContain('change freeze until Monday');
    expect((await h.running.services.approvalStore.get(WS, denied.id))?.state).toBe('denied');
    // Told to the approver by DM, since the archived channel takes no ephemeral either.
    await h.slack.waitFor(() => dmsTo(h, 'UADM1').some((t) => t.includes('could not be updated')));

    // Withdraw while Slack answers the update with a 429: retried, shown, told.
    const withdrawn = await ask(h, '/domain', 'ns example.com set 11', { user: ALICE, channel: 'C429' });
    h.slack.failNext('chat.update', 'ratelimited');
    await press(h, APPROVAL_IDS.withdraw, withdrawn.id, ALICE, 'C429');
    await h.slack.waitFor(
      () =>
        h.slack
          .succeeded('chat.update')
          .some((c) => c.args.channel === 'C429' && messageText(c).includes('Withdrawn by')),
      10_000,
    );
    expect((await h.running.services.approvalStore.get(WS, withdrawn.id))?.state).toBe('withdrawn');
    await waitForDm(h, ALICE, 'You withdrew your request to delegate example.com');

    // Expiry of a request whose message was deleted.
    const expiring = await ask(h, '/dns', 'dnssec regdesk-demo.de disable', { user: ALICE, channel: 'CEXP' });
    h.slack.deleteMessage('CEXP', expiring.ts);
    await (await h.running.services.approvalQueue.getJob(`expire-${expiring.id}`))?.promote();
    await waitForDm(h, ALICE, 'expired without enough approvals');
    expect((await h.running.services.approvalStore.get(WS, expiring.id))?.state).toBe('expired');
    expect(await h.running.services.approvalStore.pending(WS)).toEqual([]);
  });
});
