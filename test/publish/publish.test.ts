import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APPROVAL_IDS } from '../../src/features/approvals/ids.js';
import { DEFAULT_POLICY } from '../../src/features/policy/policy.js';
import { PUBLISH_IDS } from '../../src/features/publish/ids.js';
import { COMPLETE_IDS, ORDER_IDS } from '../../src/features/tls/ids.js';
import { ALL_PERMISSIONS } from '../../src/sandbox/index.js';
import { inputActionId } from '../../src/slack/modal.js';
import { addLabDomains } from '../diagnostics/support.js';
import { type Harness, startHarness } from '../helpers/app-harness.js';
import { assertWithinBlockKitLimits } from '../helpers/block-kit.js';
import { type DnsLab, startDnsLab } from '../helpers/dns-lab/index.js';
import type { SlackCall } from '../helpers/fake-slack.js';
import { LAB_RANGE } from '../helpers/live-check.js';
import { orderModalValues } from '../helpers/order-form.js';
import { buttonPress, messageText, viewSubmission } from '../helpers/payloads.js';

const CHANNEL = 'CPUBLISH';
const ADMIN = 'UADMPUB';
const WS = { teamId: 'T0001' };

const hasPublishButton = (call: SlackCall) =>
  call.method === 'chat.postMessage' &&
  call.args.channel === CHANNEL &&
  JSON.stringify(call.args).includes(PUBLISH_IDS.publish);

