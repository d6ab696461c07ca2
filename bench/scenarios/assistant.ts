import { BOT_USER, type SlackCall } from '../../src/playground/slack-standin.js';
import { burnCpus, type Child, startRegdesk } from '../lib/children.js';
import {
  type BenchContext,
  keyPrefix,
  regdeskEnv,
  sleep,
  startSandbox,
  TEAM,
  waitFor,
} from '../lib/context.js';
import { ARRIVAL_JITTER_MS, BURNERS, type Round } from '../lib/load.js';
import { judged, type Row, seconds } from '../lib/report.js';
import { delivered, rateLimited, textOf } from '../lib/slack-calls.js';
import { JSON_TYPE, mentionEvent, postSigned } from '../lib/slack-requests.js';

const KEY_LIMIT = { max: 4, windowMs: 3_000 };
/** Not the bench's subject: roomy enough never to bind for the three rounds and the warm-ups (38 questions). */
const ACCOUNT_LIMIT = { max: 100, windowMs: 600_000 };
const ANSWER_MS = 300;
const QUESTIONS = 12;
const CHANNELS = 3;
const PROCESSES = 2;
const SLACK_MS = 1_000;
/** Issue #29: a quiet round, then two with CPU burners beside Regdesk. */
const ROUNDS: readonly Round[] = [
  { busy: false, utilisation: 0.9 },
  { busy: true, utilisation: 0.85 },
  { busy: true, utilisation: 0.85 },
];

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
 * Assistant throughput, three rounds (quiet, then two with CPU burners beside it): 12 people mention
 * the bot in 3 channels at once, the deliveries split over two `regdesk start` processes (front and
 * workers each) sharing one key and one Redis. The registrar (sandbox) allows 4 questions per 3 s per
 * key, counts each on arrival (up to 50 ms after it was sent) and answers in 300 ms, one at a time;
 * Regdesk is told the same limit. An answer is the thread reply that mentions its asker.
 */
