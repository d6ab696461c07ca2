import { createHash } from 'node:crypto';
import type { KnownBlock } from '@slack/types';
import type { Queue } from 'bullmq';
import type { DnsClient } from '../../dns/client.js';
import type { RegistrarClient } from '../../registrar/index.js';
import type { ServedProbe } from '../../served/probe.js';
import type { KeySpace, Redis } from '../../shared/redis.js';
import { type WorkspaceRef, workspaceFields } from '../../shared/workspace.js';

export const FOLLOW_QUEUE = 'follow';
const FIRST_CHECK_MS = 2_000;
const MAX_INTERVAL_MS = 10 * 60 * 1000;

/** The check schedule: about 2 s after the start, doubling each time, capped at 10 minutes. */
export function followDelay(attempt: number): number {
  return Math.min(MAX_INTERVAL_MS, FIRST_CHECK_MS * 2 ** attempt);
}

/**
 * One read of a followed resource: still pending, or what the thread is told and the settled card.
 * `next`: what to follow now, told in the same place (an issued certificate, then whether its names
 * serve it). `silent`: settled with nothing to tell (there was nothing to compare with).
 */
export type FollowOutcome =
  | { settled: false }
  | {
      settled: true;
      text: string;
      card: { text: string; blocks: KnownBlock[] };
      next?: { kind: string; resource: string };
    }
  | { settled: true; silent: true };

/**
 * What a check may use besides the registrar: the zone's own nameservers asked live (a record change
 * is settled when they serve it) and the state its feature kept about the work.
 */
export interface FollowTools {
  workspace: WorkspaceRef;
  dns: DnsClient;
  redis: Redis;
  keys: KeySpace;
  /** Which certificate a name serves (src/served), for following an issuance to its servers. */
  served: ServedProbe;
  now: () => number;
}

/**
 * What a feature supplies to have its pending work followed (certificates by tls, transitions by
 * dnssec): following itself knows no feature.
 */
export interface Follower<Kind extends string = string> {
  kind: Kind;
  /** How long the work may stay pending before Regdesk stops following and says so. */
  deadlineMs: number;
  /** The command a person runs to look at the resource, for the deadline message. */
  showCommand(resource: string): string;
  /** Is it settled? One registrar read, or one round of DNS questions. */
  check(registrar: RegistrarClient, resource: string, tools: FollowTools): Promise<FollowOutcome>;
}

/** Where a follower reports, and about whom. */
export interface Origin {
  /** A channel, or a user id for the person's DM with the bot. */
  channel: string;
  /** The message that started it; the outcome is told in its thread. Without one, in the channel itself. */
  threadTs?: string;
  /**
   * The origin message is the feature's own card, so the settled card may replace it. Any other
   * message (an approval request, say) is never overwritten.
   */
  ownCard?: boolean;
  /**
   * The feature's own card posted in the thread (an approved record change's Revert offer): the
   * settled card replaces it, so the thread holds one card with its buttons, not two.
   */
  cardTs?: string;
  /** Who started it: mentioned in the outcome, and told by DM when the origin cannot be posted to. */
  startedBy?: string;
}

/** Job data: ids and where to report; never a key, trigger_id or response_url (docs/requirements.md R2, R18). */
export interface FollowJob extends Origin {
  teamId: string;
  enterpriseId?: string;
  kind: string;
  /** The domain (DNSSEC) or certificate id being followed. */
  resource: string;
  deadline: number;
  attempt: number;
}

/** The deterministic job id of following `resource` in `workspace` (docs/requirements.md R16). */
function followJobId(kind: string, workspace: WorkspaceRef, resource: string): string {
  const digest = createHash('sha256')
    .update(`${workspace.enterpriseId ?? '-'}:${workspace.teamId}:${resource}`)
    .digest('hex');
  return `follow-${kind}-${digest.slice(0, 24)}`;
}

/**
 * One follower per resource however often it is asked for: the job id is derived from the workspace,
 * kind and resource, so BullMQ keeps a single job (docs/requirements.md R16). Following is a chain of
 * delayed jobs, not an in-process timer, so it survives restarts.
 */
export async function follow(
  queue: Queue<FollowJob>,
  follower: Pick<Follower, 'kind' | 'deadlineMs'>,
  workspace: WorkspaceRef,
  resource: string,
  origin: Origin,
  now: number,
): Promise<string> {
  const jobId = followJobId(follower.kind, workspace, resource);
  // A failed job is kept for days (R19) under the same id, and BullMQ would answer a new add with it:
  // it is over, so it makes way. A concurrent follow() may have replaced it already; then that one stands.
  const previous = await queue.getJob(jobId);
  if (previous !== undefined && (await previous.isFailed())) {
    await previous.remove().catch(() => undefined);
  }
  await queue.add(
    'follow',
    {
      ...workspaceFields(workspace),
      kind: follower.kind,
      resource,
      channel: origin.channel,
      ...(origin.threadTs === undefined ? {} : { threadTs: origin.threadTs }),
      ...(origin.ownCard === true ? { ownCard: true } : {}),
      ...(origin.cardTs === undefined ? {} : { cardTs: origin.cardTs }),
      ...(origin.startedBy === undefined ? {} : { startedBy: origin.startedBy }),
      deadline: now + follower.deadlineMs,
      attempt: 0,
    },
    // Removed once settled, so a later change of the same resource can be followed again.
    {
      jobId,
      delay: FIRST_CHECK_MS,
      removeOnComplete: true,
      attempts: 3,
      backoff: { type: 'exponential', delay: 5_000 },
    },
  );
  return jobId;
}
