import { BOT_USER, type SlackCall } from '../../src/playground/slack-standin.js';
import { type Child, startRegdesk } from '../lib/children.js';
import {
  type BenchContext,
  keyPrefix,
  regdeskEnv,
  sleep,
  startSandbox,
  TEAM,
  waitFor,
} from '../lib/context.js';
import { judged, type Row, seconds } from '../lib/report.js';
import { delivered, rateLimited, textOf } from '../lib/slack-calls.js';
import { JSON_TYPE, mentionEvent, postSigned } from '../lib/slack-requests.js';

const KEY_LIMIT = { max: 4, windowMs: 3_000 };
/** Not the bench's subject: as in production, but roomy enough never to bind for 12 questions. */
const ACCOUNT_LIMIT = { max: 20, windowMs: 600_000 };
const ANSWER_MS = 300;
const QUESTIONS = 12;
const CHANNELS = 3;
const PROCESSES = 2;
const UTILISATION_GOAL = 0.95;
const SLACK_MS = 1_000;

/**
 * The earliest the last of `n` answers can arrive: the registrar answers one question per account at
 * a time (`answerMs` each) and starts at most `max` per sliding `windowMs`.
 */
export function limitFloor(n: number, max: number, windowMs: number, answerMs: number): number {
  const starts: number[] = [];
  for (let k = 0; k < n; k++) {
    const afterPrevious = k === 0 ? 0 : (starts[k - 1] ?? 0) + answerMs;
    const afterWindow = k < max ? 0 : (starts[k - max] ?? 0) + windowMs;
    starts.push(Math.max(afterPrevious, afterWindow));
  }
  return (starts[n - 1] ?? 0) + answerMs;
}

/**
 * Assistant throughput: 12 people mention the bot in 3 channels at once, the deliveries split over two
 * `regdesk start` processes (front and workers each) sharing one key and one Redis. The registrar
 * (sandbox) allows 4 questions per 3 s per key and answers in 300 ms, one at a time; Regdesk is told
 * the same limit. An answer is the thread reply that mentions its asker.
 */
