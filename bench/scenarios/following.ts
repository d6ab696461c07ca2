import { followDelay } from '../../src/features/follow/jobs.js';
import { ORDER_IDS } from '../../src/features/tls/ids.js';
import { inputActionId } from '../../src/slack/modal.js';
import { type Child, startRegdesk } from '../lib/children.js';
import { type BenchContext, keyPrefix, regdeskEnv, startSandbox, TEAM, waitFor } from '../lib/context.js';
import { BENCH_CSR } from '../lib/csr.js';
import { judged, type Row, seconds } from '../lib/report.js';
import { delivered, textOf } from '../lib/slack-calls.js';
import { FORM, postSigned, viewSubmission } from '../lib/slack-requests.js';

/** Issued 20 s after the order: how quickly a fast settling is reported. */
const QUICK_ISSUE_MS = 20_000;
/** Issued 5 min after the order: a realistic validation time, where the reads are counted. */
const REALISTIC_ISSUE_MS = 300_000;
const FIXED_POLL_MS = 30_000;
/** Beyond the schedule's first read after the issue: time for the read, the job hop and the post. */
const REPORT_MARGIN_MS = 60_000;

const input = (blockId: string, value: Record<string, unknown>) => ({
  [blockId]: { [inputActionId(blockId)]: value },
});

/** When Regdesk's follow schedule (after the order) first reads at or after `ms`. */
function firstReadAfter(ms: number): number {
  let at = 0;
  for (let attempt = 0; ; attempt++) {
    at += followDelay(attempt);
    if (at >= ms) return at;
  }
}

const label = (ms: number) => (ms >= 60_000 && ms % 60_000 === 0 ? `${ms / 60_000} min` : `${ms / 1000} s`);

interface Followed {
  issueMs: number;
  /** From settling to the result posted in the order's thread. */
  lag: number;
  /** The backoff step the settling fell into: the read before it to the read that saw it. */
  step: number;
  /** Registrar reads (`tls.get`) from the order to the posted result. */
  reads: number;
  /** From the order to the posted result. */
  span: number;
}

/**
 * One order through the order modal, in a sandbox and a `regdesk start` child of its own, issued
 * `issueMs` after ordering; resolves once the settled result is posted in the order's thread.
 */
async function followOne(ctx: BenchContext, name: string, issueMs: number): Promise<Followed> {
  const { sandbox, log } = await startSandbox(ctx, { delays: { certificateIssueMs: issueMs } });
  const channel = `CFOLLOW${ctx.runtime.tag.toUpperCase()}${name.toUpperCase()}`;
  const children: Child[] = [];
  try {
    const regdesk = await startRegdesk(
      ctx.runtime,
      'start',
      regdeskEnv(ctx, sandbox, keyPrefix(ctx, `follow-${name}`)),
      `regdesk start (following, ${name})`,
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
        user: `UFOLLOW${name.toUpperCase()}`,
        callbackId: ORDER_IDS.modal,
        values,
        privateMetadata: JSON.stringify({ channel }),
      }),
      FORM,
    );
    if (ack.status !== 200) throw new Error(`the ${name} order modal was not acked (${ack.status})`);

    const order = await waitFor(`the ${name} certificate order`, 15_000, () =>
      log.find((call) => call.operation === 'tls.order' && call.at >= sentAt),
    );
    if (order.status !== 200) throw new Error(`the sandbox refused the ${name} order (${order.status})`);
    const cert = [...sandbox.state.certificates.values()].find(
      (c) => c.common_name === 'www.example.com' && c.orderedAt >= sentAt - 1_000,
    );
    if (cert?.issueAt === undefined || cert.issueAt === null)
      throw new Error(`${name}: ordered certificate not found`);
    const settledAt = cert.issueAt;

    // Certificate ids repeat across sandboxes: the channel tells the two orders' results apart.
    const posted = await waitFor(
      `the ${name} settled result in the thread`,
      firstReadAfter(issueMs) + REPORT_MARGIN_MS,
      () =>
        ctx.slack.calls.find(
          (call) =>
            call.method === 'chat.postMessage' &&
            delivered(call) &&
            call.args.channel === channel &&
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
    return {
      issueMs,
      lag: posted.at - settledAt,
      step: seen - before,
      reads: reads.length,
      span: posted.at - order.at,
    };
  } finally {
    await Promise.all(children.map((child) => child.stop()));
  }
}

/** The lag row: the result posted within one backoff step of settling. */
function lagRow(f: Followed): Row {
  return judged(
    `Following: result posted after settling (issued at ${label(f.issueMs)})`,
    seconds(f.lag),
    `${seconds(f.step)} backoff step`,
    f.lag / f.step,
    '<=',
    1,
  );
}

/**
 * The reads row: Regdesk's reads against the reads a fixed 30 s poll (from the order) needs to see
 * the issue, ceil(issueMs / 30 s); the fixed poll's count over Regdesk's whole span is shown beside it.
 */
function readsRow(f: Followed, judge: boolean): Row {
  const needed = Math.max(1, Math.ceil(f.issueMs / FIXED_POLL_MS));
  const sameSpan = Math.max(1, Math.floor(f.span / FIXED_POLL_MS));
  const measure = `Following: registrar reads until reported (issued at ${label(f.issueMs)})`;
  const value = `${f.reads} reads`;
  const ceiling = `${needed} by a fixed ${FIXED_POLL_MS / 1000} s poll (${sameSpan} over the same ${seconds(f.span)})`;
  const ratio = f.reads / needed;
  return judge
    ? judged(measure, value, ceiling, ratio, '<', 1)
    : { measure, value, ceiling, ratio, goal: 'info' };
}

/**
 * Following: certificates ordered through the order modal stay pending in the sandbox, then are
 * issued; Regdesk follows each with delayed jobs on a doubling schedule (reads about 2, 6, 14, 30, 62,
 * 126, 254, 510 s … after the order). Two orders run side by side, each with a sandbox, a Regdesk
 * child and a Slack channel of its own, because the two goals pull apart:
 * - issued at 20 s: quick feedback. The result must be posted within the backoff step the settling
 *   fell into. Its reads are shown against a fixed 30 s poll for information only: no schedule that
 *   answers within seconds can read less than once in 30 s over the first half-minute.
 * - issued at 5 min, a realistic validation time: the same lag goal, and the reads are judged. Regdesk
 *   must make strictly fewer registrar reads until it reports the issue than a fixed 30 s poll needs to
 *   see it at all (ceil(issue / 30 s)); the fixed poll's count over Regdesk's whole span is shown too.
 * The scenario lasts as long as the 5-minute order takes to be reported (about 510 s).
 */
export async function following(ctx: BenchContext): Promise<Row[]> {
  const [quick, realistic] = await Promise.all([
    followOne(ctx, 'quick', QUICK_ISSUE_MS),
    followOne(ctx, 'realistic', REALISTIC_ISSUE_MS),
  ]);
  return [lagRow(quick), readsRow(quick, false), lagRow(realistic), readsRow(realistic, true)];
}
