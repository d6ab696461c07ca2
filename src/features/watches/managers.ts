import type { WebClient } from '@slack/web-api';
import type { WorkspaceRef } from '../../shared/workspace.js';
import { codeSpan } from '../../slack/mrkdwn.js';
import { markup, text } from '../../text/index.js';
import type { AuditLog } from '../audit/service.js';
import type { Roles } from '../policy/permissions.js';
import type { PolicyStore } from '../policy/policy.js';
import { itemName } from './blocks.js';
import type { DigestSettings, WatchItem } from './store.js';

export interface ManagerDeps {
  roles: Pick<Roles, 'isAdmin'>;
  policies: Pick<PolicyStore, 'get'>;
  audit: Pick<AuditLog, 'append'>;
}

/**
 * What a person may change of the workspace's watches (security review item 4): removing a watch
 * silences its alerts, and the digest settings decide where every alert goes, so the policy's
 * `watchManagers` decides. `all`: the policy says anyone, or the person is an admin (a workspace admin
 * or owner, or a Regdesk admin of the policy; `Roles.isAdmin`, which denies when Slack cannot tell).
 * `own`: only what they added themselves, and the settings only if they saved the ones in force.
 * A policy that cannot be read is the strictest one (policy.ts), so this fails closed.
 */
export async function management(
  deps: ManagerDeps,
  client: WebClient,
  workspace: WorkspaceRef,
  user: string,
): Promise<'all' | 'own'> {
  const policy = await deps.policies.get(workspace);
  if (policy.watchManagers === 'anyone') return 'all';
  return (await deps.roles.isAdmin(client, workspace, user)) ? 'all' : 'own';
}

/** Why `user` may not remove these watches: they were added by others. */
export function removalRefusal(refused: readonly WatchItem[]): string {
  const items = refused
    .slice(0, 20)
    .map((item) => text.watches.removalRefusedItem({ name: codeSpan(itemName(item)), addedBy: item.addedBy }))
    .join(', ');
  return text.watches.removalRefused({ items: markup(items), more: Math.max(0, refused.length - 20) });
}

/** Whether `user` may save the digest settings, and why not. */
export async function maySaveSettings(
  deps: ManagerDeps,
  client: WebClient,
  workspace: WorkspaceRef,
  user: string,
  current: DigestSettings | undefined,
): Promise<{ allowed: true } | { allowed: false; reason: string }> {
  // Nobody saved settings yet: whoever does first becomes their "adder", as with a watch.
  if (current === undefined || current.setBy === user) return { allowed: true };
  if ((await management(deps, client, workspace, user)) === 'all') return { allowed: true };
  const reason =
    current.setBy === undefined
      ? text.watches.settingsRefused
      : text.watches.settingsRefusedBySaver({ setBy: current.setBy });
  await deps.audit.append(workspace, {
    action: 'refuse',
    actor: user,
    operation: 'watch settings',
    outcome: reason,
  });
  return { allowed: false, reason };
}
