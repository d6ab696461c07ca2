import { type Child, residentMb, startRegdesk } from '../lib/children.js';
import { type BenchContext, keyPrefix, regdeskEnv, sleep, startSandbox } from '../lib/context.js';
import { judged, type Row } from '../lib/report.js';

/** Start-up is over when the process listens; timers, pools and lazy imports settle shortly after. */
const SETTLE_MS = 3_000;
const BUDGET_MB = { start: 100, web: 80 } as const;

/**
 * Idle resident memory of `regdesk start` (front and workers) and `regdesk web` (front only), each
 * started fresh and left alone, as an operator sizing a container would see them.
 */
export async function idleMemory(ctx: BenchContext): Promise<Row[]> {
  const { sandbox } = await startSandbox(ctx, {});
  const children: Child[] = [];
  try {
    const roles = ['start', 'web'] as const;
    const started = await Promise.all(
      roles.map((role) =>
        startRegdesk(
          ctx.runtime,
          role,
          regdeskEnv(ctx, sandbox, keyPrefix(ctx, `mem-${role}`)),
          `regdesk ${role} (idle)`,
        ),
      ),
    );
    children.push(...started);
    await sleep(SETTLE_MS);
    return roles.map((role, i) => {
      const child = started[i];
      const rss = child === undefined ? Number.NaN : residentMb(child.pid);
      const budget = BUDGET_MB[role];
      return judged(
        `Idle RSS, regdesk ${role} (${SETTLE_MS / 1000} s after listening)`,
        `${rss.toFixed(1)} MB`,
        `${budget} MB budget`,
        rss / budget,
        '<=',
        1,
      );
    });
  } finally {
    await Promise.all(children.map((child) => child.stop()));
  }
}