describe('Publish validation records: written at the registrar, confirmed on the nameservers, removed after issuance', () => {
  let lab: DnsLab;
  let h: Harness;

  beforeAll(async () => {
    lab = await startDnsLab();
    h = await startHarness({
      env: { DNS_RESOLVERS: lab.resolver, LIVE_CHECK_ALLOW: LAB_RANGE },
      sandbox: { delays: { certificateIssueMs: 3_600_000 } },
    });
    addLabDomains(h.sandbox, lab);
    h.slack.users.set(ADMIN, { id: ADMIN, is_admin: true });
    h.slack.users.set('U0002', { id: 'U0002' });
    // The registrar serves what is written through its API on its nameservers: the lab's knot plays
    // them, so every record change at the sandbox is copied there (validation CNAMEs are all we write).
    h.sandbox.onRequest((request) => {
      if (!/\/dns\/rr/.test(request.path) || request.status !== 200) return;
      void syncValidationRecords();
    });
  }, 120_000);
  afterAll(async () => {
    await h?.stop();
    // A copy queued by the last record change may still be running: the lab must outlive it.
    await syncing;
    await lab?.stop();
  }, 120_000);

  let syncing = Promise.resolve();
  function syncValidationRecords(): Promise<void> {
    syncing = syncing.then(async () => {
      for (const zone of Object.values(lab.zones)) {
        const records = h.sandbox.state.domains.get(zone)?.records ?? [];
        const wanted = records.filter((r) => r.type === 'CNAME' && r.name.startsWith('_'));
        for (const record of wanted) await lab.setRecord(zone, record.name, 'CNAME', record.data);
        for (const gone of served.get(zone) ?? []) {
          if (!wanted.some((r) => r.name === gone)) await lab.removeRecord(zone, gone, 'CNAME');
        }
        served.set(
          zone,
          wanted.map((r) => r.name),
        );
      }
    });
    return syncing;
  }
  const served = new Map<string, string[]>();

  /** Orders `cn` through the modal; resolves with the card (its ts) once it is posted in the channel. */
  async function order(cn: string): Promise<{ ts: string; id: string }> {
    const before = h.slack.calls.filter(hasPublishButton).length;
    await h.driver.interaction(
      viewSubmission(ORDER_IDS.modal, orderModalValues(cn), {
        privateMetadata: JSON.stringify({ channel: CHANNEL }),
      }),
    );
    await h.slack.waitFor((calls) => calls.filter(hasPublishButton).length > before, 15_000);
    const card = h.slack.calls.filter(hasPublishButton).at(-1);
    assertWithinBlockKitLimits(card?.args, 'message');
    const ts = (card?.result as { ts?: string } | undefined)?.ts ?? '';
    const id = [...h.sandbox.state.certificates.values()].find((c) => c.common_name === cn)?.id ?? '';
    return { ts, id };
  }

  /** Presses the card's button; resolves with what the presser was told. */
  async function press(card: { ts: string; id: string }, user = 'U0001'): Promise<string> {
    const url = `publish-${Math.random().toString(36).slice(2)}`;
    await h.driver.interaction(
      buttonPress(PUBLISH_IDS.publish, card.id, {
        user,
        channel: CHANNEL,
        messageTs: card.ts,
        responseUrl: h.slack.responseUrl(url),
      }),
    );
    await h.slack.waitFor(() => h.slack.callsTo(`response_url:${url}`).length > 0, 15_000);
    const answer = h.slack.callsTo(`response_url:${url}`)[0];
    assertWithinBlockKitLimits(answer?.args, 'message');
    return JSON.stringify(answer?.args);
  }

  const ownRecords = (zone: string) =>
    (h.sandbox.state.domains.get(zone)?.records ?? []).filter(
      (r) => r.type === 'CNAME' && r.name.startsWith('_'),
    );
  const threadSays = (card: { ts: string }, needle: string) =>
    h.slack
      .callsTo('chat.postMessage')
      .some((call) => call.args.thread_ts === card.ts && messageText(call).includes(needle));

  it('writes each CNAME with TTL 60 and the annotation, says "published" once the nameservers serve it, and writes nothing on a second press', async () => {
    const card = await order(`www.${lab.zones.healthy}`);
    const zoneReads = () =>
      h.sandbox.calls.filter(
        (call) => call.operation === 'dns.records' && call.path.includes(lab.zones.healthy),
      ).length;
    const readsBefore = zoneReads();
    const told = await press(card);
    expect(told).toContain('written at the registrar');
    // The plan the policy was judged on is the one written: the zone is read once per press.
    expect(zoneReads() - readsBefore).toBe(1);
    const written = ownRecords(lab.zones.healthy);
    expect(written).toHaveLength(1);
    expect(written[0]).toMatchObject({ ttl: 60 });
    expect(JSON.stringify(written[0])).toContain(`managed by Regdesk; certificate_id=${card.id}`);

    await h.slack.waitFor(() => threadSays(card, 'are published'), 30_000);

    const again = await press(card);
    expect(again).toContain('already there');
    expect(ownRecords(lab.zones.healthy)).toHaveLength(1);
    const creates = h.sandbox.calls.filter((call) => call.operation === 'dns.recordCreate');
    expect(creates).toHaveLength(1);

    // Issued: Regdesk removes its own records, and says so in the thread.
    h.sandbox.advanceClock(2 * 3_600_000);
    await h.slack.waitFor(() => threadSays(card, 'removed its 1 validation record'), 60_000);
    expect(ownRecords(lab.zones.healthy)).toHaveLength(0);
    const audit = JSON.stringify(await h.running.services.audit.latest({ teamId: 'T0001' }, { limit: 20 }));
    expect(audit).toContain('records_publish');
    expect(audit).toContain('records_remove');
  });

  it('writes nothing where another record is in the way, and says which', async () => {
    const card = await order(`shop.${lab.zones.spf}`);
    const known = await h.running.services.validations.recall({ teamId: 'T0001' }, card.id);
    const name = known?.records[0]?.name ?? '';
    expect(name).toContain(`shop.${lab.zones.spf}`);
    // Someone else's record at the validation name: a CNAME cannot stand beside it.
    h.sandbox.state.domains.get(lab.zones.spf)?.records.push({
      id: 990_001,
      name,
      type: 'TXT',
      data: '"someone else"',
      ttl: 300,
      auto: false,
      active: true,
    });
    const creates = h.sandbox.calls.filter((call) => call.operation === 'dns.recordCreate').length;
    const told = await press(card);
    expect(told).toContain('blocked');
    expect(told).toContain('someone else');
    expect(told).toContain('Nothing was written');
    expect(h.sandbox.calls.filter((call) => call.operation === 'dns.recordCreate')).toHaveLength(creates);
  });

  /** Approves the newest approval request in the channel; resolves with its message's ts. */
  async function approveNewest(before: number): Promise<string> {
    const requests = () =>
      h.slack
        .succeeded('chat.postMessage')
        .filter((c) => c.args.channel === CHANNEL && messageText(c).includes(APPROVAL_IDS.withdraw));
    await h.slack.waitFor(() => requests().length > before, 15_000);
    const posted = requests().at(-1);
    assertWithinBlockKitLimits({ text: posted?.args.text, blocks: posted?.args.blocks }, 'message');
    const id = new RegExp(`"action_id":"${APPROVAL_IDS.approve}","value":"(apr_[0-9a-f]+)"`).exec(
      messageText(posted ?? { method: '', args: {}, at: 0 }),
    )?.[1];
    const ts = (posted?.result as { ts?: string } | undefined)?.ts ?? '';
    await expect
      .poll(async () => (await h.running.services.approvalStore.get(WS, id ?? ''))?.messageTs)
      .toBe(ts);
    await h.driver.interaction(
      buttonPress(APPROVAL_IDS.approve, id ?? '', { user: ADMIN, channel: CHANNEL }),
    );
    return ts;
  }
  const requestCount = () =>
    h.slack
      .succeeded('chat.postMessage')
      .filter((c) => c.args.channel === CHANNEL && messageText(c).includes(APPROVAL_IDS.withdraw)).length;

  it('someone other than the orderer, or a policy that always asks, publishes through an approval request', async () => {
    const card = await order(`shop.${lab.zones.healthy}`);
    const before = requestCount();
    expect(await press(card, 'U0002')).toContain('Approval requested');
    const ts = await approveNewest(before);
    const written = (label: string) =>
      ownRecords(lab.zones.healthy).filter((r) => r.name.includes(`.${label}.`));
    await expect.poll(() => written('shop').length, { timeout: 15_000 }).toBe(1);
    await h.slack.waitFor(() => threadSays({ ts }, 'are published'), 30_000);

    await h.running.services.policies.set(WS, { ...DEFAULT_POLICY, validationPublishing: 'approval' });
    try {
      const mine = await order(`mail.${lab.zones.healthy}`);
      const asked = requestCount();
      expect(await press(mine)).toContain('Approval requested');
      await approveNewest(asked);
      await expect.poll(() => written('mail').length, { timeout: 15_000 }).toBe(1);
    } finally {
      await h.running.services.policies.set(WS, DEFAULT_POLICY);
    }
  });

  it('a reissue by someone other than the orderer publishes only through an approval request, whoever presses', async () => {
    const card = await order(`pay.${lab.zones.healthy}`);
    const workspace = { teamId: 'T0001' };
    const known = await h.running.services.validations.recall(workspace, card.id);
    expect(known).toMatchObject({ placedBy: 'U0001', orderedBy: 'U0001' });
    // U0002 reissues U0001's certificate: the registrar answers with the reissue's records.
    const certificate = await h.running.services.registrarFor(workspace).tls.get(card.id);
    await h.running.services.validations.remember(
      workspace,
      {
        ...certificate,
        reissue: { validation: { method: 'dns-cname-token', dns_records: known?.records ?? [] } },
      },
      { by: 'U0002', as: 'reissue' },
    );
    for (const user of ['U0002', 'U0001']) {
      const before = requestCount();
      expect(await press(card, user)).toContain('Approval requested');
      expect(requestCount()).toBe(before + 1);
    }
    expect(ownRecords(lab.zones.healthy).filter((r) => r.name.includes('.pay.'))).toEqual([]);
  });

  it('replaces only its own stale record (a reissue changed the token), never another, with an approval', async () => {
    const card = await order(`www.${lab.zones.expiring}`);
    expect(await press(card)).toContain('written at the registrar');
    const [first] = ownRecords(lab.zones.expiring);
    const workspace = { teamId: 'T0001' };
    const known = await h.running.services.validations.recall(workspace, card.id);
    const record = known?.records[0];
    if (first === undefined || record === undefined) throw new Error('nothing was written');
    // What a reissue answers: the same name, a new target.
    const certificate = await h.running.services.registrarFor(workspace).tls.get(card.id);
    await h.running.services.validations.remember(
      workspace,
      {
        ...certificate,
        validation: {
          method: 'dns-cname-token',
          dns_records: [{ ...record, value: 'reissued.dcv.digicert.example.' }],
        },
      },
      { by: 'U0001', as: 'reissue' },
    );
    // Replacing a record is more than creating the order's own: the default policy asks for approval.
    const before = requestCount();
    expect(await press(card)).toContain('Approval requested');
    await approveNewest(before);
    await expect
      .poll(() => ownRecords(lab.zones.expiring)[0]?.data, { timeout: 15_000 })
      .toBe('reissued.dcv.digicert.example.');
    const now = ownRecords(lab.zones.expiring);
    expect(now).toHaveLength(1);
    expect(now[0]?.data).toBe('reissued.dcv.digicert.example.');
    expect(now[0]?.id).not.toBe(first.id);
  });

  it('a write that fails part-way is audited before and after, and what was written is still cleaned up', async () => {
    const card = await order(`parts.${lab.zones.nsec3}`);
    const workspace = { teamId: 'T0001' };
    const known = await h.running.services.validations.recall(workspace, card.id);
    const first = known?.records[0];
    if (first === undefined) throw new Error('the order has no validation record');
    // Two records to write (the certificate's own names), the second of which the registrar refuses.
    const certificate = await h.running.services.registrarFor(workspace).tls.get(card.id);
    const second = { ...first, name: first.name.replace(/^_[^.]*\./, '_second.') };
    await h.running.services.validations.remember(
      workspace,
      { ...certificate, validation: { method: 'dns-cname-token', dns_records: [first, second] } },
      { by: 'U0001', as: 'order' },
    );
    const creates = () => h.sandbox.calls.filter((call) => call.operation === 'dns.recordCreate').length;
    const before = creates();
    const stop = h.sandbox.onRequest((request) => {
      if (request.method === 'POST' && /\/dns\/rr/.test(request.path) && request.status === 200)
        h.sandbox.faults.inject('dns.recordCreate', { status: 500, times: 1 });
    });
    try {
      expect(await press(card)).toContain('1');
    } finally {
      stop();
      h.sandbox.faults.clear();
    }
    expect(creates() - before).toBe(2);
    expect(ownRecords(lab.zones.nsec3)).toHaveLength(1);
    const trail = (await h.running.services.audit.latest(workspace, { limit: 50 }))
      .filter((entry) => entry.action === 'records_publish' && entry.target === card.id)
      .map((entry) => entry.outcome);
    expect(trail).toEqual(
      expect.arrayContaining(['2 to write', expect.stringMatching(/^1 of 2 written; failed: /)]),
    );
    // The one written is followed (confirmed, then removed once the certificate settles).
    const followed = await h.running.services.publishQueue.getJobs(['delayed', 'waiting', 'active']);
    expect(followed.some((job) => job.data.certificateId === card.id)).toBe(true);
    expect(await h.running.services.published.of(workspace, card.id)).toHaveLength(1);
  });

  it('removes after issuance only what is still its own: a record changed since is left alone', async () => {
    const card = await order(`kept.${lab.zones.nsec3}`);
    expect(await press(card)).toContain('written at the registrar');
    await h.slack.waitFor(() => threadSays(card, 'are published'), 30_000);
    const [written] = ownRecords(lab.zones.nsec3).filter((r) => r.name.includes('.kept.'));
    if (written === undefined) throw new Error('nothing was written');
    // Someone points the name elsewhere at the registrar, under the same id.
    written.data = 'someone-else.example.net.';
    h.sandbox.advanceClock(2 * 3_600_000);
    const removedEntry = async () =>
      (await h.running.services.audit.latest(WS, { limit: 50 })).find(
        (entry) => entry.action === 'records_remove' && entry.target === card.id,
      )?.outcome;
    await expect.poll(removedEntry, { timeout: 60_000 }).toMatch(/^0 removed .*1 left/);
    expect(ownRecords(lab.zones.nsec3).find((r) => r.id === written.id)?.data).toBe(
      'someone-else.example.net.',
    );
  });

  it('tells a read-only key so and writes nothing', async () => {
    const card = await order(`api.${lab.zones.noDmarc}`);
    h.sandbox.addKey(
      h.sandbox.apiKey,
      ALL_PERMISSIONS.filter((permission) => permission !== 'dns:write'),
    );
    try {
      const told = await press(card);
      expect(told).toContain('may not change DNS records');
      expect(ownRecords(lab.zones.noDmarc)).toHaveLength(0);
    } finally {
      h.sandbox.addKey(h.sandbox.apiKey, [...ALL_PERMISSIONS]);
    }
  });

  it('a zone not hosted at the registrar: the exact record to create elsewhere, nothing written', async () => {
    const card = await order('www.not-in-this-account.de');
    const creates = () => h.sandbox.calls.filter((call) => call.operation === 'dns.recordCreate').length;
    const before = creates();
    const told = await press(card);
    expect(told).toContain('not hosted at the registrar');
    expect(told).toContain('CNAME');
    expect(creates()).toBe(before);
  });

  it('completes a staged order with an organization, then publishes its records in the same thread', async () => {
    const cn = `ov.${lab.zones.healthy}`;
    h.sandbox.state.certificates.set('cert-staged', {
      ...(h.sandbox.state.certificates.get('cert-issued-old') as object),
      id: 'cert-staged',
      status: 'pending',
      common_name: cn,
      dns_names: [cn],
      product: 'SecureSite',
      order_state: 'PENDING',
      organization_id: null,
      action_required: true,
      dcv_method: 'dns-cname-token',
      orderedAt: Date.now(),
      issueAt: Date.now() + 3_600_000,
    } as Parameters<typeof h.sandbox.state.certificates.set>[1]);
    await h.driver.interaction(
      buttonPress(COMPLETE_IDS.button, 'cert-staged', { user: 'U0001', channel: CHANNEL }),
    );
    const modal = (call: SlackCall) =>
      call.method === 'views.update' && JSON.stringify(call.args).includes(COMPLETE_IDS.modal);
    await h.slack.waitFor((calls) => calls.some(modal), 15_000);
    assertWithinBlockKitLimits(h.slack.calls.find(modal)?.args.view, 'modal');

    const submit = (org: string) =>
      h.driver.interaction(
        viewSubmission(
          COMPLETE_IDS.modal,
          {
            [COMPLETE_IDS.org]: {
              [inputActionId(COMPLETE_IDS.org)]: { type: 'plain_text_input', value: org },
            },
          },
          { privateMetadata: JSON.stringify({ channel: CHANNEL, certificateId: 'cert-staged' }) },
        ),
      );
    const bad = await submit('not an id!');
    expect(bad.json()).toMatchObject({
      response_action: 'errors',
      errors: { [COMPLETE_IDS.org]: expect.any(String) },
    });
    expect(h.sandbox.calls.some((call) => call.operation === 'tls.complete')).toBe(false);

    await submit('org-acme');
    const completed = (call: SlackCall) =>
      call.method === 'chat.postMessage' &&
      call.args.channel === CHANNEL &&
      messageText(call).includes('completed a staged certificate order');
    await h.slack.waitFor((calls) => calls.some(completed), 15_000);
    const card = h.slack.calls.find(completed);
    const ts = (card?.result as { ts?: string } | undefined)?.ts ?? '';
    await h.slack.waitFor(() => threadSays({ ts }, 'written at the registrar'), 15_000);
    expect(ownRecords(lab.zones.healthy).some((r) => r.name.includes(`ov.${lab.zones.healthy}`))).toBe(true);
    await h.slack.waitFor(() => threadSays({ ts }, 'are published'), 30_000);
  });

  it('refuses a forged press for a certificate Regdesk did not order', async () => {
    const told = await press({ ts: '1.1', id: 'cert-issued-old' });
    expect(told).toContain('did not place the order');
  });
});
