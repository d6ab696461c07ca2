import { ORDER_IDS } from '../../src/features/tls/ids.js';
import { inputActionId } from '../../src/slack/modal.js';
import { type Child, startRegdesk } from '../lib/children.js';
import { type BenchContext, keyPrefix, regdeskEnv, startSandbox, TEAM, waitFor } from '../lib/context.js';
import { BENCH_CSR } from '../lib/csr.js';
import { textOf } from '../lib/fake-slack.js';
import { judged, type Row, seconds } from '../lib/report.js';
import { FORM, postSigned, viewSubmission } from '../lib/slack-requests.js';

const ISSUE_MS = 20_000;
const FIXED_POLL_MS = 30_000;

const input = (blockId: string, value: Record<string, unknown>) => ({
  [blockId]: { [inputActionId(blockId)]: value },
});

/**
 * Following: a certificate ordered through the order modal stays pending for 20 s in the sandbox,
 * then is issued. Regdesk follows it with delayed jobs on a doubling schedule. Two figures: how long
 * after it settled the settled result was posted in the order's thread, against the backoff step it
 * fell into; and how many registrar reads that took, against a fixed 30-second poll over the same time.
 */
export async function following(ctx: BenchContext): Promise<Row[]> {
  const { sandbox, log } = await startSandbox(ctx, { delays: { certificateIssueMs: ISSUE_MS } });
  const children: Child[] = [];
  try {
    const regdesk = await startRegdesk(
      'start',
      regdeskEnv(ctx, sandbox, keyPrefix(ctx, 'follow')),
      'regdesk start (following)',
    );
    children.push(regdesk);
    const values = {
      ...input(ORDER_IDS.product, { type: 'static_select', selected_option: { value: 'RapidSSL' } }),
      ...input(ORDER_IDS.cn, { type: 'plain_text_input', value: 'www.example.com' }),
      ...input(ORDER_IDS.sans, { type: 'plain_text_input', value: 'example.com' }),
      ...input(ORDER_IDS.csr, { type: 'plain_text_input', value: BENCH_CSR }),
      ...input(ORDER_IDS.dcv, { type: 'radio_buttons', selected_option: { value: 'dns-cname-token' } }),
    };
    const sentAt = Date.now();
    const ack = await postSigned(
      regdesk.port,
      ctx.secret,
      viewSubmission({
        team: TEAM,
        user: 'UFOLLOW',
        callbackId: ORDER_IDS.modal,
        values,
        privateMetadata: JSON.stringify({ channel: 'CFOLLOW' }),
      }),
      FORM,
    );
    if (ack.status !== 200) throw new Error(`the order modal was not acked (${ack.status})`);

    const order = await waitFor('the certificate order', 15_000, () =>
      log.find((call) => call.operation === 'tls.order' && call.at >= sentAt),
    );
    if (order.status !== 200) throw new Error(`the sandbox refused the order (${order.status})`);
    const cert = [...sandbox.state.certificates.values()].find(
      (c) => c.common_name === 'www.example.com' && c.orderedAt >= sentAt - 1_000,
    );
    if (cert?.issueAt === undefined || cert.issueAt === null)
      throw new Error('ordered certificate not found');
    const settledAt = cert.issueAt;

    const posted = await waitFor('the settled result in the thread', ISSUE_MS + 120_000, () =>
      ctx.slack.calls.find(
        (call) =>
          call.method === 'chat.postMessage' &&
          call.args.thread_ts !== undefined &&
          textOf(call).includes(cert.id) &&
          textOf(call).includes('is issued'),
      ),
    );
    const reads = log
      .filter((call) => call.operation === 'tls.get' && call.at >= order.at && call.at <= posted.at)
      .map((call) => call.at);
    // The read that saw it issued, and the one before it: the backoff step the settling fell into.
    const seen = reads.find((at) => at >= settledAt) ?? posted.at;
    const before = [...reads].reverse().find((at) => at < settledAt) ?? order.at;
    const step = seen - before;
    const lag = posted.at - settledAt;
    const span = posted.at - order.at;
    const fixedReads = Math.max(1, Math.floor(span / FIXED_POLL_MS));
    return [
      judged(
        `Following: settled result posted after settling (issued at ${ISSUE_MS / 1000} s)`,
        seconds(lag),
        `${seconds(step)} backoff step`,
        lag / step,
        '<=',
        1,
      ),
      {
        measure: `Following: registrar reads over ${seconds(span)}`,
        value: `${reads.length} reads`,
        ceiling: `${fixedReads} by a fixed ${FIXED_POLL_MS / 1000} s poll`,
        ratio: reads.length / fixedReads,
        goal: 'info',
      },
    ];
  } finally {
    await Promise.all(children.map((child) => child.stop()));
  }
}
