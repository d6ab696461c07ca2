import { WebClient } from '@slack/web-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APPROVAL_IDS } from '../../src/features/approvals/ids.js';
import { DEFAULT_POLICY, type Policy } from '../../src/features/policy/policy.js';
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

  it('mentions an approver user group in the request instead, and asks nobody by DM', async () => {
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

    const dmsWithButtons = h.slack
      .succeeded('chat.postMessage')
      .filter((c) => String(c.args.channel).startsWith('D') && messageText(c).includes(APPROVAL_IDS.approve));
    expect(dmsWithButtons.map(messageText).join()).not.toContain(grouped.id);
    await press(h, APPROVAL_IDS.withdraw, grouped.id, ALICE, 'CX');
  });

  it('with no approvers listed, tells the admins and owners by DM (up to 10, the rest named) and suggests listing approvers', async () => {
    // 12 admins and owners besides UADMIN; a guest admin, a deactivated owner and a bot are never asked.
    const admins = Array.from({ length: 12 }, (_, i) => `UADM${String(i).padStart(2, '0')}`);
    for (const [i, id] of admins.entries())
      h.slack.users.set(id, { id, [i % 2 ? 'is_owner' : 'is_admin']: true });
    h.slack.users.set('UADMGUEST', { id: 'UADMGUEST', is_admin: true, is_restricted: true });
    h.slack.users.set('UOWNERGONE', { id: 'UOWNERGONE', is_owner: true, deleted: true });
    h.slack.users.set('UADMBOT', { id: 'UADMBOT', is_admin: true, is_bot: true });
    await setPolicy({});
    const request = await ask(h, '/tls', 'revoke cert-issued-old superseded', {
      user: 'UADMIN',
      channel: 'CADM',
    });
    const everyone = ['UADMIN', ...admins, 'UADMGUEST', 'UOWNERGONE', 'UADMBOT'];
    await h.slack.waitFor(() => everyone.filter((user) => askedOf(user, request.id).length > 0).length >= 10);
    const asked = everyone.filter((user) => askedOf(user, request.id).length > 0);
    expect(asked).toHaveLength(10);
    expect(asked).not.toContain('UADMIN'); // the requester
    for (const never of ['UADMGUEST', 'UOWNERGONE', 'UADMBOT']) expect(asked).not.toContain(never);
    const dm = askedOf(asked[0] as string, request.id)[0] ?? '';
    expect(dm).toContain('You are asked as a workspace admin or owner');
    expect(dm).toContain('/domain policy');
    // The rest are named in the request itself, where a mention notifies them.
    const message = messageText(
      h.slack.succeeded('chat.postMessage').find((c) => c.args.channel === 'CADM') ?? {
        method: '',
        args: {},
        at: 0,
      },
    );
    expect(message).toContain('Approvers: the workspace admins and owners');
    const named = admins.filter((user) => !asked.includes(user) && message.includes(`<@${user}>`));
    expect(named).toHaveLength(admins.length - 10);
    await press(h, APPROVAL_IDS.withdraw, request.id, 'UADMIN', 'CX');
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
