import type { Logger } from '../../shared/logger.js';
import type { KeySpace, Redis } from '../../shared/redis.js';
import type { WorkspaceRef } from '../../shared/workspace.js';
import { documentOf, policyYaml } from './document.js';
import { PolicyStore } from './policy.js';

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
