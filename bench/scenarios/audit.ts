import { Redis } from 'ioredis';
import { AuditLog } from '../../src/features/audit/service.js';
import { KeySpace } from '../../src/shared/redis.js';
import { type Child, startRegdesk } from '../lib/children.js';
import { type BenchContext, keyPrefix, regdeskEnv, startSandbox, TEAM } from '../lib/context.js';
import { judged, ms, percentile, type Row } from '../lib/report.js';
import { FORM, postSigned, slashCommand } from '../lib/slack-requests.js';

const SMALL = 100;
const LARGE = 100_000;
/** Requests per trail, alternating between the two so both see the same machine. */
const SAMPLES = 200;
const GOAL = 1.1;
/** Appends handed to the AuditLog at once while seeding (it writes them one after another: a chain). */
const SEED_BATCH = 500;

/**
 * `/domain audit` against a trail of 100 entries and one of 100,000 (issue #29): two `regdesk start`
 * processes, one per trail, asked in turn, so the two medians come from the same minutes of the same
 * machine. The answer is the command's ack (audit/commands.ts), so the figure is the ack's time. The
 * trails are written with Regdesk's own `AuditLog`, as the approvals and key changes write them.
 */
export async function auditScale(ctx: BenchContext): Promise<Row[]> {
  const { sandbox } = await startSandbox(ctx, {});
  const redis = new Redis(ctx.redisUrl, { maxRetriesPerRequest: 3 });
  const children: Child[] = [];
  try {
    const trails = [
      { entries: SMALL, prefix: keyPrefix(ctx, 'audit-s') },
      { entries: LARGE, prefix: keyPrefix(ctx, 'audit-l') },
    ];
    for (const trail of trails) {
      // Appends of one AuditLog run one at a time per chain (each links to the one before it), so
      // seeding takes longer than the requests it prepares; what is measured is unchanged.
      const audit = new AuditLog(redis, new KeySpace(trail.prefix), { retentionDays: 400 });
      for (let done = 0; done < trail.entries; done += SEED_BATCH) {
        await Promise.all(
          Array.from({ length: Math.min(SEED_BATCH, trail.entries - done) }, (_, i) =>
            audit.append(
              { teamId: TEAM },
              {
                action: 'request',
                actor: 'UBENCH',
                operation: 'domain.authcode',
                target: `bench${(done + i) % 997}.example`,
                requestId: `apr_${done + i}`,
              },
            ),
          ),
        );
      }
    }
    const streamKey = (prefix: string) => new KeySpace(prefix).key(`ws:-:${TEAM}`, 'audit');
    const large = trails[1]?.prefix ?? '';
    const bytes = Number(await redis.call('MEMORY', 'USAGE', streamKey(large), 'SAMPLES', '0'));
    const stored = await redis.xlen(streamKey(large));

    for (const trail of trails) {
      const env = { ...regdeskEnv(ctx, sandbox, trail.prefix), AUDIT_RETENTION_DAYS: '400' };
      children.push(await startRegdesk(ctx.runtime, 'start', env, `regdesk start (audit ${trail.entries})`));
    }
    const ask = async (child: Child, n: number) => {
      const answer = await postSigned(
        child.port,
        ctx.secret,
        slashCommand({
          team: TEAM,
          command: '/domain',
          text: 'audit',
          user: 'U0001',
          channel: 'CAUDIT',
          responseUrl: ctx.slack.responseUrl(`audit-${ctx.runId}-${child.pid}-${n}`),
        }),
        FORM,
      );
      if (answer.status !== 200) throw new Error(`/domain audit answered ${answer.status}`);
      return answer.ms;
    };
    // Warm-up: the role check's first users.info, JIT and pools are not steady state.
    for (const child of children) for (let i = 0; i < 5; i++) await ask(child, -i - 1);
    const samples: number[][] = [[], []];
    for (let i = 0; i < SAMPLES; i++) {
      for (const which of i % 2 === 0 ? [0, 1] : [1, 0]) {
        const child = children[which];
        if (child !== undefined) samples[which]?.push(await ask(child, i));
      }
    }
    const [small = [], largeSamples = []] = samples;
    const p50 = { small: percentile(small, 0.5), large: percentile(largeSamples, 0.5) };
    return [
      judged(
        `Audit: /domain audit with ${LARGE.toLocaleString('en')} entries (p50 of ${SAMPLES})`,
        ms(p50.large),
        `${ms(p50.small)} with ${SMALL} entries`,
        p50.large / p50.small,
        '<=',
        GOAL,
      ),
      {
        measure: 'Audit: Redis bytes per entry (MEMORY USAGE of the stream / entries)',
        value: `${(bytes / stored).toFixed(1)} B`,
        ceiling: `${(bytes / 1024 / 1024).toFixed(1)} MB for ${stored.toLocaleString('en')} entries`,
        goal: 'info',
      },
    ];
  } finally {
    await Promise.all(children.map((child) => child.stop()));
    redis.disconnect();
  }
}
