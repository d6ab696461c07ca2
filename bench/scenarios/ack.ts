import { join } from 'node:path';
import { type Child, LISTENING, repoRoot, startNode, startRegdesk } from '../lib/children.js';
import { type BenchContext, keyPrefix, regdeskEnv, startSandbox, TEAM, waitFor } from '../lib/context.js';
import { judged, ms, percentile, type Row } from '../lib/report.js';
import { FORM, postSigned, slashCommand } from '../lib/slack-requests.js';

const CONCURRENT = 100;
const ROUNDS = 3;
const WARM_UP = 20;
const P50_GOAL = 1.5;
const P99_GOAL = 2.0;

/**
 * Ack latency: bursts of 100 concurrent signed `/domain info example.com` against a real `regdesk
 * start`, interleaved round by round with a bare signature-checking server, so both see the same
 * machine at the same moment. Between Regdesk bursts the bench waits for the look-ups' answers on the
 * response_urls, so one burst's background work does not land on the next one's acks.
 */
export async function ackLatency(ctx: BenchContext): Promise<Row[]> {
  const { sandbox } = await startSandbox(ctx, {});
  const children: Child[] = [];
  try {
    const regdesk = await startRegdesk(ctx.runtime, 'start', regdeskEnv(ctx, sandbox, keyPrefix(ctx, 'ack')));
    children.push(regdesk);
    const bareEnv = { PATH: process.env.PATH ?? '', SLACK_SIGNING_SECRET: ctx.secret, PORT: '0' };
    const bare = await startNode(
      ctx.runtime,
      'bare server',
      join(repoRoot(), 'dist', 'bench', 'bare-server.js'),
      [],
      bareEnv,
      LISTENING,
    );
    children.push(bare);

    const samples = { regdesk: [] as number[], bare: [] as number[] };
    const refused = { regdesk: 0, bare: 0 };
    const burst = async (target: 'regdesk' | 'bare', tag: string, count: number, record: boolean) => {
      const port = target === 'regdesk' ? regdesk.port : bare.port;
      const bodies = Array.from({ length: count }, (_, i) =>
        slashCommand({
          team: TEAM,
          command: '/domain',
          text: 'info example.com',
          user: 'UACK',
          channel: 'CACK',
          responseUrl: ctx.slack.responseUrl(`${tag}-${i}`),
        }),
      );
      const answers = await Promise.all(bodies.map((body) => postSigned(port, ctx.secret, body, FORM)));
      if (!record) return;
      for (const answer of answers) {
        if (answer.status === 200) samples[target].push(answer.ms);
        else refused[target]++;
      }
    };
    const answered = (tag: string, count: number) =>
      waitFor(`${count} look-up answers (${tag})`, 30_000, () => {
        const prefix = `response_url:${tag}-`;
        return ctx.slack.calls.filter((call) => call.method.startsWith(prefix)).length >= count;
      });

    // Warm-up: JIT, connection pools, auth.test and the first registrar key read are not steady state.
    await burst('regdesk', 'ack-warm', WARM_UP, false);
    await burst('bare', 'ack-warm-bare', WARM_UP, false);
    await answered('ack-warm', WARM_UP);

    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 === 0 ? (['regdesk', 'bare'] as const) : (['bare', 'regdesk'] as const);
      for (const target of order) {
        const tag = `ack-${target}-${round}`;
        await burst(target, tag, CONCURRENT, true);
        if (target === 'regdesk') await answered(tag, CONCURRENT);
      }
    }

    if (process.env.BENCH_VERBOSE === '1') {
      for (const target of ['regdesk', 'bare'] as const) {
        const cuts = [0.1, 0.5, 0.9, 0.95, 0.99, 1].map((q) => ms(percentile(samples[target], q)));
        process.stderr.write(`ack: ${target} p10/p50/p90/p95/p99/max ${cuts.join(' / ')}\n`);
      }
    }
    const p50 = { regdesk: percentile(samples.regdesk, 0.5), bare: percentile(samples.bare, 0.5) };
    const p99 = { regdesk: percentile(samples.regdesk, 0.99), bare: percentile(samples.bare, 0.99) };
    const n = `${ROUNDS}×${CONCURRENT}`;
    return [
      judged(
        `Ack p50, ${n} concurrent /domain info`,
        `${ms(p50.regdesk)} regdesk`,
        `${ms(p50.bare)} bare`,
        p50.regdesk / p50.bare,
        '<=',
        P50_GOAL,
      ),
      judged(
        `Ack p99, ${n} concurrent /domain info`,
        `${ms(p99.regdesk)} regdesk`,
        `${ms(p99.bare)} bare`,
        p99.regdesk / p99.bare,
        '<=',
        P99_GOAL,
      ),
      {
        measure: 'Ack: answers other than 200',
        value: `${refused.regdesk} regdesk`,
        ceiling: `${refused.bare} bare`,
        goal: '= 0',
        pass: refused.regdesk === 0 && refused.bare === 0,
      },
    ];
  } finally {
    await Promise.all(children.map((child) => child.stop()));
  }
}
