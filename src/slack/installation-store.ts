import type { Authorize } from '@slack/bolt';
import type { Installation, InstallationQuery, InstallationStore } from '@slack/oauth';
import { releaseOwn } from '../shared/lua.js';
import type { KeySpace, Redis } from '../shared/redis.js';
import { type WorkspaceRef, workspaceId } from '../shared/workspace.js';
import type { Vault } from '../vault/store.js';

/**
 * Installations are per workspace. Org-wide (Enterprise Grid) deployment is off in manifest.yml
 * (`org_deploy_enabled: false`): every workspace of a grid installs Regdesk itself, with its own
 * registrar key and policy, so an org-wide install is refused rather than stored somewhere no
 * workspace's key, policy or audit trail would follow it.
 */
export function installationRef(query: {
  teamId?: string | undefined;
  enterpriseId?: string | undefined;
  isEnterpriseInstall?: boolean;
}): WorkspaceRef {
  if (query.isEnterpriseInstall === true) {
    throw new Error(
      'org-wide (Enterprise Grid) installation is not supported: install Regdesk in each workspace',
    );
  }
  if (query.teamId === undefined) throw new Error('installation query names no team');
  return { teamId: query.teamId, enterpriseId: query.enterpriseId };
}

/**
 * Slack installations (OAuth mode) kept in the vault like every other secret (docs/requirements.md R26): the
 * whole installation, tokens included, is sealed under the workspace and record kind.
 */
export class VaultInstallationStore implements InstallationStore {
  constructor(private readonly vault: Vault) {}

  async storeInstallation<AuthVersion extends 'v1' | 'v2'>(
    installation: Installation<AuthVersion, boolean>,
  ): Promise<void> {
    const ref = installationRef({
      teamId: installation.team?.id,
      enterpriseId: installation.enterprise?.id,
      isEnterpriseInstall: installation.isEnterpriseInstall === true,
    });
    await this.vault.put(
      ref,
      'slack-installation',
      JSON.stringify(installation),
      `oauth:${installation.user.id}`,
    );
  }

  async fetchInstallation(query: InstallationQuery<boolean>): Promise<Installation<'v1' | 'v2', boolean>> {
    const stored = await this.vault.get(installationRef(query), 'slack-installation');
    if (stored === undefined) throw new Error(`no installation for ${workspaceId(installationRef(query))}`);
    return JSON.parse(stored) as Installation<'v1' | 'v2', boolean>;
  }

  async deleteInstallation(query: InstallationQuery<boolean>): Promise<void> {
    await this.vault.delete(installationRef(query), 'slack-installation');
  }
}

/** Bolt refreshes a rotating token when it expires within two hours (InstallProvider.authorize). */
const REFRESH_WINDOW_MS = 2 * 60 * 60 * 1000;
const LOCK_TTL_MS = 15_000;

/**
 * docs/requirements.md R26: a refresh token can be used once, so two processes refreshing one workspace at the
 * same time would lose its installation. When a refresh is due, authorization takes a per-workspace
 * Redis lock; otherwise it runs unlocked.
 */
export function serializedRefresh(
  authorize: Authorize<boolean>,
  store: VaultInstallationStore,
  redis: Redis,
  keys: KeySpace,
  now: () => number = Date.now,
): Authorize<boolean> {
  return async (source, body) => {
    const query = {
      teamId: source.teamId,
      enterpriseId: source.enterpriseId,
      isEnterpriseInstall: source.isEnterpriseInstall,
    };
    let installation: Installation | undefined;
    try {
      installation = await store.fetchInstallation(query as InstallationQuery<boolean>);
    } catch {
      return authorize(source, body); // Bolt reports the missing installation itself.
    }
    const expiresAt = installation.bot?.expiresAt;
    if (expiresAt === undefined || expiresAt * 1000 - now() > REFRESH_WINDOW_MS)
      return authorize(source, body);

    const lock = keys.key(`ws:${workspaceId(installationRef(query))}`, 'token-refresh-lock');
    const token = `${process.pid}-${Math.random()}`;
    const deadline = now() + LOCK_TTL_MS;
    while ((await redis.set(lock, token, 'PX', LOCK_TTL_MS, 'NX')) === null) {
      if (now() > deadline) throw new Error('timed out waiting for a token refresh in another process');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    try {
      return await authorize(source, body);
    } finally {
      // Release only our own lock (it may have expired and been taken by another process).
      await releaseOwn(redis, lock, token);
    }
  };
}
