import type { WebClient } from '@slack/web-api';
import type { Logger } from '../../shared/logger.js';
import type { WorkspaceRef } from '../../shared/workspace.js';
import type { Languages } from '../../slack/language.js';
import type { ChannelPoster } from '../../slack/poster.js';
import { digestMessage, FAILURES_BEFORE_REPORT } from './blocks.js';
import { deliver } from './deliver.js';
import type { WatchService } from './service.js';
import type { WatchStore } from './store.js';

export interface DigestDeps {
  service: WatchService;
  store: WatchStore;
  slackFor(workspace: WorkspaceRef): Promise<WebClient>;
  poster: ChannelPoster;
  /** The digest is for a channel: in the workspace's language, whoever asked for it. */
  languages: Pick<Languages, 'inWorkspaceLanguage'>;
  logger: Logger;
  now: () => number;
}

/** The digest as it stands: from what the looks saw (no registrar call), changes since the last one. */
export async function buildDigest(deps: DigestDeps, workspace: WorkspaceRef) {
  const now = deps.now();
  const [entries, coming, since] = await Promise.all([
    deps.service.list(workspace),
    deps.service.comingUp(workspace),
    deps.store.lastDigest(workspace),
  ]);
  // The first digest reports a week of changes at most.
  const changes = await deps.store.changesSince(workspace, since ?? now - 7 * 86_400_000);
  const failing = entries.filter((entry) => entry.state.failures >= FAILURES_BEFORE_REPORT);
  // Certificates `/domain watch all` found that Regdesk did not order, still watched.
  const foreign = await deps.store.foreign(workspace);
  const notOrderedHere = entries
    .filter((entry) => entry.item.kind === 'certificate' && foreign.has(entry.item.id))
    .map((entry) => entry.item.id);
  return digestMessage(coming, changes, failing, entries.length, now, notOrderedHere, entries);
}

/**
 * Posts the digest in the digest channel (or `fallback`, where `/domain watch digest` was typed
 * without one set). Scheduled runs without a channel do nothing: turning the channel off removes the
 * scheduler, and a run already queued then finds nothing to do. Returns where it went.
 */
export async function sendDigest(
  deps: DigestDeps,
  workspace: WorkspaceRef,
  options: { scheduled: boolean; fallback?: { channel: string; user: string } },
): Promise<{ channel?: string; where: 'channel' | 'dm' | 'nowhere' }> {
  const settings = await deps.store.settings(workspace);
  const channel = settings?.channel ?? options.fallback?.channel;
  if (
    channel === undefined ||
    (options.scheduled && (settings?.channel === undefined || settings.cadence === 'off'))
  )
    return { where: 'nowhere' };
  const who = options.fallback?.user ?? settings?.setBy;
  const client = await deps.slackFor(workspace);
  const where = await deps.languages.inWorkspaceLanguage(workspace, async () =>
    deliver(deps, client, channel, who, await buildDigest(deps, workspace)),
  );
  if (where !== 'nowhere') await deps.store.setLastDigest(workspace, deps.now());
  return { channel, where };
}
