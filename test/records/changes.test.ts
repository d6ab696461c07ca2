import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APPROVAL_IDS } from '../../src/features/approvals/ids.js';
import { DEFAULT_POLICY } from '../../src/features/policy/policy.js';
import { RECORD_IDS } from '../../src/features/records/ids.js';
import { ALL_PERMISSIONS } from '../../src/sandbox/index.js';
import { addLabDomains } from '../diagnostics/support.js';
import { type Harness, startHarness } from '../helpers/app-harness.js';
import { assertWithinBlockKitLimits } from '../helpers/block-kit.js';
import { type DnsLab, startDnsLab } from '../helpers/dns-lab/index.js';
import type { SlackCall } from '../helpers/fake-slack.js';
import { LAB_RANGE } from '../helpers/live-check.js';
import { buttonPress, messageText, stateInput, viewSubmission } from '../helpers/payloads.js';

const REQUESTER = 'U0001';
const ADMIN = 'UADMREC';
const WS = { teamId: 'T0001' };

type Typed = { type?: string; name?: string; data?: string; ttl?: string; priority?: string };

/** The modal's values as Slack submits them: every input block, empty ones as null. */
function modalValues(typed: Typed): Record<string, Record<string, unknown>> {
  return {
    ...(typed.type === undefined
      ? {}
      : stateInput(RECORD_IDS.type, { type: 'static_select', selected_option: { value: typed.type } })),
    ...stateInput(RECORD_IDS.name, { type: 'plain_text_input', value: typed.name ?? null }),
    ...stateInput(RECORD_IDS.data, { type: 'plain_text_input', value: typed.data ?? null }),
    ...stateInput(RECORD_IDS.ttl, { type: 'plain_text_input', value: typed.ttl ?? null }),
    ...stateInput(RECORD_IDS.priority, { type: 'plain_text_input', value: typed.priority ?? null }),
  };
}