export async function assistantThroughput(ctx: BenchContext): Promise<Row[]> {
  const limits = { assistantKey: KEY_LIMIT, assistantAccount: ACCOUNT_LIMIT };
  const { sandbox, log } = await startSandbox(ctx, { limits, delays: { assistantAnswerMs: ANSWER_MS } });
  const env = regdeskEnv(ctx, sandbox, keyPrefix(ctx, 'assist'), limits);
  const children: Child[] = [];
  try {
    children.push(
      ...(await Promise.all(
        Array.from({ length: PROCESSES }, (_, i) => startRegdesk('start', env, `regdesk start #${i + 1}`)),
      )),
    );
    const mention = (user: string, channel: string, n: number, process: number) =>
      postSigned(
        children[process]?.port ?? 0,
        ctx.secret,
        mentionEvent({
          team: TEAM,
          channel,
          user,
          text: `<@${BOT_USER}> How do I enable DNSSEC for our zone? (${n})`,
          ts: `1700000000.${String(n).padStart(6, '0')}`,
          eventId: `Ev${ctx.runId}${n}`,
          botUser: BOT_USER,
        }),
        JSON_TYPE,
      );

    // Warm-up, as in the ack scenario: a fresh process's first question pays for JIT compilation,
    // connection pools and auth.test, which a long-running one does not. One question per process,
    // answered, then the rate window left to empty, so the measured 12 start from a full quota.
    const warmers = Array.from({ length: PROCESSES }, (_, i) => `UWARM${i}`);
    await Promise.all(warmers.map((user, i) => mention(user, 'CWARM', 100 + i, i)));
    await waitFor('warm-up answers', 30_000, () =>
      warmers.every((user) =>
        ctx.slack.calls.some(
          (call) =>
            delivered(call) &&
            ((call.method === 'chat.postMessage' && textOf(call).startsWith(`<@${user}>`)) ||
              (call.method === 'chat.postEphemeral' && call.args.user === user)),
        ),
      ),
    );
    await sleep(KEY_LIMIT.windowMs + 500);

    const askers = Array.from({ length: QUESTIONS }, (_, i) => `UASK${String(i).padStart(2, '0')}`);
    const limitedBefore = ctx.slack.pacing?.limitedCount() ?? 0;
    const logBefore = log.length;
    const sentAt = Date.now();
    const acks = await Promise.all(
      askers.map((user, i) => mention(user, `CASK${i % CHANNELS}`, i + 1, i % PROCESSES)),
    );
    if (acks.some((ack) => ack.status !== 200))
      throw new Error(`a mention was not acked: ${acks.map((a) => a.status)}`);

    // Each asker's outcome is the thread reply that mentions them (the placeholder does not), or an
    // ephemeral to them where the workspace's policy keeps answers private.
    const outcomeOf = (user: string): SlackCall | undefined =>
      ctx.slack.calls.find(
        (call) =>
          call.at >= sentAt &&
          delivered(call) &&
          ((call.method === 'chat.postMessage' &&
            call.args.thread_ts !== undefined &&
            textOf(call).startsWith(`<@${user}>`)) ||
            (call.method === 'chat.postEphemeral' && call.args.user === user)),
      );
    const outcomes = await waitFor(`${QUESTIONS} outcomes in their threads`, 60_000, () => {
      const found = askers.map(outcomeOf);
      return found.every((call) => call !== undefined) ? (found as SlackCall[]) : undefined;
    });
    const answered = outcomes.filter((call) => !textOf(call).includes(':x: No answer'));
    const lastAt = Math.max(...outcomes.map((call) => call.at));
    const measured = lastAt - sentAt;
    const floor = limitFloor(QUESTIONS, KEY_LIMIT.max, KEY_LIMIT.windowMs, ANSWER_MS);
    const inTime = answered.filter((call) => call.at - sentAt <= floor + SLACK_MS).length;
    const asked = log.slice(logBefore);
    const refused = asked.filter(
      (call) => call.operation === 'assistant.search' && (call.status === 429 || call.status === 503),
    ).length;
    // Where the time went: the registrar's last answer versus the last post in Slack.
    const searched = asked.filter((call) => call.operation === 'assistant.search' && call.status === 200);
    const registrarDone = Math.max(sentAt, ...searched.map((call) => call.at)) - sentAt;
    if (process.env.BENCH_VERBOSE === '1') {
      const rel = (at: number) => ((at - sentAt) / 1000).toFixed(2);
      process.stderr.write(`assistant: registrar answers at ${searched.map((c) => rel(c.at)).join(' ')} s\n`);
      process.stderr.write(`assistant: outcomes posted at ${outcomes.map((c) => rel(c.at)).join(' ')} s\n`);
      const early = ctx.slack.calls.filter((call) => call.at >= sentAt && call.at - sentAt < 2_500);
      process.stderr.write(
        `assistant: Slack calls in 2.5 s: ${early.map((c) => `${c.method}@${rel(c.at)}`).join(' ')}\n`,
      );
      const refusedBySlack = ctx.slack.calls.filter((call) => call.at >= sentAt && rateLimited(call));
      process.stderr.write(
        `assistant: Slack 429s: ${refusedBySlack.map((c) => `${c.method}(${String(c.args.channel)})@${rel(c.at)}`).join(' ')}\n`,
      );
    }
    const slackLimited = (ctx.slack.pacing?.limitedCount() ?? 0) - limitedBefore;
    const label = `${QUESTIONS} questions, ${CHANNELS} channels, ${PROCESSES} processes`;
    return [
      // The limit's pace is the registrar's: its last answer against the floor. What Slack's own
      // posting rule (1/s per channel) adds on top is judged by the next row (floor + 1 s).
      judged(
        `Assistant: limit used, ${label}, ${KEY_LIMIT.max}/${KEY_LIMIT.windowMs / 1000} s`,
        `registrar done at ${seconds(registrarDone)} (last answer posted at ${seconds(measured)})`,
        `${seconds(floor)} limit floor`,
        floor / registrarDone,
        '>=',
        UTILISATION_GOAL,
      ),
      judged(
        'Assistant: answered within floor + 1 s',
        `${inTime} of ${QUESTIONS}`,
        `${QUESTIONS} by ${seconds(floor + SLACK_MS)}`,
        inTime / QUESTIONS,
        '>=',
        1,
      ),
      {
        measure: 'Assistant: 429/503 from registrar',
        value: String(refused),
        ceiling: `${asked.filter((call) => call.operation === 'assistant.search').length} calls`,
        goal: '= 0',
        pass: refused === 0,
      },
      {
        measure: 'Assistant: 429 from Slack (posts 1/s per channel, edits 50/min)',
        value: String(slackLimited),
        ceiling: `${ctx.slack.calls.filter((call) => call.at >= sentAt && !rateLimited(call) && !call.method.startsWith('response_url:')).length} Web API calls`,
        goal: '= 0',
        pass: slackLimited === 0,
      },
    ];
  } finally {
    await Promise.all(children.map((child) => child.stop()));
  }
}
