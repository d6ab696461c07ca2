import type { RegistrarClient } from '../../registrar/index.js';
import type { WorkspaceRef } from '../../shared/workspace.js';
import type { Vault } from '../../vault/store.js';
import type { AuditLog } from '../audit/service.js';
import { registrarKeyCheck } from './check.js';
import { WorkspaceKeys } from './service.js';

export interface KeyServiceDeps {
  vault: Vault;
  audit: AuditLog;
  /** A registrar client for a key, or for a key read when a request is made. */
  clientFor: (apiKey: string | (() => Promise<string>)) => RegistrarClient;
  /** The sandbox's demo key, used by workspaces without a key of their own (sandbox mode only). */
  sandboxKey?: string | undefined;
}

export interface KeyServices {
  workspaceKeys: WorkspaceKeys;
  /** The registrar client of a workspace, with the workspace's own key. */
  registrarFor(workspace: WorkspaceRef): RegistrarClient;
}

/** Workspace keys, checked against the registrar before they are stored, and each workspace's client. */
export function buildKeyServices(deps: KeyServiceDeps): KeyServices {
  const workspaceKeys = new WorkspaceKeys(
    deps.vault,
    deps.audit,
    registrarKeyCheck(deps.clientFor),
    deps.sandboxKey,
  );
  return {
    workspaceKeys,
    registrarFor: (workspace) => deps.clientFor(() => workspaceKeys.apiKeyFor(workspace)),
  };
}