export async function assistantThroughput(ctx: BenchContext): Promise<Row[]> {
  const limits = { assistantKey: KEY_LIMIT, assistantAccount: ACCOUNT_LIMIT };
  const { sandbox, log } = await startSandbox(ctx, {
    limits,
    delays: { assistantAnswerMs: ANSWER_MS, arrivalJitterMs: ARRIVAL_JITTER_MS },
  });
  const env = regdeskEnv(ctx, sandbox, keyPrefix(ctx, 'assist'), limits);
  const children: Child[] = [];
  try {
    children.push(
      ...(await Promise.all(
        Array.from({ length: PROCESSES }, (_, i) =>
          startRegdesk(ctx.runtime, 'start', env, `regdesk start #${i + 1}`),
        ),
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
    const warmedFrom = Date.now();
    await Promise.all(warmers.map((user, i) => mention(user, 'CWARM', 100 + i, i)));
    await waitFor('warm-up answers', 30_000, () =>
      warmers.every((user) =>
        ctx.slack.calls.some(
          (call) =>
            call.at >= warmedFrom &&
            delivered(call) &&
            ((call.method === 'chat.postMessage' && textOf(call).startsWith(`<@${user}>`)) ||
              (call.method === 'chat.postEphemeral' && call.args.user === user)),
        ),
      ),
    );
    await sleep(KEY_LIMIT.windowMs + 500);

    const rows: Row[] = [];
    const slackBefore = ctx.slack.pacing?.limitedCount() ?? 0;
    const firstSentAt = Date.now();
    for (const [index, round] of ROUNDS.entries()) {
      const burners = round.busy ? burnCpus(BURNERS) : undefined;
      try {
        rows.push(...(await askRound(index + 1, round)));
      } finally {
        await burners?.stop();
      }
      // Each round starts from a full quota, as the first did.
      await sleep(KEY_LIMIT.windowMs + 500);
    }
    const slackLimited = (ctx.slack.pacing?.limitedCount() ?? 0) - slackBefore;
    rows.push({
      measure: `Assistant: 429 from Slack over the ${ROUNDS.length} rounds (posts 1/s per channel, edits 50/min)`,
      value: String(slackLimited),
      ceiling: `${ctx.slack.calls.filter((call) => call.at >= firstSentAt && !rateLimited(call) && !call.method.startsWith('response_url:')).length} Web API calls`,
      goal: '= 0',
      pass: slackLimited === 0,
    });
    return rows;

    async function askRound(n: number, round: Round): Promise<Row[]> {
      const askers = Array.from({ length: QUESTIONS }, (_, i) => `UASK${n}${String(i).padStart(2, '0')}`);
      const logBefore = log.length;
      const sentAt = Date.now();
      const acks = await Promise.all(
        askers.map((user, i) => mention(user, `CASK${i % CHANNELS}`, n * 1000 + i + 1, i % PROCESSES)),
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
      const outcomes = await waitFor(`${QUESTIONS} outcomes in their threads`, 90_000, () => {
        const found = askers.map(outcomeOf);
        return found.every((call) => call !== undefined) ? (found as SlackCall[]) : undefined;
      }).catch((error: unknown) => {
        if (process.env.BENCH_VERBOSE === '1') {
          const since = ctx.slack.calls.filter((call) => call.at >= sentAt);
          process.stderr.write(
            `assistant round ${n}: no outcome for ${askers.filter((user) => outcomeOf(user) === undefined).join(' ')}; ` +
              `registrar calls ${log
                .slice(logBefore)
                .map((c) => `${c.operation}:${c.status}`)
                .join(' ')}; ` +
              `Slack calls ${since.map((c) => `${c.method}:${textOf(c).slice(0, 40)}`).join(' | ')}\n`,
          );
        }
        throw error;
      });
      const answered = outcomes.filter((call) => !textOf(call).includes(':x: No answer'));
      const lastAt = Math.max(...outcomes.map((call) => call.at));
      const measured = lastAt - sentAt;
      const floor = limitFloor(QUESTIONS, KEY_LIMIT.max, KEY_LIMIT.windowMs, ANSWER_MS);

      const asked = log.slice(logBefore).filter((call) => call.operation === 'assistant.search');
      const refused = asked.filter((call) => call.status === 429 || call.status === 503).length;
      // Where the time went: the registrar's last answer versus the last post in Slack.
      const searched = asked.filter((call) => call.status === 200);
      const registrarDone = Math.max(sentAt, ...searched.map((call) => call.at)) - sentAt;
      // What Slack's posting rule adds: every answer posted within a second of the registrar's last.
      const inTime = answered.filter((call) => call.at - sentAt <= registrarDone + SLACK_MS).length;
      if (process.env.BENCH_VERBOSE === '1') {
        const rel = (at: number) => ((at - sentAt) / 1000).toFixed(2);
        process.stderr.write(
          `assistant round ${n}: registrar answers at ${searched.map((c) => rel(c.at)).join(' ')} s\n`,
        );
        process.stderr.write(
          `assistant round ${n}: outcomes posted at ${outcomes.map((c) => rel(c.at)).join(' ')} s\n`,
        );
      }
      const label = `round ${n} (${round.busy ? `${BURNERS} CPU burners beside it` : 'quiet'})`;
      return [
        // The limit's pace is the registrar's: its last answer against the floor. What Slack's own
        // posting rule (1/s per channel) adds on top is judged by the quiet round's next row.
        judged(
          `Assistant ${label}: limit used, ${QUESTIONS} questions, ${CHANNELS} channels, ${PROCESSES} processes, ${KEY_LIMIT.max}/${KEY_LIMIT.windowMs / 1000} s`,
          `registrar done at ${seconds(registrarDone)} (last answer posted at ${seconds(measured)})`,
          `${seconds(floor)} limit floor`,
          floor / registrarDone,
          '>=',
          round.utilisation,
        ),
        ...(round.busy
          ? []
          : [
              judged(
                `Assistant ${label}: answered within 1 s of the registrar's last answer`,
                `${inTime} of ${QUESTIONS}`,
                `${QUESTIONS} by ${seconds(registrarDone + SLACK_MS)}`,
                inTime / QUESTIONS,
                '>=',
                1,
              ),
            ]),
        {
          measure: `Assistant ${label}: 429/503 from the registrar (counting on arrival, ≤ ${ARRIVAL_JITTER_MS} ms on the way)`,
          value: String(refused),
          ceiling: `${asked.length} calls`,
          goal: '= 0',
          pass: refused === 0 && answered.length === QUESTIONS,
        },
      ];
    }
  } finally {
    await Promise.all(children.map((child) => child.stop()));
  }
}
