import type { InstallationQuery } from '@slack/oauth';
import { WebClient, type WebClientOptions } from '@slack/web-api';
import type { Config } from '../config.js';
import type { WorkspaceRef } from '../shared/workspace.js';
import type { Vault } from '../vault/store.js';
import { VaultInstallationStore } from './installation-store.js';

/**
 * Web API clients for work that runs outside a Slack request (queue workers): the bot token of the
 * single workspace, or of the workspace's stored installation in OAuth mode.
 */
export class SlackClients {
  readonly #clients = new Map<string, WebClient>();
  readonly #store: VaultInstallationStore | undefined;

  constructor(
    private readonly slack: Config['slack'],
    private readonly options: WebClientOptions,
    vault: Vault | undefined,
  ) {
    this.#store = vault === undefined ? undefined : new VaultInstallationStore(vault);
  }

  async forWorkspace(ref: WorkspaceRef): Promise<WebClient> {
    const token = await this.#token(ref);
    let client = this.#clients.get(token);
    if (client === undefined) {
      client = new WebClient(token, this.options);
      this.#clients.set(token, client);
    }
    return client;
  }

  async #token(ref: WorkspaceRef): Promise<string> {
    if (this.slack.mode !== 'http-oauth' && this.slack.botToken !== undefined) return this.slack.botToken;
    if (this.#store === undefined) throw new Error('no Slack token for background work');
    // A workspace's own installation first, then its Enterprise Grid org-wide installation.
    const queries: InstallationQuery<boolean>[] = [
      { teamId: ref.teamId, enterpriseId: ref.enterpriseId, isEnterpriseInstall: false },
    ];
    if (ref.enterpriseId !== undefined) {
      queries.push({ teamId: undefined, enterpriseId: ref.enterpriseId, isEnterpriseInstall: true });
    }
    for (const query of queries) {
      try {
        const installation = await this.#store.fetchInstallation(query);
        if (installation.bot?.token !== undefined) return installation.bot.token;
      } catch {
        // try the next form of installation
      }
    }
    throw new Error(`no installation for workspace ${ref.teamId}`);
  }
}