describe('DNS record changes: rules in the modal, approval, Revert, confirmed on the nameservers', () => {
  let lab: DnsLab;
  let h: Harness;
  let zone: string;

  beforeAll(async () => {
    lab = await startDnsLab();
    h = await startHarness({ env: { DNS_RESOLVERS: lab.resolver, LIVE_CHECK_ALLOW: LAB_RANGE } });
    addLabDomains(h.sandbox, lab);
    zone = lab.zones.healthy;
    h.slack.users.set(ADMIN, { id: ADMIN, is_admin: true });
    // The registrar serves what is written through its API: the lab's primary plays its nameservers,
    // so what the tests write at the sandbox is copied there (one record per name and type here).
    h.sandbox.onRequest((request) => {
      if (!/\/dns\/rr/.test(request.path) || request.status !== 200) return;
      void sync();
    });
  }, 120_000);
  afterAll(async () => {
    await h?.stop();
    await syncing;
    await lab?.stop();
  }, 120_000);

  let syncing = Promise.resolve();
  const synced = new Set<string>();
  function sync(): Promise<void> {
    syncing = syncing.then(async () => {
      // Only what the tests write (TXT below the apex): the lab's zone has records of its own.
      const records = (h.sandbox.state.domains.get(zone)?.records ?? []).filter(
        (r) => r.type === 'TXT' && r.name !== `${zone}.`,
      );
      const now = new Map(records.map((r) => [`${r.name} ${r.type}`, r]));
      for (const [key, r] of now) {
        const rdata = r.priority === undefined ? r.data : `${r.priority} ${r.data}`;
        await lab.setRecord(zone, r.name, r.type, rdata, r.ttl);
        synced.add(key);
      }
      for (const key of synced) {
        if (now.has(key)) continue;
        const [name = '', type = ''] = key.split(' ');
        await lab.removeRecord(zone, name, type);
        synced.delete(key);
      }
    });
    return syncing;
  }

  const recordsAt = (name: string) =>
    (h.sandbox.state.domains.get(zone)?.records ?? []).filter((r) => r.name === `${name}.${zone}.`);
  const writes = () =>
    h.sandbox.calls.filter((c) =>
      ['dns.recordCreate', 'dns.recordUpdate', 'dns.recordDelete'].includes(c.operation),
    );

  /** Runs `/dns record …` and returns the filled modal's metadata (or the text of what it shows). */
  async function openModal(args: string, channel: string): Promise<{ metadata: string; shown: string }> {
    const before = h.slack.callsTo('views.update').length;
    await h.driver.command('/dns', `record ${args}`, { user: REQUESTER, channel });
    await h.slack.waitFor(() => h.slack.callsTo('views.update').length > before, 15_000);
    const call = h.slack.callsTo('views.update').at(-1) as SlackCall;
    assertWithinBlockKitLimits(call.args.view, 'modal');
    const view = call.args.view as { private_metadata?: string };
    return { metadata: view.private_metadata ?? '', shown: messageText(call) };
  }

  async function submit(metadata: string, typed: Typed) {
    const answer = await h.driver.interaction(
      viewSubmission(RECORD_IDS.modal, modalValues(typed), { user: REQUESTER, privateMetadata: metadata }),
    );
    return answer.text === ''
      ? undefined
      : (answer.json() as { response_action?: string; errors?: Record<string, string> });
  }

  const isRequestIn = (channel: string) => (c: SlackCall) =>
    c.method === 'chat.postMessage' &&
    c.args.channel === channel &&
    messageText(c).includes(APPROVAL_IDS.withdraw) &&
    (c.result as { ok?: boolean } | undefined)?.ok === true;

  /** Waits for the next approval request in `channel`; returns its id and ts. */
  async function nextRequest(
    channel: string,
    before: number,
  ): Promise<{ id: string; ts: string; shown: string }> {
    await h.slack.waitFor((calls) => calls.filter(isRequestIn(channel)).length > before, 15_000);
    const posted = h.slack.calls.filter(isRequestIn(channel)).at(-1) as SlackCall;
    assertWithinBlockKitLimits({ text: posted.args.text, blocks: posted.args.blocks }, 'message');
    const id = new RegExp(`"action_id":"${APPROVAL_IDS.approve}","value":"(apr_[0-9a-f]+)"`).exec(
      JSON.stringify(posted.args.blocks),
    )?.[1];
    const ts = (posted.result as { ts?: string }).ts ?? '';
    await expect
      .poll(async () => (await h.running.services.approvalStore.get(WS, id ?? ''))?.messageTs)
      .toBe(ts);
    return { id: id ?? '', ts, shown: messageText(posted) };
  }

  const threadSays = (channel: string, ts: string, needle: string) =>
    h.slack
      .succeeded('chat.postMessage')
      .some((c) => c.args.channel === channel && c.args.thread_ts === ts && messageText(c).includes(needle));

  it('answers bad input on the field it concerns and writes nothing', async () => {
    const { metadata } = await openModal(`add ${zone}`, 'CREC1');
    const cases: Array<[Typed, string, string]> = [
      [{ type: 'A', name: 'www.elsewhere.de', data: '192.0.2.1' }, RECORD_IDS.name, zone],
      [{ type: 'A', name: 'www', data: '192.0.2.1', ttl: '59' }, RECORD_IDS.ttl, '60'],
      [{ type: 'A', name: 'www', data: '192.0.2.1', ttl: '604801' }, RECORD_IDS.ttl, '604,800'],
      [{ type: 'A', name: 'host', data: 'not-an-address' }, RECORD_IDS.data, 'not-an-address'],
      [{ type: 'MX', name: '@', data: '192.0.2.1', priority: '10' }, RECORD_IDS.data, ''],
      [{ type: 'CAA', name: '@', data: '0 nonsense "x"' }, RECORD_IDS.data, ''],
      // The sandbox's zone has `www` as a CNAME already: nothing may stand beside it.
      [{ type: 'TXT', name: 'www', data: 'hello' }, RECORD_IDS.name, 'CNAME'],
      // …and the apex already has an SPF record.
      [{ type: 'TXT', name: '@', data: 'v=spf1 -all' }, RECORD_IDS.data, 'SPF'],
      [{ type: 'CNAME', name: '@', data: 'target.example.net' }, RECORD_IDS.type, 'ALIAS'],
      // Invisible characters: a right-to-left override would show the approver another text.
      [{ type: 'TXT', name: 'note', data: 'v=spf1 \u202e-all' }, RECORD_IDS.data, 'U+202E'],
      [{ type: 'CAA', name: '@', data: '0 issue "letsencrypt.org\u200b"' }, RECORD_IDS.data, 'U+200B'],
      [{ type: 'TXT', name: 'note', data: 'hidden\u{e0041}tag' }, RECORD_IDS.data, 'U+E0041'],
    ];
    for (const [typed, block, mention] of cases) {
      const answer = await submit(metadata, typed);
      expect(answer?.response_action, JSON.stringify(typed)).toBe('errors');
      expect(Object.keys(answer?.errors ?? {}), JSON.stringify(typed)).toEqual([block]);
      expect(answer?.errors?.[block]).toContain(mention);
    }
    expect(writes()).toEqual([]);
  });

  it('asks for approval by default, shows before and after, writes once approved, offers Revert, and says when the nameservers serve it', async () => {
    const channel = 'CREC2';
    const { metadata } = await openModal(`add ${zone}`, channel);
    const before = h.slack.calls.filter(isRequestIn(channel)).length;
    expect(
      await submit(metadata, { type: 'TXT', name: 'note', data: '"hello from regdesk"', ttl: '300' }),
    ).toBeUndefined();
    const request = await nextRequest(channel, before);
    expect(request.shown).toContain('Before:');
    expect(request.shown).toContain(`note.${zone}. 300 TXT hello from regdesk`);
    expect(recordsAt('note')).toEqual([]);

    await h.driver.interaction(buttonPress(APPROVAL_IDS.approve, request.id, { user: ADMIN, channel }));
    await expect
      .poll(() => recordsAt('note').map((r) => [r.data, r.ttl]), { timeout: 15_000 })
      .toEqual([['hello from regdesk', 300]]);
    await h.slack.waitFor(() => threadSays(channel, request.ts, RECORD_IDS.revert), 15_000);
    await h.slack.waitFor(() => threadSays(channel, request.ts, 'nameservers serve the change'), 30_000);
    const served = h.slack
      .succeeded('chat.postMessage')
      .find(
        (c) => c.args.thread_ts === request.ts && messageText(c).includes('nameservers serve the change'),
      );
    // A name that had no TXT: resolvers may hold "no such record" as long as the zone's negative TTL.
    expect(messageText(served as SlackCall)).toMatch(/up to \d+ s/);
    assertWithinBlockKitLimits({ text: served?.args.text, blocks: served?.args.blocks }, 'message');
    // One card with Revert in the thread: the offer, which the settled card replaces in place.
    const offers = h.slack
      .succeeded('chat.postMessage')
      .filter((c) => c.args.thread_ts === request.ts && messageText(c).includes(RECORD_IDS.revert));
    expect(offers).toHaveLength(1);
    const offerTs = (offers[0]?.result as { ts?: string } | undefined)?.ts;
    await h.slack.waitFor(() =>
      h.slack
        .succeeded('chat.update')
        .some(
          (c) =>
            c.args.ts === offerTs &&
            messageText(c).includes('Served by') &&
            messageText(c).includes(RECORD_IDS.revert),
        ),
    );

    // Revert is a change of its own: a request again, which deletes what was added.
    const changeId = new RegExp(`"action_id":"${RECORD_IDS.revert}","value":"([^"]+)"`).exec(
      messageText(offers[0] as SlackCall),
    )?.[1];
    const beforeRevert = h.slack.calls.filter(isRequestIn(channel)).length;
    await h.driver.interaction(buttonPress(RECORD_IDS.revert, changeId ?? '', { user: REQUESTER, channel }));
    const revert = await nextRequest(channel, beforeRevert);
    expect(revert.shown).toContain(`revert change ${changeId}`);
    await h.driver.interaction(buttonPress(APPROVAL_IDS.approve, revert.id, { user: ADMIN, channel }));
    await expect.poll(() => recordsAt('note'), { timeout: 15_000 }).toEqual([]);
    await h.slack.waitFor(() => threadSays(channel, revert.ts, 'nameservers serve the change'), 30_000);
  });

  it('with the type exempt by policy, changes at once with a card and Revert, and audits it', async () => {
    const channel = 'CREC3';
    await h.running.services.policies.set(WS, { ...DEFAULT_POLICY, recordChangeExemptTypes: ['TXT'] });
    try {
      const { metadata } = await openModal(`add ${zone}`, channel);
      expect(
        await submit(metadata, { type: 'TXT', name: 'direct', data: 'no approval needed' }),
      ).toBeUndefined();
      await expect.poll(() => recordsAt('direct').length, { timeout: 15_000 }).toBe(1);
      const card = () =>
        h.slack
          .succeeded('chat.postMessage')
          .find((c) => c.args.channel === channel && messageText(c).includes(RECORD_IDS.revert));
      await expect.poll(() => card() !== undefined).toBe(true);
      expect(h.slack.calls.filter(isRequestIn(channel))).toEqual([]);
      // The audit entry follows the card: waited for, not raced.
      const audited = async () =>
        (await h.running.services.audit.latest(WS, { limit: 20 })).some(
          (e) => e.action === 'record_change' && e.actor === REQUESTER && e.target === zone,
        );
      await expect.poll(audited, { timeout: 10_000 }).toBe(true);
      // Its card becomes the settled card once the nameservers serve the change, Revert kept.
      await h.slack.waitFor(
        () =>
          h.slack
            .succeeded('chat.update')
            .some(
              (c) =>
                c.args.channel === channel &&
                messageText(c).includes('Served by') &&
                messageText(c).includes(RECORD_IDS.revert),
            ),
        30_000,
      );
    } finally {
      await h.running.services.policies.set(WS, DEFAULT_POLICY);
    }
  });

  it('asks for an approval to revert a change made more than a day ago, even of an exempt type, and says when it was made', async () => {
    const channel = 'CREC8';
    await h.running.services.policies.set(WS, { ...DEFAULT_POLICY, recordChangeExemptTypes: ['TXT'] });
    try {
      const records = h.sandbox.state.domains.get(zone)?.records ?? [];
      const plant = async (label: string, agoMs: number) => {
        const id = Math.max(...records.map((r) => r.id)) + 1;
        const value = { name: `${label}.${zone}.`, type: 'TXT' as const, data: `made by ${label}`, ttl: 300 };
        records.push({ id, ...value, auto: false, active: true });
        const made = await h.running.services.recordChanges.keep(WS, {
          domain: zone,
          change: { kind: 'add', after: value },
          recordId: id,
          by: REQUESTER,
          at: Date.now() - agoMs,
          before: [],
          cacheSeconds: 300,
        });
        return made.id;
      };
      const recent = await plant('recent', 3_600_000);
      const aged = await plant('aged', 3 * 86_400_000);
      const before = h.slack.calls.filter(isRequestIn(channel)).length;

      // An hour old: the exempt type is reverted at once.
      await h.driver.interaction(buttonPress(RECORD_IDS.revert, recent, { user: REQUESTER, channel }));
      await expect.poll(() => recordsAt('recent').length, { timeout: 15_000 }).toBe(0);

      // Three days old: a second person looks first, told when the change was made.
      await h.driver.interaction(buttonPress(RECORD_IDS.revert, aged, { user: REQUESTER, channel }));
      const request = await nextRequest(channel, before);
      expect(request.shown).toMatch(
        new RegExp(`revert change ${aged}, made \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC`),
      );
      expect(recordsAt('aged')).toHaveLength(1);
    } finally {
      await h.running.services.policies.set(WS, DEFAULT_POLICY);
    }
  });

  it('quotes a hostile record written elsewhere as words in a refusal, in English and in German', async () => {
    const channel = 'CREC9';
    await h.running.services.policies.set(WS, { ...DEFAULT_POLICY, recordChangeExemptTypes: ['TXT'] });
    const GERMAN = 'U0HOSTILEDE';
    h.slack.users.set(GERMAN, { id: GERMAN, locale: 'de-DE' });
    try {
      const records = h.sandbox.state.domains.get(zone)?.records ?? [];
      const nextId = () => Math.max(...records.map((r) => r.id)) + 1;
      const label = 'hostile';
      // Written outside Regdesk: an SPF record whose text is Slack markup.
      records.push({
        id: nextId(),
        name: `${label}.${zone}.`,
        type: 'TXT',
        data: 'v=spf1 <!channel> <https://evil.example/|click here> <@U0ADMIN> <#C0GENERAL> -all',
        ttl: 300,
        auto: false,
        active: true,
      });
      // A change Regdesk made an hour ago that deleted another SPF there; reverting it adds that back.
      const deleted = { name: `${label}.${zone}.`, type: 'TXT' as const, data: 'v=spf1 mx -all', ttl: 300 };
      const made = await h.running.services.recordChanges.keep(WS, {
        domain: zone,
        change: { kind: 'delete', id: nextId(), before: deleted },
        recordId: 0,
        by: REQUESTER,
        at: Date.now() - 3_600_000,
        before: [],
        cacheSeconds: 300,
      });
      for (const [user, words] of [
        [REQUESTER, 'SPF'],
        [GERMAN, 'SPF'],
      ] as const) {
        const url = `hostile-${user}`;
        await h.driver.interaction(
          buttonPress(RECORD_IDS.revert, made.id, { user, channel, responseUrl: h.slack.responseUrl(url) }),
        );
        await h.slack.waitFor(() => h.slack.callsTo(`response_url:${url}`).length > 0, 15_000);
        const said = JSON.stringify(h.slack.callsTo(`response_url:${url}`)[0]?.args);
        expect(said).toContain(words);
        expect(said).toContain('&lt;!channel&gt;');
        for (const live of ['<!', '<http', '<@', '<#']) expect(said).not.toContain(live);
      }
      expect(recordsAt(label)).toHaveLength(1);
    } finally {
      await h.running.services.policies.set(WS, DEFAULT_POLICY);
    }
  });

  it('shows the approver invisible characters of a record written elsewhere, written out', async () => {
    const channel = 'CREC7';
    const records = h.sandbox.state.domains.get(zone)?.records ?? [];
    const id = Math.max(...records.map((r) => r.id)) + 1;
    // Written at the registrar by someone else: reads "letsencrypt.org" with the override hidden.
    records.push({
      id,
      name: `bidi.${zone}.`,
      type: 'CAA',
      data: '0 issue "\u202egro.tpyrcnesttel"',
      ttl: 300,
      auto: false,
      active: true,
    });
    const before = h.slack.calls.filter(isRequestIn(channel)).length;
    await h.driver.command('/dns', `record delete ${zone} ${id}`, { user: REQUESTER, channel });
    const request = await nextRequest(channel, before);
    expect(request.shown).toContain('[U+202E]gro.tpyrcnesttel');
    expect(request.shown).not.toContain('\u202e');
  });

  it('refuses records the registrar manages, ids of other zones, and an edit of a record changed since it was asked', async () => {
    const channel = 'CREC4';
    const apexNs = h.sandbox.state.domains.get(zone)?.records.find((r) => r.auto && r.type === 'NS');
    expect((await openModal(`edit ${zone} ${apexNs?.id}`, channel)).shown).toMatch(
      /managed by the registrar|\/domain ns/,
    );
    const elsewhere = h.sandbox.state.domains.get('example.com')?.records.find((r) => !r.auto);
    expect((await openModal(`edit ${zone} ${elsewhere?.id}`, channel)).shown).toContain(
      `No record with ID ${elsewhere?.id}`,
    );

    const target = h.sandbox.state.domains
      .get(zone)
      ?.records.find((r) => r.type === 'A' && !r.auto && r.active);
    const before = h.slack.calls.filter(isRequestIn(channel)).length;
    await h.driver.command('/dns', `record delete ${zone} ${target?.id}`, { user: REQUESTER, channel });
    const request = await nextRequest(channel, before);
    expect(request.shown).toContain('After:');
    // Someone changes the record at the registrar while the request waits.
    if (target !== undefined) target.data = '192.0.2.77';
    await h.driver.interaction(buttonPress(APPROVAL_IDS.approve, request.id, { user: ADMIN, channel }));
    await expect
      .poll(async () => (await h.running.services.approvalStore.get(WS, request.id))?.outcome, {
        timeout: 15_000,
      })
      .toContain('has changed since');
    expect(h.sandbox.state.domains.get(zone)?.records.some((r) => r.id === target?.id)).toBe(true);
  });

  it('records pages offer Edit and Delete on records that may change, none where the registrar does not offer changes', async () => {
    const page = async () => {
      const url = `records-${Math.random().toString(36).slice(2)}`;
      await h.driver.command('/dns', `records ${zone}`, {
        user: REQUESTER,
        channel: 'CREC5',
        responseUrl: h.slack.responseUrl(url),
      });
      await h.slack.waitFor(() => h.slack.callsTo(`response_url:${url}`).length > 0, 15_000);
      const answer = h.slack.callsTo(`response_url:${url}`)[0] as SlackCall;
      assertWithinBlockKitLimits(answer.args, 'message');
      expect(messageText(answer)).toMatch(/\d records?\b/);
      return messageText(answer);
    };
    const offered = await page();
    const menus = offered.split(RECORD_IDS.rowMenu).length - 1;
    const changeable = (h.sandbox.state.domains.get(zone)?.records ?? []).filter((r) => !r.auto).length;
    expect(menus).toBe(changeable);

    // A registrar without the record endpoints: the probe's answer is forgotten, then a 405.
    const { redis } = h.running.services;
    const kept = await redis.keys(`${h.keyPrefix}:*records*offered*`);
    expect(kept).toHaveLength(1);
    await redis.del(...kept);
    h.sandbox.faults.inject('dns.recordGet', { status: 405, times: 1 });
    expect(await page()).not.toContain(RECORD_IDS.rowMenu);
    // The answer is kept for the hour: the next page does not probe again, and the modal says so.
    const probes = h.sandbox.calls.filter((c) => c.operation === 'dns.recordGet').length;
    expect(await page()).not.toContain(RECORD_IDS.rowMenu);
    expect((await openModal(`add ${zone}`, 'CREC5')).shown).toContain('does not offer record changes');
    // Offered again for the tests after this one.
    await redis.del(...(await redis.keys(`${h.keyPrefix}:*records*offered*`)));
    expect(h.sandbox.calls.filter((c) => c.operation === 'dns.recordGet')).toHaveLength(probes);
  });

  it('an exempt person edits from the records page, reverts at once; a forgotten change and a failing registrar are told', async () => {
    const channel = 'CREC6';
    const EXEMPT = 'U0003';
    h.slack.users.set(EXEMPT, { id: EXEMPT });
    await h.running.services.policies.set(WS, { ...DEFAULT_POLICY, recordChangeExemptUsers: [EXEMPT] });
    try {
      const record = h.sandbox.state.domains
        .get(zone)
        ?.records.find((r) => r.type === 'A' && !r.auto && r.active);
      const original = record?.data;
      // The page's overflow menu: Edit opens the modal filled with the record.
      const before = h.slack.callsTo('views.update').length;
      const press = buttonPress(RECORD_IDS.rowMenu, '', { user: EXEMPT, channel });
      press.actions = [
        {
          action_id: RECORD_IDS.rowMenu,
          block_id: 'b',
          type: 'overflow',
          selected_option: { text: { type: 'plain_text', text: 'Edit' }, value: `edit:${record?.id}` },
          action_ts: '1.2',
        },
      ];
      await h.driver.interaction(press);
      await h.slack.waitFor(() => h.slack.callsTo('views.update').length > before, 15_000);
      const view = h.slack.callsTo('views.update').at(-1)?.args.view as { private_metadata: string };
      expect(JSON.stringify(view), JSON.stringify(view)).toContain(original);
      const edit = (typed: Typed) =>
        h.driver.interaction(
          viewSubmission(RECORD_IDS.modal, modalValues(typed), {
            user: EXEMPT,
            privateMetadata: view.private_metadata,
          }),
        );
      // Nothing changed is an error on the form, not a change.
      const same = (await edit({ name: '@', data: original ?? '', ttl: String(record?.ttl) })).json() as {
        errors?: Record<string, string>;
      };
      expect(Object.values(same.errors ?? {}).join(' ')).toContain('Nothing changed');
      expect((await edit({ name: '@', data: '192.0.2.55', ttl: '600' })).text).toBe('');
      await expect.poll(() => [record?.data, record?.ttl], { timeout: 15_000 }).toEqual(['192.0.2.55', 600]);
      const card = () =>
        h.slack
          .succeeded('chat.postMessage')
          .filter((c) => c.args.channel === channel && messageText(c).includes(RECORD_IDS.revert))
          .at(-1);
      await expect.poll(() => card() !== undefined, { timeout: 15_000 }).toBe(true);
      const shown = messageText(card() as SlackCall);
      expect(shown).toContain(`${original}`);
      expect(shown).toContain('192.0.2.55');
      const changeId =
        new RegExp(`"action_id":"${RECORD_IDS.revert}","value":"([^"]+)"`).exec(shown)?.[1] ?? '';

      // A failing registrar: told, nothing claimed as done.
      h.sandbox.faults.inject('dns.recordUpdate', { status: 500, times: 1 });
      const url = `revert-${Math.random().toString(36).slice(2)}`;
      await h.driver.interaction(
        buttonPress(RECORD_IDS.revert, changeId, {
          user: EXEMPT,
          channel,
          responseUrl: h.slack.responseUrl(url),
        }),
      );
      await h.slack.waitFor(() => h.slack.callsTo(`response_url:${url}`).length > 0, 15_000);
      expect(record?.data).toBe('192.0.2.55');
      // Audited before the write and after its failure: what was asked, and that it was not made.
      const trail = (await h.running.services.audit.latest(WS, { limit: 30 }))
        .filter((entry) => entry.action === 'record_change' && entry.actor === EXEMPT)
        .map((entry) => entry.outcome ?? '');
      expect(trail.some((outcome) => outcome.startsWith('not made:'))).toBe(true);
      expect(trail.some((outcome) => outcome.startsWith('asked: revert change'))).toBe(true);

      // Exempt, Revert changes it back at once.
      await h.driver.interaction(buttonPress(RECORD_IDS.revert, changeId, { user: EXEMPT, channel }));
      await expect.poll(() => [record?.data, record?.ttl], { timeout: 15_000 }).toEqual([original, 3600]);

      // A change Regdesk no longer knows (Redis lost it) is refused, and nothing is written.
      const { redis } = h.running.services;
      await redis.del(...(await redis.keys(`${h.keyPrefix}:*records:change:${changeId}`)));
      const writesBefore = writes().length;
      const gone = `gone-${Math.random().toString(36).slice(2)}`;
      await h.driver.interaction(
        buttonPress(RECORD_IDS.revert, changeId, {
          user: EXEMPT,
          channel,
          responseUrl: h.slack.responseUrl(gone),
        }),
      );
      await h.slack.waitFor(() => h.slack.callsTo(`response_url:${gone}`).length > 0, 15_000);
      expect(JSON.stringify(h.slack.callsTo(`response_url:${gone}`)[0]?.args)).toContain('no longer known');
      expect(writes()).toHaveLength(writesBefore);
    } finally {
      await h.running.services.policies.set(WS, DEFAULT_POLICY);
    }
  });

  it('a key that may not change DNS is told so, and the record stays', async () => {
    const channel = 'CREC7';
    const EXEMPT = 'U0004';
    h.slack.users.set(EXEMPT, { id: EXEMPT });
    await h.running.services.policies.set(WS, { ...DEFAULT_POLICY, recordChangeExemptUsers: [EXEMPT] });
    h.sandbox.addKey(
      h.sandbox.apiKey,
      ALL_PERMISSIONS.filter((permission) => permission !== 'dns:write'),
    );
    try {
      const target = h.sandbox.state.domains
        .get(zone)
        ?.records.find((r) => r.type === 'A' && !r.auto && r.active);
      const writesBefore = writes().length;
      const url = `readonly-${Math.random().toString(36).slice(2)}`;
      await h.driver.command('/dns', `record delete ${zone} ${target?.id}`, {
        user: EXEMPT,
        channel,
        responseUrl: h.slack.responseUrl(url),
      });
      await h.slack.waitFor(() => h.slack.callsTo(`response_url:${url}`).length > 0, 15_000);
      expect(JSON.stringify(h.slack.callsTo(`response_url:${url}`).map((c) => c.args))).toContain(
        'may not change DNS records',
      );
      expect(h.sandbox.state.domains.get(zone)?.records.some((r) => r.id === target?.id)).toBe(true);
      // The registrar refused the one attempt; no Revert is offered for a change that did not happen.
      expect(writes().length - writesBefore).toBeLessThanOrEqual(1);
      expect(
        h.slack
          .succeeded('chat.postMessage')
          .some((c) => c.args.channel === channel && messageText(c).includes(RECORD_IDS.revert)),
      ).toBe(false);
    } finally {
      h.sandbox.addKey(h.sandbox.apiKey, [...ALL_PERMISSIONS]);
      await h.running.services.policies.set(WS, DEFAULT_POLICY);
    }
  });
});
