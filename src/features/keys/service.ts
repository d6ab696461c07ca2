import type { WebClient } from '@slack/web-api';
import { AppError } from '../../shared/app-error.js';
import type { WorkspaceRef } from '../../shared/workspace.js';
import { text } from '../../text/index.js';
import type { Vault } from '../../vault/store.js';
import type { AuditLog } from '../audit/service.js';

/** The registrar's verdict on a key: a code, worded by the modal (text.workspace). */
export type KeyCheckResult = { ok: true } | { ok: false; reason: 'rejected' | 'unreachable' };

/** Asks the registrar whether a key is accepted, at no cost to any limited quota. */
export type KeyCheck = (apiKey: string) => Promise<KeyCheckResult>;

/** Who may change a workspace's key: its admins and owners, or a Regdesk admin of its policy. */
export type KeyAdminCheck = (client: WebClient, workspace: WorkspaceRef, user: string) => Promise<boolean>;

export type KeyStatus =
  | { state: 'set'; masked: string; updatedBy: string; updatedAt: number; readable: boolean }
  | { state: 'sandbox' }
  | { state: 'missing' };

export class NoApiKeyError extends AppError {
  constructor() {
    super('regdesk_no_api_key', () => text.workspace.noApiKey);
  }
}

export class UnreadableApiKeyError extends AppError {
  constructor(cause: unknown) {
    super('regdesk_unreadable_api_key', () => text.workspace.unreadableApiKey, { cause });
  }
}

/**
 * Each workspace's registrar key: where every registrar call gets its key (from the workspace of the
 * verified Slack request), and how admins set, replace and remove it. In sandbox mode a workspace
 * without a key of its own uses the sandbox's demo key, so a fresh install can be tried at once.
 */
export class WorkspaceKeys {
  constructor(
    private readonly vault: Vault,
    private readonly audit: AuditLog,
    private readonly check: KeyCheck,
    private readonly sandboxKey?: string,
  ) {}

  async apiKeyFor(ref: WorkspaceRef): Promise<string> {
    let stored: string | undefined;
    try {
      stored = await this.vault.get(ref, 'registrar-key');
    } catch (error) {
      throw new UnreadableApiKeyError(error);
    }
    if (stored !== undefined) return stored;
    if (this.sandboxKey !== undefined) return this.sandboxKey;
    throw new NoApiKeyError();
  }

  /**
   * The workspace's key known only by its fingerprint (a keyed hash, `Vault.fingerprint`): per-key
   * quota windows (docs/registrar-api.md §8) and the assistant's account queue are named by it, so
   * neither the key nor anything a guessed key can be checked against is in Redis (R18).
   */
  async keyHashFor(ref: WorkspaceRef): Promise<string> {
    return this.vault.fingerprint(await this.apiKeyFor(ref));
  }

  async status(ref: WorkspaceRef): Promise<KeyStatus> {
    const entry = await this.vault.describe(ref, 'registrar-key');
    if (entry !== undefined) {
      return {
        state: 'set',
        masked: entry.masked,
        updatedBy: entry.updatedBy,
        updatedAt: entry.updatedAt,
        readable: entry.readable,
      };
    }
    return this.sandboxKey === undefined ? { state: 'missing' } : { state: 'sandbox' };
  }

  /** Checks the key with the registrar first; stores it only when accepted. */
  async set(ref: WorkspaceRef, apiKey: string, actor: string): Promise<KeyCheckResult> {
    const result = await this.check(apiKey);
    if (!result.ok) return result;
    const replaced = (await this.vault.describe(ref, 'registrar-key')) !== undefined;
    await this.vault.put(ref, 'registrar-key', apiKey, actor);
    await this.audit.append(ref, { action: replaced ? 'key_replace' : 'key_set', actor });
    return result;
  }

  async remove(ref: WorkspaceRef, actor: string): Promise<boolean> {
    const removed = await this.vault.delete(ref, 'registrar-key');
    if (removed) await this.audit.append(ref, { action: 'key_remove', actor });
    return removed;
  }
}
