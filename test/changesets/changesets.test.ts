import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APPROVAL_IDS } from '../../src/features/approvals/ids.js';
import { CHANGESET_IDS } from '../../src/features/changesets/ids.js';
import { parseMasterFile } from '../../src/features/changesets/master-file.js';
import { press, WS } from '../approvals/support.js';
import { type Harness, startHarness } from '../helpers/app-harness.js';
import { buttonValue, messageText, stateInput, viewSubmission } from '../helpers/payloads.js';
import { uploadedFile } from '../helpers/uploads.js';

const ADMIN = 'U0CSADMIN';
const ADMIN2 = 'U0CSADMIN2';
const REQUESTER = 'U0CSREQ';
const ZONE = 'example.com';

/**
 * Change sets through signed Slack requests, the fake Slack and the registrar sandbox (contract §3
 * "Change sets"): export, import as one plan and one approval, applied step by step (resuming after
 * the registrar fails mid-way, nothing written twice), the 30 % rule, and Revert change set.
 */
describe('zone files and change sets', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
    h.slack.users.set(REQUESTER, { id: REQUESTER });
    h.slack.users.set(ADMIN, { id: ADMIN, is_admin: true });
    h.slack.users.set(ADMIN2, { id: ADMIN2, is_admin: true });
  });
  afterAll(() => h.stop());

  const zoneRecords = () => h.running.services.registrarFor(WS).dns.records(ZONE);
  const requests = (channel: string) =>
    h.slack
      .succeeded('chat.postMessage')
      .filter((call) => call.args.channel === channel && messageText(call).includes(APPROVAL_IDS.withdraw));
  const threadSays = (channel: string, words: string) =>
    h.slack
      .succeeded('chat.postMessage')
      .some(
        (call) =>
          call.args.channel === channel &&
          call.args.thread_ts !== undefined &&
          messageText(call).includes(words),
      );

  /** Opens the import modal with a signed command and submits `source` in `mode`; Regdesk's answer to the submission. */
  async function importText(
    channel: string,
    source: string,
    mode: 'merge' | 'replace',
    cutover?: { at: number; lower: boolean },
  ) {
    const opened = () =>
      h.slack.succeeded('views.open').filter((call) => messageText(call).includes(CHANGESET_IDS.importModal));
    const before = opened().length;
    await h.driver.command('/dns', `zone import ${ZONE}`, { user: REQUESTER, channel });
    await h.slack.waitFor(() => opened().length > before, 10_000);
    const view = opened().at(-1)?.args.view as { private_metadata?: string } | undefined;
    const metadata = view?.private_metadata ?? '';
    return h.driver.interaction(
      viewSubmission(
        CHANGESET_IDS.importModal,
        {
          ...stateInput(CHANGESET_IDS.importText, { value: source }),
          ...stateInput(CHANGESET_IDS.importMode, { selected_option: { value: mode } }),
          ...(cutover === undefined
            ? {}
            : {
                ...stateInput(CHANGESET_IDS.importAt, { selected_date_time: Math.floor(cutover.at / 1000) }),
                ...stateInput(CHANGESET_IDS.importLower, {
                  selected_options: cutover.lower ? [{ value: 'lower' }] : [],
                }),
              }),
        },
        { user: REQUESTER, privateMetadata: metadata },
      ),
    );
  }

  /** The id of the newest request posted in `channel`, once there are `count`. */
  async function requestIn(channel: string, count = 1): Promise<string> {
    await h.slack.waitFor(() => requests(channel).length >= count, 15_000);
    const posted = requests(channel).at(-1);
    return (
      new RegExp(`"${APPROVAL_IDS.approve}","value":"(apr_[0-9a-f]+)"`).exec(
        JSON.stringify(posted?.args.blocks),
      )?.[1] ?? ''
    );
  }

  it('exports the zone as a master file that parses back to its records', async () => {
    await h.driver.command('/dns', `zone export ${ZONE}`, { user: REQUESTER, channel: 'CEXPORT' });
    await h.slack.waitFor(() => h.slack.uploads.size > 0, 10_000);
    const file = uploadedFile([...h.slack.uploads.values()].at(-1) ?? Buffer.alloc(0));
    expect(file).toContain(`$ORIGIN ${ZONE}.`);
    expect(file).toContain('SOA');
    const parsed = parseMasterFile(file, ZONE);
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
    // Every active record the registrar lists is in the file (apex NS, A, AAAA, CNAME, MX, TXT, CAA).
    const active = (await zoneRecords()).filter((record) => record.active !== false);
    for (const record of active)
      expect(parsed.records.some((found) => found.type === record.type && found.name === record.name)).toBe(
        true,
      );
  });

  it('names a parse error by its line on the field, and plans nothing', async () => {
    const answer = await importText(
      'CBADFILE',
      'www 300 IN A 192.0.2.1\nftp 300 IN HINFO "x" "y"\n',
      'merge',
    );
    expect(JSON.stringify(answer.json())).toContain('Line 2');
    expect(requests('CBADFILE')).toEqual([]);
  });

  it('plans an import as one request, applies it after approval (resuming after a failure), and reverts it', async () => {
    const source = `$TTL 600
api      IN A     192.0.2.50
api      IN A     192.0.2.51
www      IN CNAME api
_dmarc   IN TXT   "v=DMARC1; p=none"
`;
    await importText('CIMPORT', source, 'merge');
    const id = await requestIn('CIMPORT');
    const shown = messageText(requests('CIMPORT').at(-1) ?? { method: '', args: {}, at: 0 });
    expect(shown).toContain('3 to create, 1 to change, 0 to delete');
    // The registrar fails the second write once: the job stops, is retried and resumes.
    h.sandbox.faults.inject('dns.recordCreate', { status: 503, times: 1 });
    await press(h, APPROVAL_IDS.approve, id, ADMIN, 'CIMPORT');
    await h.slack.waitFor(() => threadSays('CIMPORT', 'applied'), 60_000);
    const records = await zoneRecords();
    const api = records.filter((record) => record.name === `api.${ZONE}.` && record.type === 'A');
    // Nothing written twice.
    expect(api.map((record) => record.data).sort()).toEqual(['192.0.2.50', '192.0.2.51']);
    expect(records.find((record) => record.name === `www.${ZONE}.`)?.data).toBe(`api.${ZONE}.`);
    expect(records.filter((record) => record.name === `_dmarc.${ZONE}.`)).toHaveLength(1);

    // The same text again: nothing to change.
    await importText('CIMPORT2', source, 'merge');
    await h.slack.waitFor(() =>
      h.slack.calls.some((call) => messageText(call).includes('Nothing to change')),
    );

    // Revert change set: itself a change set, approved, puts the zone back.
    const setId = buttonValue(h.slack, CHANGESET_IDS.revert) ?? '';
    expect(setId).toMatch(/^cs_/);
    await press(h, CHANGESET_IDS.revert, setId, REQUESTER, 'CIMPORT');
    const revert = await requestIn('CIMPORT', 2);
    // It deletes 3 and changes 1 of the zone's 10 records: more than 30 %, so two approvals.
    expect((await h.running.services.approvalStore.get(WS, revert))?.needed).toBe(2);
    await press(h, APPROVAL_IDS.approve, revert, ADMIN, 'CIMPORT');
    await press(h, APPROVAL_IDS.approve, revert, ADMIN2, 'CIMPORT');
    await expect
      .poll(async () => (await zoneRecords()).filter((record) => record.name === `api.${ZONE}.`).length, {
        timeout: 60_000,
      })
      .toBe(0);
    // The revert undoes in reverse order: the edit of www comes back last.
    await expect
      .poll(async () => (await zoneRecords()).find((record) => record.name === `www.${ZONE}.`)?.data, {
        timeout: 60_000,
      })
      .toBe(`${ZONE}.`);
  });

  it('asks one approval more when a set changes or deletes more than 30 % of a zone', async () => {
    h.sandbox.state.addRecords(ZONE, 12);
    // Replace with only the apex A: every other manageable record would be deleted.
    await importText('CLARGE', '@ 3600 IN A 192.0.2.10\n', 'replace');
    const id = await requestIn('CLARGE');
    const stored = await h.running.services.approvalStore.get(WS, id);
    expect(stored?.needed).toBe(2);
    expect(messageText(requests('CLARGE').at(-1) ?? { method: '', args: {}, at: 0 })).toContain(
      'more than 30 %',
    );
    // Auto records and the apex NS set are never in a plan.
    expect(JSON.stringify(stored?.params)).not.toContain('ns1.regfish.de');
  });

  it('schedules a cutover: TTLs lowered at approval, applied at its time, or cancelled with the TTLs put back', async () => {
    const mailOf = async () =>
      (await zoneRecords()).find((record) => record.type === 'MX' && record.name === `${ZONE}.`);
    const before = await mailOf();
    expect(before?.ttl).toBe(3600);
    const at = Date.now() + 10 * 60_000;
    // A time in the past is refused on its field.
    const past = await importText('CCUT0', '@ 3600 IN MX 20 mx2.example.com.\n', 'merge', {
      at: Date.now() - 60_000,
      lower: true,
    });
    expect(JSON.stringify(past.json())).toContain('future');

    await importText('CCUT', '@ 3600 IN MX 10 mx.example.net.\n', 'merge', { at, lower: true });
    const id = await requestIn('CCUT');
    expect(messageText(requests('CCUT').at(-1) ?? { method: '', args: {}, at: 0 })).toContain('Cutover');
    await press(h, APPROVAL_IDS.approve, id, ADMIN, 'CCUT');
    await h.slack.waitFor(() => threadSays('CCUT', CHANGESET_IDS.cancel), 20_000);
    // Lowered at once; the change itself waits: not before the cutover, nor before the old TTL ran out.
    expect((await mailOf())?.ttl).toBe(60);
    expect((await mailOf())?.data).toContain('mail.example.com');
    const setId = buttonValue(h.slack, CHANGESET_IDS.cancel) ?? '';
    const run = await h.running.services.changeSets.get(WS, setId);
    expect(run?.state).toBe('scheduled');
    expect(run?.applyAt ?? 0).toBeGreaterThanOrEqual(Math.max(at, Date.now() + 3_000_000));
    const job = await h.running.services.changeSetQueue.getJob(`apply-${setId}`);
    expect(await job?.getState()).toBe('delayed');
    // The cutover's time, on the queue's clock: it applies, with the set's own TTL.
    await job?.promote();
    await h.slack.waitFor(() => threadSays('CCUT', 'applied'), 30_000);
    expect(await mailOf()).toMatchObject({ data: 'mx.example.net.', ttl: 3600 });

    // A second cutover, cancelled before its time: TTL back, nothing applied, the job gone.
    await importText('CCUT2', '@ 3600 IN MX 10 mx3.example.net.\n', 'merge', { at, lower: true });
    const second = await requestIn('CCUT2');
    await press(h, APPROVAL_IDS.approve, second, ADMIN, 'CCUT2');
    await h.slack.waitFor(() => threadSays('CCUT2', CHANGESET_IDS.cancel), 20_000);
    expect((await mailOf())?.ttl).toBe(60);
    const secondId = buttonValue(h.slack, CHANGESET_IDS.cancel) ?? '';
    await press(h, CHANGESET_IDS.cancel, secondId, REQUESTER, 'CCUT2');
    await h.slack.waitFor(() => threadSays('CCUT2', 'cancelled'), 20_000);
    expect(await mailOf()).toMatchObject({ data: 'mx.example.net.', ttl: 3600 });
    expect((await h.running.services.changeSets.get(WS, secondId))?.state).toBe('cancelled');
    expect(await h.running.services.changeSetQueue.getJob(`apply-${secondId}`)).toBeUndefined();
  });
});
