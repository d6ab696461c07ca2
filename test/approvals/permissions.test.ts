import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APPROVAL_IDS } from '../../src/features/approvals/ids.js';
import { MAX_PENDING_PER_REQUESTER } from '../../src/features/approvals/store.js';
import { createRedis } from '../../src/shared/redis.js';
import { type Harness, startHarness } from '../helpers/app-harness.js';
import { buttonPress } from '../helpers/payloads.js';
import { testRedisUrl } from '../helpers/provided-context.js';
import { ask, toldTo, WS, waitForDm } from './support.js';

const HOUR = 3_600_000;

describe('who may act, and how much: outsiders, per-user caps, stale approvals (signed requests, strict fake Slack)', () => {
  let h: Harness;
  const redis = createRedis(testRedisUrl(), 'worker');
  const issued = (id: string) => {
    const seed = h.sandbox.state.certificates.get('cert-issued-recent');
    if (seed === undefined) throw new Error('no seeded certificate');
    h.sandbox.state.certificates.set(id, { ...seed, id, status: 'issued' });
  };
  const revokes = () => h.sandbox.calls.filter((c) => c.operation === 'tls.revoke').length;

  beforeAll(async () => {
    h = await startHarness();
    h.slack.users.set('UADMIN', { id: 'UADMIN', is_admin: true });
    h.slack.users.set('UOUTSIDER', { id: 'UOUTSIDER', is_admin: true, team_id: 'T0OTHER' });
  });
  afterAll(async () => {
    await h.stop();
    redis.disconnect();
  });

  it("refuses an Approve press from another organization's user (Slack Connect): the request stays pending", async () => {
    issued('cert-outsider');
    const { id } = await ask(h, '/tls', 'revoke cert-outsider superseded', {
      user: 'U0001',
      channel: 'CSHARED',
    });
    const press = buttonPress(APPROVAL_IDS.approve, id, {
      user: 'UOUTSIDER',
      channel: 'CSHARED',
      responseUrl: h.slack.responseUrl('outsider'),
    });
    // Slack names the presser's home team next to the workspace the app is installed in.
    (press.user as { team_id: string }).team_id = 'T0OTHER';
    const res = await h.driver.interaction(press);
    expect(res.status).toBe(200);
    await h.slack.waitFor((calls) => calls.some((c) => c.method === 'response_url:outsider'));
    expect(JSON.stringify(h.slack.callsTo('response_url:outsider')[0]?.args)).toContain(':lock:');
    await new Promise((resolve) => setTimeout(resolve, 300)); // let a wrong approval surface
    expect(await h.running.services.approvalStore.get(WS, id)).toMatchObject({
      state: 'pending',
      approvals: [],
    });
    expect(revokes()).toBe(0);
  });

  it('refuses a Slack Connect stranger (is_stranger) even where the team ids say nothing', async () => {
    issued('cert-stranger');
    h.slack.users.set('USTRANGER', { id: 'USTRANGER', is_admin: true, is_stranger: true });
    const { id } = await ask(h, '/tls', 'revoke cert-stranger superseded', {
      user: 'U0001',
      channel: 'CSTR',
    });
    const res = await h.driver.interaction(
      buttonPress(APPROVAL_IDS.approve, id, {
        user: 'USTRANGER',
        channel: 'CSTR',
        responseUrl: h.slack.responseUrl('stranger'),
      }),
    );
    expect(res.status).toBe(200);
    // Told privately why, and the request is untouched.
    await h.slack.waitFor(() => toldTo(h, 'USTRANGER').join('\n').includes('outside this workspace'));
    expect((await h.running.services.approvalStore.get(WS, id))?.state).toBe('pending');
  });

  it(`caps one person's pending requests at ${MAX_PENDING_PER_REQUESTER}: of 100 at once, the rest are refused before anything is posted; another person's goes through`, async () => {
    for (let i = 0; i < 10; i++) issued(`cert-flood-${i}`);
    const reads = () => h.sandbox.calls.filter((c) => c.operation === 'tls.get').length;
    const readsBefore = reads();
    // Ten different requests, ten times each: identical ones point to the first, the rest meet the cap.
    await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        h.driver.command('/tls', `revoke cert-flood-${i % 10} superseded`, {
          user: 'UFLOOD',
          channel: 'CFLOOD',
          responseUrl: h.slack.responseUrl(`flood-${i}`),
        }),
      ),
    );
    const answers = () =>
      Array.from({ length: 100 }, (_, i) =>
        JSON.stringify(h.slack.callsTo(`response_url:flood-${i}`)[0]?.args ?? ''),
      );
    await h.slack.waitFor(() => answers().every((answer) => answer !== '""'), 30_000);
    const requested = answers().filter((answer) => answer.includes('Approval requested'));
    const capped = answers().filter((answer) =>
      answer.includes(`already have ${MAX_PENDING_PER_REQUESTER} approval requests waiting`),
    );
    const identical = answers().filter((answer) => answer.includes('You already asked for this'));
    expect(requested).toHaveLength(MAX_PENDING_PER_REQUESTER);
    expect(capped.length).toBeGreaterThan(0);
    expect(capped.length + identical.length).toBe(100 - MAX_PENDING_PER_REQUESTER);
    expect(capped.every((answer) => answer.includes('Nothing was requested'))).toBe(true);
    expect(identical.every((answer) => answer.includes('Nothing new was requested'))).toBe(true);
    // Refused before the registrar was read: only the accepted requests previewed the certificate.
    expect(reads() - readsBefore).toBe(MAX_PENDING_PER_REQUESTER);
    const posted = h.slack.succeeded('chat.postMessage').filter((c) => c.args.channel === 'CFLOOD');
    expect(posted).toHaveLength(MAX_PENDING_PER_REQUESTER);

    const other = await ask(h, '/tls', 'revoke cert-issued-recent superseded', {
      user: 'U0002',
      channel: 'COTHER',
    });
    const pending = await h.running.services.approvalStore.pending(WS, 200);
    expect(pending.filter((r) => r.requester === 'UFLOOD')).toHaveLength(MAX_PENDING_PER_REQUESTER);
    expect(pending.map((r) => r.id)).toContain(other.id);

    // Once one is decided, the person may ask again.
    const flooded = pending.find((r) => r.requester === 'UFLOOD');
    await h.driver.interaction(
      buttonPress(APPROVAL_IDS.withdraw, flooded?.id ?? '', { user: 'UFLOOD', channel: 'CFLOOD' }),
    );
    await waitForDm(h, 'UFLOOD', 'You withdrew');
    await ask(h, '/tls', 'revoke cert-issued-recent superseded', { user: 'UFLOOD', channel: 'CFLOOD2' });
  }, 60_000);

  it('an identical request (same person, operation and parameters) points to the one still waiting', async () => {
    issued('cert-twice');
    const first = await ask(h, '/tls', 'revoke cert-twice superseded', { user: 'UTWICE', channel: 'CTWICE' });
    const res = await h.driver.command('/tls', 'revoke cert-twice superseded', {
      user: 'UTWICE',
      channel: 'CTWICE',
      responseUrl: h.slack.responseUrl('twice'),
    });
    expect(res.status).toBe(200);
    await h.slack.waitFor(() => h.slack.callsTo('response_url:twice').length > 0);
    const told = JSON.stringify(h.slack.callsTo('response_url:twice')[0]?.args);
    expect(told).toContain(`You already asked for this: request \`${first.id}\``);
    expect(told).toContain('<#CTWICE>');
    const waiting = (await h.running.services.approvalStore.pending(WS, 200)).filter(
      (r) => r.requester === 'UTWICE',
    );
    expect(waiting.map((r) => r.id)).toEqual([first.id]);
    // Another reason is another request; once the first is withdrawn, the same one may be asked again.
    await ask(h, '/tls', 'revoke cert-twice keyCompromise', { user: 'UTWICE', channel: 'CTWICE' });
    await h.driver.interaction(
      buttonPress(APPROVAL_IDS.withdraw, first.id, { user: 'UTWICE', channel: 'CTWICE' }),
    );
    await waitForDm(h, 'UTWICE', 'You withdrew');
    const again = await ask(h, '/tls', 'revoke cert-twice superseded', { user: 'UTWICE', channel: 'CTWICE' });
    expect(again.id).not.toBe(first.id);
  });

  it('refuses to execute an approval whose request expired more than an hour before the job ran', async () => {
    issued('cert-late');
    const { id } = await ask(h, '/tls', 'revoke cert-late superseded', { user: 'U0003', channel: 'CLATE' });
    const { approvalStore, approvals, slackFor } = h.running.services;
    // Approved in time; the execution job only runs (a worker outage) two hours after expiry.
    expect(await approvalStore.approve(WS, id, 'UADMIN', Date.now())).toEqual({ kind: 'approved' });
    await redis.hset(
      `${h.keyPrefix}:{ws:-:T0001}:approval:${id}`,
      'expiresAt',
      String(Date.now() - 2 * HOUR),
    );
    const before = revokes();
    await approvals.execute(WS, id, await slackFor(WS));
    expect(await approvalStore.get(WS, id)).toMatchObject({ state: 'failed' });
    const told = await waitForDm(h, 'U0003', 'more than an hour after the request expired');
    expect(told).toContain('nothing was done');
    expect(revokes()).toBe(before);
    expect(h.sandbox.state.certificates.get('cert-late')?.status).toBe('issued');
  });
});
