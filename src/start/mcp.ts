import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Config, McpSettings } from '../config.js';
import type { McpEndpoint } from '../features/mcp/index.js';
import type { PlaygroundSlack } from '../playground/index.js';
import type { Services } from '../services.js';
import type { StartContext } from './context.js';

/** The HTTP front's extra routes, tried in order. */
export type Routes = (req: IncomingMessage, res: ServerResponse, path: string) => Promise<boolean>;

/** Routes filled in once the front listens (the playground's MCP needs its port), none until then. */
export class LateRoutes {
  #routes: Routes[] = [];

  add(routes: Routes): void {
    this.#routes.push(routes);
  }

  readonly handle: Routes = async (req, res, path) => {
    for (const routes of this.#routes) if (await routes(req, res, path)) return true;
    return false;
  };
}

/**
 * The MCP endpoint (contract §3 "Agents (MCP)", docs/mcp.md): with REGDESK_PUBLIC_URL and the app's
 * client ID and secret; in the playground, against the stand-in's Sign in with Slack on this
 * process's own port, so a newcomer can connect an agent to it. Loaded only when served: the SDK and
 * express cost a process without agents nothing.
 */
export async function startMcp(
  ctx: StartContext,
  config: Config,
  services: Services,
  port: number,
  playgroundSlack: PlaygroundSlack | undefined,
): Promise<McpEndpoint | undefined> {
  const settings =
    config.mcp ?? (playgroundSlack === undefined ? undefined : playgroundSignIn(playgroundSlack, port));
  if (settings === undefined) return undefined;
  ctx.step('mcp');
  const { createMcpEndpoint } = await import('../features/mcp/index.js');
  const endpoint = await createMcpEndpoint({
    ...services,
    settings,
    slackApiUrl: config.slack.apiUrl,
  });
  ctx.say(`Agents (MCP): ${settings.publicUrl}/mcp (docs/mcp.md).`);
  return endpoint;
}

/** The playground's app credentials, fresh per process, which its stand-in checks as Slack would. */
function playgroundSignIn(playgroundSlack: PlaygroundSlack, port: number): McpSettings {
  const { signIn } = playgroundSlack.standIn;
  signIn.clientId = `${Date.now()}.${randomBytes(4).readUInt32BE()}`;
  signIn.clientSecret = randomBytes(16).toString('hex');
  return {
    publicUrl: `http://127.0.0.1:${port}`,
    authorizeUrl: playgroundSlack.standIn.authorizeUrl,
    clientId: signIn.clientId,
    clientSecret: signIn.clientSecret,
  };
}
