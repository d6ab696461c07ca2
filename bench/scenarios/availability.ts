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
import { textOf } from '../lib/slack-calls.js';
import { FORM, postSigned, slashCommand } from '../lib/slack-requests.js';

const LIMIT = { max: 5, windowMs: 2_000 };
const NAMES = 20;
const PROCESSES = 2;
/** Issue #29: quiet, then with two CPU-burning processes beside Regdesk. */
const ROUNDS: readonly Round[] = [
  { busy: false, utilisation: 0.95 },
  { busy: true, utilisation: 0.9 },
];

/**
 * `/domain check` throughput against the registrar's availability limit: two `regdesk start`
 * processes share one key and one Redis, two people check 10 names each at the same moment, one on
 * each process. The ceiling is what the limit itself allows: the last of 20 names can be asked no
 * sooner than (⌈20/5⌉ − 1) windows after the first. Measured from the first command sent to the last
 * final answer on a response_url (after one warmed-up check per process); the sandbox enforces the
 * same limit, counts each check on arrival (up to 50 ms after it was sent) and must never answer 429.
 * Twice: quiet, then with two CPU-burning processes beside it.
 */
export async function availability(ctx: BenchContext): Promise<Row[]> {
  const { sandbox, log } = await startSandbox(ctx, {
    limits: { availability: LIMIT },
    delays: { arrivalJitterMs: ARRIVAL_JITTER_MS },
  });
  const prefix = keyPrefix(ctx, 'avail');
  const children: Child[] = [];
  try {
    const env = regdeskEnv(ctx, sandbox, prefix, { availability: LIMIT });
    children.push(
      ...(await Promise.all(
        Array.from({ length: PROCESSES }, (_, i) =>
          startRegdesk(ctx.runtime, 'start', env, `regdesk start #${i + 1}`),
        ),
      )),
    );
    const perProcess = NAMES / PROCESSES;
    /** One `/domain check` per process at once, each answered on the response_url `tag-<i>`. */
    const checkOnEach = (tag: string, namesOf: (i: number) => string[]) =>
      Promise.all(
        children.map((child, i) =>
          postSigned(
            child.port,
            ctx.secret,
            slashCommand({
              team: TEAM,
              command: '/domain',
              text: `check ${namesOf(i).join(' ')}`,
              user: `UAVAIL${i}`,
              channel: 'CAVAIL',
              responseUrl: ctx.slack.responseUrl(`${tag}-${i}`),
            }),
            FORM,
          ),
        ),
      );
    // The final answer of each process's check is the one that no longer says "Checking…".
    const finalsOf = (tag: string, timeoutMs: number) =>
      waitFor(`the checks ${tag}`, timeoutMs, () => {
        const found = children.map((_, i) =>
          ctx.slack.calls.find(
            (call) =>
              call.method === `response_url:${tag}-${i}` &&
              !textOf(call).startsWith('Availability: Checking'),
          ),
        );
        return found.every((call) => call !== undefined) ? found : undefined;
      });

    // Warm-up, as in the ack and assistant scenarios: a fresh process's first check pays for JIT
    // compilation, the Public Suffix List's loading and the first key read, which a long-running one
    // does not. One name per process, answered, then the window left to empty for the measured 20.
    await checkOnEach(`avail-warm-${ctx.runId}`, (i) => [`rdwarm${ctx.runId}n${i}.com`]);
    await finalsOf(`avail-warm-${ctx.runId}`, 30_000);
    await sleep(LIMIT.windowMs + 500);
    const rows: Row[] = [];
    for (const round of ROUNDS) {
      const burners = round.busy ? burnCpus(BURNERS) : undefined;
      try {
        rows.push(...(await checkRound(round)));
      } finally {
        await burners?.stop();
      }
      await sleep(LIMIT.windowMs + 500);
    }
    return rows;

    async function checkRound(round: Round): Promise<Row[]> {
      const tag = `avail-${round.busy ? 'busy' : 'quiet'}-${ctx.runId}`;
      const names = Array.from(
        { length: NAMES },
        (_, i) => `rd${round.busy ? 'busy' : 'quiet'}${ctx.runId}n${i}.com`,
      );
      const logBefore = log.length;
      const sentAt = Date.now();
      const acks = await checkOnEach(tag, (i) => names.slice(i * perProcess, (i + 1) * perProcess));
      if (acks.some((ack) => ack.status !== 200))
        throw new Error(`a check was not acked: ${acks.map((a) => a.status)}`);
      const finals = await finalsOf(tag, 60_000);
      const lastAt = Math.max(...finals.map((call) => call?.at ?? Number.NaN));
      const measured = lastAt - sentAt;
      const ceiling = (Math.ceil(NAMES / LIMIT.max) - 1) * LIMIT.windowMs;
      const unchecked = finals.reduce(
        (sum, call) =>
          sum + Number(/(\d+) could not be checked/.exec(call === undefined ? '' : textOf(call))?.[1] ?? 0),
        0,
      );
      const asked = log.slice(logBefore).filter((call) => call.operation === 'domains.availability');
      const limited = asked.filter((call) => call.status === 429).length;
      if (process.env.BENCH_VERBOSE === '1') {
        const rel = (at: number) => ((at - sentAt) / 1000).toFixed(2);
        process.stderr.write(`${tag}: registrar answers at ${asked.map((c) => rel(c.at)).join(' ')} s\n`);
        process.stderr.write(
          `${tag}: finals posted at ${finals.map((c) => rel(c?.at ?? sentAt)).join(' ')} s\n`,
        );
      }
      const label = round.busy ? `${BURNERS} CPU burners beside it` : 'quiet';
      return [
        judged(
          `Availability (${label}): ${NAMES} names, ${PROCESSES} processes, ${LIMIT.max}/${LIMIT.windowMs / 1000} s`,
          seconds(measured),
          `${seconds(ceiling)} limit`,
          ceiling / measured,
          '>=',
          round.utilisation,
        ),
        {
          measure: `Availability (${label}): 429 from the registrar (counting on arrival, ≤ ${ARRIVAL_JITTER_MS} ms on the way) / names not checked`,
          value: `${limited} × 429, ${unchecked} unchecked`,
          ceiling: `${asked.length} calls`,
          goal: '= 0',
          pass: limited === 0 && unchecked === 0,
        },
      ];
    }
  } finally {
    await Promise.all(children.map((child) => child.stop()));
  }
}
