import type { KnownBlock } from '@slack/types';
import type { WebClient } from '@slack/web-api';
import type { Job } from 'bullmq';
import type { DnsClient } from '../../dns/client.js';
import { type RegistrarClient, RegistrarError } from '../../registrar/index.js';
import type { ServedProbe } from '../../served/probe.js';
import { DelayedError } from '../../shared/bullmq.js';
import type { Logger } from '../../shared/logger.js';
import type { KeySpace, Redis } from '../../shared/redis.js';
import { type WorkspaceRef, workspaceFields } from '../../shared/workspace.js';
import { context, section, slackDate } from '../../slack/blocks.js';
import type { Languages } from '../../slack/language.js';
import { codeSpan, escapeMrkdwn } from '../../slack/mrkdwn.js';
import { slackRefusal } from '../../slack/platform-errors.js';
import type { ChannelPoster } from '../../slack/poster.js';
import { notifyByDm } from '../../slack/reply.js';
import { inLanguage, text } from '../../text/index.js';
import { type Follower, type FollowJob, type FollowOutcome, followDelay, type Origin } from './jobs.js';

export interface FollowDeps {
  /** Every feature's "is it settled?" check, by kind. */
  followers: readonly Follower[];
  registrarFor(workspace: WorkspaceRef): RegistrarClient;
  slackFor(workspace: WorkspaceRef): Promise<WebClient>;
  dnsClient: DnsClient;
  /** TLS_CHECK_PORTS' handshakes (src/served), for followers that ask what is served. */
  servedProbe: ServedProbe;
  /** Starts following what a settled outcome names next, reporting to the same origin. */
  follow(workspace: WorkspaceRef, kind: string, resource: string, origin: Origin): Promise<void>;
  redis: Redis;
  keys: KeySpace;
  poster: ChannelPoster;
  languages: Pick<Languages, 'ofPerson' | 'ofWorkspace'>;
  logger: Logger;
  now: () => number;
}

type Card = { text: string; blocks: KnownBlock[] };

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Checks once; reschedules itself with the backoff until settled or past the deadline. */
export function followProcessor(deps: FollowDeps) {
  const followers = new Map(deps.followers.map((follower) => [follower.kind, follower]));
  const check = checkOnce(deps, followers);
  return async (job: Job<FollowJob>, token?: string): Promise<void> => {
    const data = job.data;
    const workspace = workspaceFields(data);
    // Reports go where the work started: a channel hears the workspace's language, a DM its person's.
    const locale =
      isDirectMessage(data.channel) && data.startedBy !== undefined
        ? await deps.languages.ofPerson(await deps.slackFor(workspace), workspace, data.startedBy)
        : await deps.languages.ofWorkspace(workspace);
    await inLanguage(locale, () => check(job, token));
  };
}

/** A DM: its channel id (D…), or the person's own id, which posts to their DM with the bot (announce.ts). */
const isDirectMessage = (channel: string) => channel.startsWith('D') || channel.startsWith('U');

function checkOnce(deps: FollowDeps, followers: ReadonlyMap<string, Follower>) {
  return async (job: Job<FollowJob>, token?: string): Promise<void> => {
    const data = job.data;
    const follower = followers.get(data.kind);
    if (follower === undefined) throw new Error(`nothing follows ${data.kind}`);
    const workspace = workspaceFields(data);
    const report = (message: string, card?: Card) => tell(deps, workspace, data, message, card);

    let outcome: FollowOutcome;
    try {
      outcome = await follower.check(deps.registrarFor(workspace), data.resource, {
        workspace,
        dns: deps.dnsClient,
        redis: deps.redis,
        keys: deps.keys,
        served: deps.servedProbe,
        now: deps.now,
      });
    } catch (error) {
      // Not found or a rejected key will not fix itself: stop and say so. Anything else: try later.
      if (error instanceof RegistrarError && [400, 401, 403, 404].includes(error.status)) {
        await report(
          text.workspace.followStopped({
            resource: codeSpan(data.resource),
            reason: escapeMrkdwn(error.userMessage),
          }),
        );
        return;
      }
      deps.logger.warn({ resource: data.resource, err: errorText(error) }, 'follow check failed');
      outcome = { settled: false };
    }
    if (outcome.settled && 'silent' in outcome) return;
    if (outcome.settled) {
      // docs/requirements.md R32: the settled time is absolute, as the card outlives the moment.
      const card = {
        ...outcome.card,
        blocks: [
          ...outcome.card.blocks,
          context(text.workspace.followSettled({ when: slackDate(deps.now()) })),
        ],
      };
      const replaced = await replaceOwnCard(deps, workspace, data, card);
      await report(outcome.text, replaced ? undefined : card);
      if (outcome.next !== undefined) {
        const { kind, resource } = outcome.next;
        const { channel, threadTs, startedBy } = data;
        await deps.follow(workspace, kind, resource, {
          channel,
          ...(threadTs === undefined ? {} : { threadTs }),
          ...(startedBy === undefined ? {} : { startedBy }),
        });
      }
      return;
    }
    const next = deps.now() + followDelay(data.attempt + 1);
    if (next > data.deadline) {
      await report(
        text.workspace.followDeadline({
          resource: codeSpan(data.resource),
          deadline: slackDate(data.deadline),
          command: follower.showCommand(data.resource),
        }),
      );
      return;
    }
    await job.updateData({ ...data, attempt: data.attempt + 1 });
    await job.moveToDelayed(Date.now() + followDelay(data.attempt + 1), token);
    throw new DelayedError();
  };
}

/**
 * The settled card replaces the feature's own card only (the origin, or a card in its thread); an
 * approval request or anything else keeps its words. False when it was not replaced.
 */
async function replaceOwnCard(
  deps: FollowDeps,
  workspace: WorkspaceRef,
  data: FollowJob,
  card: Card,
): Promise<boolean> {
  const ts = data.cardTs ?? (data.ownCard === true ? data.threadTs : undefined);
  if (ts === undefined) return false;
  try {
    await deps.poster.update(await deps.slackFor(workspace), {
      channel: data.channel,
      ts,
      ...card,
    });
    return true;
  } catch (error) {
    deps.logger.warn({ err: errorText(error), slackError: slackRefusal(error) }, 'origin update failed');
    return false;
  }
}

/**
 * The outcome in the origin's thread (or the origin channel, a DM, when there is no thread), naming
 * who started it. Where Slack refuses that (the bot was removed, the channel archived), the starter
 * hears it by DM: the change happened and must reach them (docs/requirements.md R30).
 */
async function tell(
  deps: FollowDeps,
  workspace: WorkspaceRef,
  data: FollowJob,
  outcome: string,
  card: Card | undefined,
): Promise<void> {
  const client = await deps.slackFor(workspace);
  const said =
    data.startedBy === undefined
      ? outcome
      : text.workspace.followAddressed({ user: data.startedBy, text: outcome });
  const message = { text: said, blocks: [section(said), ...(card?.blocks ?? [])] };
  try {
    await deps.poster.post(client, {
      channel: data.channel,
      ...(data.threadTs === undefined ? {} : { thread_ts: data.threadTs }),
      ...message,
    });
  } catch (error) {
    // Anything but a Slack refusal (a network failure, say) is retried by the job's attempts.
    if (slackRefusal(error) === undefined) throw error;
    deps.logger.warn({ slackError: slackRefusal(error) }, 'follow outcome could not be posted');
    if (data.startedBy !== undefined) await notifyByDm(client, data.startedBy, message, deps.logger);
  }
}
