import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APPROVAL_IDS } from '../../src/features/approvals/ids.js';
import { CHANGESET_IDS } from '../../src/features/changesets/ids.js';
import { press } from '../approvals/support.js';
import { addLabDomains } from '../diagnostics/support.js';
import { type Harness, startHarness } from '../helpers/app-harness.js';
import { type DnsLab, startDnsLab } from '../helpers/dns-lab/index.js';
import { LAB_RANGE } from '../helpers/live-check.js';
import { messageText, stateInput, viewSubmission } from '../helpers/payloads.js';

const REQUESTER = 'U0CSLAB';
const ADMIN = 'U0CSLABADMIN';

/**
 * An applied change set is followed until every authoritative nameserver serves it, as single record
 * changes are: the suite's real knot plays the registrar's nameservers, fed what the sandbox is
 * written (TXT below the apex), and Regdesk asks it directly.
 */
describe('a change set confirmed on the nameservers', () => {
  let lab: DnsLab;
  let h: Harness;
  let zone: string;

  beforeAll(async () => {
    lab = await startDnsLab();
    h = await startHarness({ env: { DNS_RESOLVERS: lab.resolver, LIVE_CHECK_ALLOW: LAB_RANGE } });
    addLabDomains(h.sandbox, lab);
    zone = lab.zones.healthy;
    h.slack.users.set(REQUESTER, { id: REQUESTER });
    h.slack.users.set(ADMIN, { id: ADMIN, is_admin: true });
  }, 120_000);
  afterAll(async () => {
    await h?.stop();
    await syncing;
    await lab?.stop();
  }, 120_000);

  let syncing = Promise.resolve();
  /** Copies the sandbox's TXT records below the apex to the lab's primary, once the test says so. */
  function sync(): Promise<void> {
    syncing = syncing.then(async () => {
      const records = (h.sandbox.state.domains.get(zone)?.records ?? []).filter(
        (r) => r.type === 'TXT' && r.name !== `${zone}.` && r.name.startsWith('cs'),
      );
      for (const r of records) await lab.setRecord(zone, r.name, r.type, r.data, r.ttl);
    });
    return syncing;
  }

  it('says in the thread once every nameserver serves every step, not before', async () => {
    const opened = () =>
      h.slack.succeeded('views.open').filter((call) => messageText(call).includes(CHANGESET_IDS.importModal));
    await h.driver.command('/dns', `zone import ${zone}`, { user: REQUESTER, channel: 'CCSLAB' });
    await h.slack.waitFor(() => opened().length > 0, 10_000);
    const view = opened().at(-1)?.args.view as { private_metadata?: string } | undefined;
    await h.driver.interaction(
      viewSubmission(
        CHANGESET_IDS.importModal,
        {
          ...stateInput(CHANGESET_IDS.importText, {
            value: 'cs1 300 IN TXT "first of the set"\ncs2 300 IN TXT "second of the set"\n',
          }),
          ...stateInput(CHANGESET_IDS.importMode, { selected_option: { value: 'merge' } }),
        },
        { user: REQUESTER, privateMetadata: view?.private_metadata ?? '' },
      ),
    );
    const isRequest = (call: { args: Record<string, unknown> }) =>
      call.args.channel === 'CCSLAB' && messageText(call as never).includes(APPROVAL_IDS.withdraw);
    await h.slack.waitFor(() => h.slack.succeeded('chat.postMessage').some(isRequest), 15_000);
    const posted = h.slack.succeeded('chat.postMessage').find(isRequest);
    const id = /"value":"(apr_[0-9a-f]+)"/.exec(JSON.stringify(posted?.args.blocks))?.[1] ?? '';
    await press(h, APPROVAL_IDS.approve, id, ADMIN, 'CCSLAB');
    const inThread = (words: string) =>
      h.slack
        .succeeded('chat.postMessage')
        .some(
          (call) =>
            call.args.channel === 'CCSLAB' &&
            call.args.thread_ts !== undefined &&
            messageText(call).includes(words),
        );
    await h.slack.waitFor(() => inThread('applied'), 30_000);
    // Written at the registrar, not yet on the nameservers: not said to be served.
    // Followed once the outcome is told (the follow job is queued right after it).
    await expect
      .poll(async () => {
        const jobs = await h.running.services.followQueue.getJobs(['delayed', 'waiting', 'active']);
        return jobs.some((job) => JSON.stringify(job.data).includes('changeset'));
      })
      .toBe(true);
    expect(inThread('every nameserver')).toBe(false);
    await sync();
    for (const job of await h.running.services.followQueue.getJobs(['delayed'])) await job.promote();
    await h.slack.waitFor(() => inThread('every nameserver'), 60_000);
  }, 120_000);
});
