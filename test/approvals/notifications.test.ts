import { WebClient } from '@slack/web-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APPROVAL_IDS } from '../../src/features/approvals/ids.js';
import { DEFAULT_POLICY, type Policy } from '../../src/features/approvals/policy.js';
import { BOT_TOKEN, type Harness, startHarness } from '../helpers/app-harness.js';
import { messageText } from '../helpers/payloads.js';
import { ask, dmsTo, press, toldTo, WS, waitForDm } from './support.js';

const ALICE = 'U0001'; // asks, and is a listed approver herself
const APPROVERS = ['UAPP1', 'UAPP2'];
const GUEST = 'UGUEST'; // listed by mistake: a guest never approves (R33)

describe('who is told about approval requests (signed requests, fake Slack)', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness();
    for (const id of APPROVERS) h.slack.users.set(id, { id });
    h.slack.users.set(GUEST, { id: GUEST, is_restricted: true });
    h.slack.users.set('UADMIN', { id: 'UADMIN', is_admin: true });
  });
  afterAll(async () => {
    await h.stop();
  });

  const setPolicy = (policy: Partial<Policy>) =>
    h.running.services.policies.set(WS, { ...DEFAULT_POLICY, ...policy });
  /** DMs to `user` that carry the Approve button of request `id`. */
  const askedOf = (user: string, id: string) =>
    dmsTo(h, user).filter((text) => text.includes(`"action_id":"${APPROVAL_IDS.approve}","value":"${id}"`));

  it('asks each listed approver by DM with the same buttons, not the requester or a guest; pressing in the DM works', async () => {
    await setPolicy({ approvers: [...APPROVERS, GUEST, ALICE] });
    const { id } = await ask(h, '/domain', 'ns example.com set 12', { user: ALICE, channel: 'CASK' });
    await h.slack.waitFor(() => APPROVERS.every((user) => askedOf(user, id).length === 1));
    expect(askedOf(ALICE, id)).toEqual([]);
    expect(askedOf(GUEST, id)).toEqual([]);
    const copy = askedOf('UAPP1', id)[0] ?? '';
    expect(copy).toContain(APPROVAL_IDS.deny);
    expect(copy).toContain('"confirm"');
    expect(copy).not.toContain(APPROVAL_IDS.withdraw);
    expect(copy).toContain('<#CASK>');

    // The action payload's channel is then the approver's DM; the request id is all the button carries.
    await press(h, APPROVAL_IDS.approve, id, 'UAPP1', 'DUAPP1');
    await waitForDm(h, ALICE, 'is done');
    expect(h.sandbox.state.domains.get('example.com')?.vanitySetId).toBe(12);
    // Every copy loses its buttons once decided (R11).
    await h.slack.waitFor(
      () =>
        APPROVERS.every((user) =>
          h.slack
            .succeeded('chat.update')
            .some(
              (c) =>
                c.args.channel === `D${user}` &&
                messageText(c).includes('Done') &&
                !messageText(c).includes(APPROVAL_IDS.approve),
            ),
        ),
      10_000,
    );
  });

  it('mentions an approver user group in the request instead; approval by workspace admins asks nobody by DM', async () => {
    await setPolicy({ approverGroup: 'SAPPROVE' });
    const grouped = await ask(h, '/tls', 'revoke cert-issued-recent keyCompromise', {
      user: ALICE,
      channel: 'CGRP',
    });
    const message = messageText(
      h.slack.succeeded('chat.postMessage').find((c) => c.args.channel === 'CGRP') ?? {
        method: '',
        args: {},
        at: 0,
      },
    );
    expect(message).toContain('<!subteam^SAPPROVE>');

    await setPolicy({});
    const admins = await ask(h, '/tls', 'revoke cert-issued-old superseded', {
      user: ALICE,
      channel: 'CADM',
    });
    const dmsWithButtons = h.slack
      .succeeded('chat.postMessage')
      .filter((c) => String(c.args.channel).startsWith('D') && messageText(c).includes(APPROVAL_IDS.approve));
    expect(dmsWithButtons.map(messageText).join()).not.toMatch(new RegExp(`${grouped.id}|${admins.id}`));
    for (const { id } of [grouped, admins]) await press(h, APPROVAL_IDS.withdraw, id, ALICE, 'CX');
  });

  it('reminds the asked approvers who have not approved, once, before expiry; nobody once it is decided', async () => {
    await setPolicy({ approvers: APPROVERS, needed: 2 });
    const { id } = await ask(h, '/domain', 'ns example.com set 11', { user: ALICE, channel: 'CREM' });
    await h.slack.waitFor(() => APPROVERS.every((user) => askedOf(user, id).length === 1));
    await press(h, APPROVAL_IDS.approve, id, 'UAPP1', 'DUAPP1');
    await h.slack.waitFor(() =>
      h.slack
        .succeeded('chat.update')
        .some((c) => c.args.channel === 'CREM' && messageText(c).includes('approved so far')),
    );

    const { approvalQueue, approvalStore, approvals } = h.running.services;
    const reminder = await approvalQueue.getJob(`remind-${id}`);
    await reminder?.promote();
    const text = await waitForDm(h, 'UAPP2', 'Reminder');
    const stored = await approvalStore.get(WS, id);
    expect(text).toContain(`<!date^${Math.floor((stored?.expiresAt ?? 0) / 1000)}^`);
    expect(dmsTo(h, 'UAPP1').some((t) => t.includes('Reminder'))).toBe(false);
    // A repeated run (at-least-once delivery) reminds nobody again.
    const client = new WebClient(BOT_TOKEN, { slackApiUrl: h.slack.apiUrl });
    await approvals.remind(WS, id, client);
    expect(dmsTo(h, 'UAPP2').filter((t) => t.includes('Reminder'))).toHaveLength(1);

    const decided = await ask(h, '/domain', 'ns example.com set 12', { user: ALICE, channel: 'CREM2' });
    await press(h, APPROVAL_IDS.withdraw, decided.id, ALICE, 'CREM2');
    await waitForDm(
      h,
      ALICE,
      'You withdrew your request to delegate example.com to vanity nameserver set 12',
    );
    await approvals.remind(WS, decided.id, client);
    expect(dmsTo(h, 'UAPP2').filter((t) => t.includes('Reminder'))).toHaveLength(1);
    await press(h, APPROVAL_IDS.withdraw, id, ALICE, 'CREM');
  });

  it("tells the requester by DM when a change failed, with the registrar's reason, never by ephemeral", async () => {
    await setPolicy({});
    const ephemeralsBefore = toldTo(h, ALICE).length - dmsTo(h, ALICE).length;
    const { id } = await ask(h, '/domain', 'authcode guarded.com', { user: ALICE, channel: 'CFAIL' });
    await press(h, APPROVAL_IDS.approve, id, 'UADMIN', 'CFAIL');
    const failed = await waitForDm(h, ALICE, 'failed');
    expect(failed).toContain('domain guard blocked this action');
    expect(toldTo(h, ALICE).length - dmsTo(h, ALICE).length).toBe(ephemeralsBefore);
  });
});
