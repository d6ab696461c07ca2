import type { Logger } from '../../shared/logger.js';
import type { KeySpace, Redis } from '../../shared/redis.js';
import type { WorkspaceRef } from '../../shared/workspace.js';
import type { AuditLog } from '../audit/service.js';
import {
  type DocumentError,
  documentOf,
  notYetEnforced,
  parsePolicyYaml,
  policyOf,
  policyYaml,
} from './document.js';
import { PolicyStore } from './policy.js';
import { policyChange } from './view.js';

/** How a policy was read, as a YAML comment above it (the document itself stays what rules apply). */
const STATE_NOTE = {
  default: 'never saved: the defaults apply',
  saved: 'as saved',
  repaired: 'saved, but some fields were out of range or unknown: they hold their strictest values',
  unreadable: 'saved, but it cannot be read: the strictest policy applies until an admin saves one',
} as const;

/**
 * `regdesk policy get --team T…`: the workspace's policy as one YAML document, version 2 (contract §1,
 * §3 "Policy"), a policy saved by `/domain policy` included.
 */
export async function policyGet(
  redis: Redis,
  keys: KeySpace,
  logger: Logger,
  workspace: WorkspaceRef,
  out: (text: string) => void,
): Promise<void> {
  const read = await new PolicyStore(redis, keys, logger).read(workspace);
  const team = `${workspace.enterpriseId === undefined ? '' : `${workspace.enterpriseId}/`}${workspace.teamId}`;
  out(`# Regdesk policy of ${team}: ${STATE_NOTE[read.state]}\n${policyYaml(documentOf(read.policy))}`);
}

/**
 * `regdesk policy set --team T… FILE`: the document validated in full — every error named with its
 * path, and nothing saved then — else saved, and the change audited with each field before and after.
 * What Regdesk does not enforce yet is an error too (document.ts `notYetEnforced`): never saved to no
 * effect.
 */
export async function policySet(
  deps: { redis: Redis; keys: KeySpace; logger: Logger; audit: AuditLog },
  workspace: WorkspaceRef,
  source: string,
  actor: string,
): Promise<{ ok: true; change: string } | { ok: false; errors: DocumentError[] }> {
  const parsed = parsePolicyYaml(source);
  if (!parsed.ok) return parsed;
  const unsupported = notYetEnforced(parsed.document);
  if (unsupported.length > 0) return { ok: false, errors: unsupported };
  const store = new PolicyStore(deps.redis, deps.keys, deps.logger);
  const before = await store.read(workspace);
  const after = policyOf(parsed.document);
  const change = policyChange(before.state === 'unreadable' ? undefined : before.policy, after);
  await store.set(workspace, after);
  await deps.audit.append(workspace, { action: 'policy_change', actor, detail: change });
  return { ok: true, change };
}
