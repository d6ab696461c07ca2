import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Queue } from 'bullmq';
import type { Config } from '../config.js';
import type { Sandbox } from '../sandbox/index.js';
import type { Logger } from '../shared/logger.js';
import type { WorkspaceRef } from '../shared/workspace.js';
import { PlaygroundActions } from './actions.js';

export { completeDemoZones, type PlaygroundDns, startPlaygroundDns } from './dns/index.js';

import { PlaygroundToken } from './guard.js';
import { packageRoot, readManifest } from './manifest.js';
import { RegistrarPanel } from './registrar.js';
import { PlaygroundServer } from './server.js';
import { SlackEventSender } from './slack-events.js';
import { SlackStandIn, WORKSPACE } from './slack-standin.js';
import { seedWorkspace } from './workspace.js';

/** Calls the stand-in remembers in a long-running playground (tests keep all of theirs). */
const KEEP_CALLS = 500;

export interface PlaygroundSlack {
  standIn: SlackStandIn;
  /** The Slack settings this process runs with instead of any configured ones. */
  slack: Config['slack'];
  stop(): Promise<void>;
}

/**
 * Starts the playground's Slack: the stand-in on loopback, seeded with the playground's workspace,
 * and Slack settings for HTTP single-workspace mode pointing at it, with a fresh signing secret and
 * bot token for this process. Regdesk then runs exactly as against a real workspace.
 */
export async function startPlaygroundSlack(): Promise<PlaygroundSlack> {
  const standIn = new SlackStandIn();
  standIn.keepCalls = KEEP_CALLS;
  // As Slack does: the Web API answers only with the bot token (and the stand-in refuses browsers).
  const botToken = `xoxb-playground-${randomBytes(16).toString('hex')}`;
  standIn.botToken = botToken;
  seedWorkspace(standIn);
  await standIn.start('127.0.0.1');
  return {
    standIn,
    slack: {
      mode: 'http-single',
      signingSecret: randomBytes(32).toString('hex'),
      botToken,
      apiUrl: standIn.apiUrl,
    },
    stop: () => standIn.stop(),
  };
}

export interface PlaygroundOptions {
  playgroundSlack: PlaygroundSlack;
  /** Regdesk's own HTTP front, where the playground posts as Slack does. */
  regdeskUrl: () => string;
  /** The embedded registrar simulator, when this process runs one. */
  sandbox?: Sandbox;
  /** The followers' queue: moving the simulator's clock wakes them. */
  followQueue?: Pick<Queue, 'getDelayed'>;
  /** Regdesk forgets what it knew of a member's language (the page's language switch). */
  forgetLanguage?: (workspace: WorkspaceRef, user: string) => Promise<void>;
  logger: Logger;
}

export interface Playground {
  /** The page's address with this process's token, as start-up prints it (docs/requirements.md R42). */
  pageUrl(port: number): string;
  /** The HTTP front's extra routes: `/` and `/playground/*`. */
  handle(req: IncomingMessage, res: ServerResponse, path: string): Promise<boolean>;
  close(): void;
}

export function createPlayground(options: PlaygroundOptions): Playground {
  const { standIn, slack } = options.playgroundSlack;
  const { forgetLanguage } = options;
  const manifest = readManifest();
  const sender = new SlackEventSender(options.regdeskUrl, slack.signingSecret ?? '');
  const registrar = new RegistrarPanel(options.sandbox, options.followQueue, options.logger);
  // Fresh for every process: a URL printed by an earlier run opens nothing.
  const token = new PlaygroundToken();
  const server = new PlaygroundServer({
    token,
    slack: standIn,
    actions: new PlaygroundActions(standIn, sender, manifest),
    registrar,
    manifest,
    root: packageRoot(),
    ...(forgetLanguage === undefined
      ? {}
      : { languageChanged: (user: string) => forgetLanguage({ teamId: WORKSPACE }, user) }),
  });
  return {
    pageUrl: (port) => `http://localhost:${port}/playground?token=${token.value}`,
    handle: (req, res, path) => server.handle(req, res, path),
    close: () => {
      server.close();
      registrar.close();
    },
  };
}
