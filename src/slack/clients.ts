import { InstallProvider } from '@slack/oauth';
import type { WebClient } from '@slack/web-api';
import type { Config } from '../config.js';
import type { KeySpace, Redis } from '../shared/redis.js';
import type { WorkspaceRef } from '../shared/workspace.js';
import type { Vault } from '../vault/store.js';
import { serializedRefresh, VaultInstallationStore } from './installation-store.js';
import type { WebClients } from './web-clients.js';

/**
 * Web API clients for work that runs outside a Slack request (queue workers): the bot token of the
 * single workspace, or of the workspace's stored installation in OAuth mode.
 *
 * With token rotation on (docs/requirements.md R26) an OAuth installation's bot token lasts 12 hours.
 * Every token a worker uses comes through the same place as a Slack request's: @slack/oauth's
 * `InstallProvider.authorize`, which refreshes a token that expires within two hours and stores the new
 * pair, wrapped in the per-workspace Redis lock (`serializedRefresh`) that keeps two processes from
 * spending one single-use refresh token. A quiet night therefore never leaves alerts, digests or
 * followers with a dead token. The clients are the process's few, shared with the Slack requests
 * (slack/web-clients.ts), each call carrying the workspace's token: nothing is kept per workspace.
 */
export class SlackClients {
  readonly #authorize: ((ref: WorkspaceRef) => Promise<string>) | undefined;

  constructor(
    private readonly slack: Config['slack'],
    readonly webClients: WebClients,
    vault: Vault | undefined,
    shared: { redis: Redis; keys: KeySpace },
  ) {
    if (slack.mode !== 'http-oauth' || slack.oauth === undefined || vault === undefined) return;
    const store = new VaultInstallationStore(vault);
    const installer = new InstallProvider({
      clientId: slack.oauth.clientId,
      clientSecret: slack.oauth.clientSecret,
      stateSecret: slack.oauth.stateSecret,
      installationStore: store,
      clientOptions: webClients.options,
    });
    const authorize = serializedRefresh(
      (source) => installer.authorize(source),
      store,
      shared.redis,
      shared.keys,
    );
    this.#authorize = async (ref) => {
      const source = { teamId: ref.teamId, enterpriseId: ref.enterpriseId, isEnterpriseInstall: false };
      const result = await authorize(source as Parameters<typeof authorize>[0], undefined as never);
      if (result.botToken === undefined) throw new Error(`no installation for workspace ${ref.teamId}`);
      return result.botToken;
    };
  }

  async forWorkspace(ref: WorkspaceRef): Promise<WebClient> {
    return this.webClients.forToken(await this.#token(ref));
  }

  async #token(ref: WorkspaceRef): Promise<string> {
    if (this.slack.mode !== 'http-oauth' && this.slack.botToken !== undefined) return this.slack.botToken;
    if (this.#authorize === undefined) throw new Error('no Slack token for background work');
    return this.#authorize(ref);
  }
}
