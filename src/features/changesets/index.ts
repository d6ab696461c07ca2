import type { WebClient } from '@slack/web-api';
import { createWorker } from '../../shared/queues.js';
import type { WorkspaceRef } from '../../shared/workspace.js';
import type { Languages } from '../../slack/language.js';
import type { FeatureModule } from '../feature.js';
import { type ApplyDeps, applyProcessor } from './apply.js';
import { type ZoneFileDeps, zoneCommand } from './commands.js';
import { changeSetFollower } from './follow.js';
import { applyChangeSet } from './operation.js';
import { CHANGESETS_QUEUE } from './store.js';
import { type ChangeSetViewDeps, registerChangeSetViews } from './views.js';

export type ChangeSetsDeps = ZoneFileDeps &
  Omit<ChangeSetViewDeps, 'logger'> & {
    slackFor(workspace: WorkspaceRef): Promise<WebClient>;
    languages: Languages;
    follow: ApplyDeps['follow'];
    limiter: ApplyDeps['limiter'];
    limits: ApplyDeps['limits'];
    keys: ApplyDeps['keys'];
    workspaceKeys: ApplyDeps['workspaceKeys'];
  };

/**
 * `/dns zone export|import DOMAIN`: zones as RFC 1035 master files, and change sets — one plan, one
 * approval, applied step by step by their own job, resumable, reported in the thread with Revert
 * (contract §3 "Change sets").
 */
export const changeSetsFeature = {
  name: 'changesets',
  operations: [applyChangeSet],
  followers: [changeSetFollower],
  register: (app, deps) => {
    // `/dns zone DOMAIN` stays the dns feature's: its subcommand is wrapped, not replaced.
    const summary = deps.router.registered('/dns').find((subcommand) => subcommand.name === 'zone');
    deps.router.add('/dns', zoneCommand(deps, summary));
    registerChangeSetViews(app, { ...deps, logger: deps.logger });
  },
  workers: (deps) => [
    ({ connection, keys, logger }) =>
      createWorker(
        CHANGESETS_QUEUE,
        applyProcessor({ ...deps, logger }),
        connection,
        keys,
        logger,
        // One set at a time per process: a zone's steps are written in order by one worker anyway.
        { concurrency: 1 },
      ),
  ],
} satisfies FeatureModule<ChangeSetsDeps>;
