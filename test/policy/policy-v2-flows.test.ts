import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APPROVAL_IDS } from '../../src/features/approvals/ids.js';
import { ask, dmsTo, press, toldTo, WS } from '../approvals/support.js';
import { type Harness, startHarness } from '../helpers/app-harness.js';
import { buttonValue, messageText, stateInput, viewSubmission } from '../helpers/payloads.js';
import { savePolicyYaml } from './support.js';

const ADMIN = 'U0V2ADMIN';
const APPROVER = 'U0V2APP';
const ESCALATION = 'U0V2ESC';
const REQUESTERS = ['U0V2R1', 'U0V2R2', 'U0V2R3', 'U0V2R4', 'U0V2R5', 'U0V2R6'] as const;

/**
 * Policy v2's ways to a request, through signed Slack requests, the fake Slack and the sandbox
 * (contract §3 "Policy"): a required reason asked before any request exists, a class that runs at
 * once, Break glass during a freeze, two approvals, and escalation at 80 % of a request's life.
 */
describe('policy v2 in Slack', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
    for (const user of [...REQUESTERS, APPROVER, ESCALATION]) h.slack.users.set(user, { id: user });
    h.slack.users.set(ADMIN, { id: ADMIN, is_admin: true });
  });
  afterAll(() => h.stop());

  const save = (yaml: string) => savePolicyYaml(h, yaml);

  const requestPosts = (channel: string) =>
    h.slack
      .succeeded('chat.postMessage')
      .filter((call) => call.args.channel === channel && messageText(call).includes('apr_'));

  /** What Regdesk answered on commands' response_urls and told `user` privately. */
  const answered = (user: string) => [
    ...h.slack.calls.filter((call) => call.method.startsWith('response_url:')).map(messageText),
    ...toldTo(h, user),
  ];

  async function auditOf(operation: string, action: string) {
    const entries = await h.running.services.audit.latest(WS, { limit: 200 });
    return entries.filter((entry) => entry.operation === operation && entry.action === action);
  }

  /**
   * The reason modal as Regdesk opened it: at once with the command's trigger, or — when that had
   * expired (a busy machine) — from the Give a reason button it sent instead. Its private metadata.
   */
  async function reasonModalFor(user: string, channel: string): Promise<string> {
    const opened = () =>
      h.slack
        .succeeded('views.open')
        .filter((call) => messageText(call).includes(APPROVAL_IDS.reasonModal))
        .map((call) => (call.args.view as { private_metadata?: string }).private_metadata ?? '');
    const before = opened().length;
    await h.slack.waitFor(
      () => opened().length > before || answered(user).some((t) => t.includes(APPROVAL_IDS.giveReason)),
      10_000,
    );
    if (opened().length === before) {
      await press(
        h,
        APPROVAL_IDS.giveReason,
        buttonValue(h.slack, APPROVAL_IDS.giveReason) ?? '',
        user,
        channel,
      );
      await h.slack.waitFor(() => opened().length > before, 10_000);
    }
    return opened().at(-1) ?? '';
  }

  it('asks a required reason in a modal before any request exists, then shows it in the request and the audit', async () => {
    const REQUESTER = REQUESTERS[0];
    await save('actions:\n  authcode: { approvals: 1, reason: required }\n');
    await h.driver.command('/domain', 'authcode regdesk-demo.de', { user: REQUESTER, channel: 'CREASON' });
    const stashId = await reasonModalFor(REQUESTER, 'CREASON');
    expect(stashId).toMatch(/^stash_/);
    // Nothing exists yet: no request message, no request in the audit.
    expect(requestPosts('CREASON')).toEqual([]);
    expect(await auditOf('domain.authcode', 'request')).toEqual([]);

    const short = await h.driver.interaction(
      viewSubmission(APPROVAL_IDS.reasonModal, stateInput(APPROVAL_IDS.reasonBlock, { value: 'because' }), {
        user: REQUESTER,
        privateMetadata: stashId,
      }),
    );
    expect(JSON.stringify(short.json())).toContain('at least 10 characters');
    // Another person cannot spend the requester's stash.
    await h.driver.interaction(
      viewSubmission(
        APPROVAL_IDS.reasonModal,
        stateInput(APPROVAL_IDS.reasonBlock, { value: 'I would like that code too' }),
        { user: REQUESTERS[1], privateMetadata: stashId },
      ),
    );
    await h.slack.waitFor(() => toldTo(h, REQUESTERS[1]).some((t) => t.includes('was not made')));

    const reason = 'Moving the domain to the new registrar (ticket OPS-42)';
    await h.driver.interaction(
      viewSubmission(APPROVAL_IDS.reasonModal, stateInput(APPROVAL_IDS.reasonBlock, { value: reason }), {
        user: REQUESTER,
        privateMetadata: stashId,
      }),
    );
    await h.slack.waitFor(() => requestPosts('CREASON').length === 1, 10_000);
    expect(requestPosts('CREASON').map(messageText).join('\n')).toContain(reason);
    // Audited once the message is recorded as the request's.
    await expect.poll(async () => (await auditOf('domain.authcode', 'request')).length).toBe(1);
    const [audited] = await auditOf('domain.authcode', 'request');
    expect(audited?.actor).toBe(REQUESTER);
    expect(audited?.detail).toBe(reason);
    expect((await h.running.services.approvalStore.get(WS, audited?.requestId ?? ''))?.justification).toBe(
      reason,
    );
  });

  it('runs a class at 0 approvals at once, announced in the channel and audited', async () => {
    const REQUESTER = REQUESTERS[1];
    await save('actions:\n  delegation: { approvals: 0 }\n');
    await h.driver.command('/domain', 'ns regdesk-demo.de set standard', {
      user: REQUESTER,
      channel: 'CATONCE',
    });
    await expect
      .poll(async () => (await auditOf('domain.ns', 'succeed')).length, { timeout: 20_000 })
      .toBe(1);
    const [request] = await auditOf('domain.ns', 'request');
    const stored = await h.running.services.approvalStore.get(WS, request?.requestId ?? '');
    expect(stored).toMatchObject({ needed: 0, approvals: [], state: 'succeeded', requester: REQUESTER });
    const shown = requestPosts('CATONCE').map(messageText).join('\n');
    expect(shown).toContain('needs no approval');
    // Nobody was ever offered a button to approve it.
    expect(shown).not.toContain(APPROVAL_IDS.approve);
  });

  it('offers Break glass during a freeze: one approval more, one of them from an admin, audited', async () => {
    const REQUESTER = REQUESTERS[2];
    const until = new Date(Date.now() + 3_600_000).toISOString();
    await save(`approvers: [${APPROVER}, ${ADMIN}]
actions:
  delegation: { approvals: 1 }
freezes:
  - name: Migration weekend
    from: "${new Date(Date.now() - 60_000).toISOString()}"
    to: "${until}"
    actions: [delegation]
`);
    await h.driver.command('/domain', 'ns regdesk-demo.de set standard', {
      user: REQUESTER,
      channel: 'CGLASS',
    });
    await h.slack.waitFor(() => answered(REQUESTER).some((t) => t.includes('Migration weekend')));
    expect(answered(REQUESTER).join('\n')).toContain(APPROVAL_IDS.breakGlass);
    expect(requestPosts('CGLASS')).toEqual([]);
    const stashId = buttonValue(h.slack, APPROVAL_IDS.breakGlass) ?? '';

    // Someone else pressing it makes nothing.
    await press(h, APPROVAL_IDS.breakGlass, stashId, REQUESTERS[3], 'CGLASS');
    await h.slack.waitFor(() => toldTo(h, REQUESTERS[3]).some((t) => t.includes('was not made')));
    expect(requestPosts('CGLASS')).toEqual([]);

    await press(h, APPROVAL_IDS.breakGlass, stashId, REQUESTER, 'CGLASS');
    await h.slack.waitFor(() => requestPosts('CGLASS').length === 1, 10_000);
    await expect.poll(async () => (await auditOf('domain.ns', 'break_glass')).length).toBe(1);
    const [broke] = await auditOf('domain.ns', 'break_glass');
    expect(broke?.actor).toBe(REQUESTER);
    const id = broke?.requestId ?? '';
    expect(await h.running.services.approvalStore.get(WS, id)).toMatchObject({ needed: 2, breakGlass: true });
    expect(requestPosts('CGLASS').map(messageText).join('\n')).toContain('Break glass');
    // A second press of the spent button makes no second request.
    await press(h, APPROVAL_IDS.breakGlass, stashId, REQUESTER, 'CGLASS');
    await h.slack.waitFor(() => toldTo(h, REQUESTER).some((t) => t.includes('was not made')));

    // Two approvals, the last of them an admin's: the approver alone cannot finish it.
    await press(h, APPROVAL_IDS.approve, id, APPROVER, 'CGLASS');
    await expect
      .poll(async () => (await h.running.services.approvalStore.get(WS, id))?.approvals)
      .toEqual([APPROVER]);
    await press(h, APPROVAL_IDS.approve, id, ADMIN, 'CGLASS');
    // It runs although the freeze still holds: it was made for it.
    await expect
      .poll(async () => (await h.running.services.approvalStore.get(WS, id))?.state, { timeout: 20_000 })
      .toBe('succeeded');
  });

  it('keeps the last approval of a broken glass for an admin or owner', async () => {
    const REQUESTER = REQUESTERS[4];
    const OTHER = 'U0V2APP2';
    h.slack.users.set(OTHER, { id: OTHER });
    await save(`approvers: [${APPROVER}, ${OTHER}, ${ADMIN}]
actions:
  authcode: { approvals: 1 }
freezes:
  - name: Audit week
    from: "${new Date(Date.now() - 60_000).toISOString()}"
    to: "${new Date(Date.now() + 3_600_000).toISOString()}"
    actions: [authcode]
`);
    await h.driver.command('/domain', 'authcode regdesk-demo.de', { user: REQUESTER, channel: 'CGLASS2' });
    await h.slack.waitFor(() => answered(REQUESTER).some((t) => t.includes('Audit week')));
    await press(
      h,
      APPROVAL_IDS.breakGlass,
      buttonValue(h.slack, APPROVAL_IDS.breakGlass) ?? '',
      REQUESTER,
      'CGLASS2',
    );
    await h.slack.waitFor(() => requestPosts('CGLASS2').length === 1, 10_000);
    await expect.poll(async () => (await auditOf('domain.authcode', 'break_glass')).length).toBe(1);
    const id = (await auditOf('domain.authcode', 'break_glass'))[0]?.requestId ?? '';
    await press(h, APPROVAL_IDS.approve, id, APPROVER, 'CGLASS2');
    await expect
      .poll(async () => (await h.running.services.approvalStore.get(WS, id))?.approvals)
      .toEqual([APPROVER]);
    await press(h, APPROVAL_IDS.approve, id, OTHER, 'CGLASS2');
    await h.slack.waitFor(() => toldTo(h, OTHER).some((t) => t.includes('admin or owner')));
    expect(await h.running.services.approvalStore.get(WS, id)).toMatchObject({
      state: 'pending',
      approvals: [APPROVER],
    });
  });

  it('needs two different approvers where the class asks two, and tells the escalation people at 80 %', async () => {
    const REQUESTER = REQUESTERS[5];
    await save(`approvers: [${APPROVER}, ${ADMIN}]
escalateTo: [${ESCALATION}]
actions:
  authcode: { approvals: 2 }
`);
    const { id } = await ask(h, '/domain', 'authcode regdesk-demo.de', { user: REQUESTER, channel: 'CTWO' });
    await press(h, APPROVAL_IDS.approve, id, APPROVER, 'CTWO');
    await expect
      .poll(async () => (await h.running.services.approvalStore.get(WS, id))?.approvals)
      .toEqual([APPROVER]);
    // The same approver twice is one approval.
    await press(h, APPROVAL_IDS.approve, id, APPROVER, 'CTWO');
    expect((await h.running.services.approvalStore.get(WS, id))?.state).toBe('pending');

    // The reminder's moment: the escalation contact is told by DM, once, and it is audited.
    await (await h.running.services.approvalQueue.getJob(`remind-${id}`))?.promote();
    await h.slack.waitFor(() => dmsTo(h, ESCALATION).some((t) => t.includes(id)), 10_000);
    expect(dmsTo(h, ESCALATION).join('\n')).toContain('escalation contact');
    expect(dmsTo(h, REQUESTER).some((t) => t.includes('escalation contact'))).toBe(false);
    const escalated = (await h.running.services.audit.latest(WS, { limit: 200 })).filter(
      (entry) => entry.action === 'escalate' && entry.requestId === id,
    );
    expect(escalated.map((entry) => entry.outcome)).toEqual([ESCALATION]);

    await press(h, APPROVAL_IDS.approve, id, ADMIN, 'CTWO');
    await expect
      .poll(async () => (await h.running.services.approvalStore.get(WS, id))?.state, { timeout: 20_000 })
      .toBe('succeeded');
  });

  it('lets a class name its own approvers and requesters be a user group', async () => {
    const SECURITY = 'U0V2SEC';
    const MEMBER = 'U0V2MEMBER';
    h.slack.users.set(SECURITY, { id: SECURITY });
    h.slack.users.set(MEMBER, { id: MEMBER });
    h.slack.usergroups.set('S0V2REQ', [MEMBER]);
    await save(`approvers: [${APPROVER}]
requesters: [S0V2REQ]
actions:
  authcode: { approvals: 1, approvers: [${SECURITY}] }
`);
    // Not in the requesters' group: refused.
    await h.driver.command('/domain', 'authcode regdesk-demo.de', {
      user: REQUESTERS[0],
      channel: 'CCLASSAPP',
    });
    await expect
      .poll(async () =>
        (await h.running.services.audit.latest(WS, { limit: 50 })).some(
          (entry) => entry.action === 'refuse' && entry.actor === REQUESTERS[0],
        ),
      )
      .toBe(true);
    const { id } = await ask(h, '/domain', 'authcode regdesk-demo.de', {
      user: MEMBER,
      channel: 'CCLASSAPP',
    });
    // The class's approver is asked by DM; the policy's own approver may not approve this class.
    await h.slack.waitFor(() => dmsTo(h, SECURITY).some((t) => t.includes(id)), 10_000);
    await press(h, APPROVAL_IDS.approve, id, APPROVER, 'CCLASSAPP');
    await h.slack.waitFor(() =>
      toldTo(h, APPROVER).some((t) => t.includes('cannot approve') || t.includes('not')),
    );
    expect((await h.running.services.approvalStore.get(WS, id))?.approvals).toEqual([]);
    await press(h, APPROVAL_IDS.approve, id, SECURITY, 'CCLASSAPP');
    await expect
      .poll(async () => (await h.running.services.approvalStore.get(WS, id))?.state, { timeout: 20_000 })
      .toBe('succeeded');
  });
});
