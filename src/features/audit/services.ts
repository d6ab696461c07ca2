import type { Logger } from '../../shared/logger.js';
import { APPROVAL_STATE_OF_ACTION, type Metrics } from '../../shared/metrics.js';
import type { KeySpace, Redis } from '../../shared/redis.js';
import { AuditLog } from './service.js';

export interface AuditServiceDeps {
  redis: Redis;
  keys: KeySpace;
  logger: Logger;
  metrics: Pick<Metrics, 'approvals' | 'approvalReminders'>;
  /** How many audit entries a workspace keeps. */
  retention: number;
}

/** The audit trail, which also counts approvals and writes every entry to the log. */
export function buildAuditLog(deps: AuditServiceDeps): AuditLog {
  const { logger, metrics } = deps;
  // Each approval transition is audited exactly once, so the audit is where approvals are counted.
  return new AuditLog(deps.redis, deps.keys, deps.retention, (entry) => {
    const state = APPROVAL_STATE_OF_ACTION[entry.action];
    if (entry.requestId !== undefined && state !== undefined) metrics.approvals.inc({ state });
    if (entry.action === 'remind') metrics.approvalReminders.inc();
    // docs/requirements.md R40: the trail is also in the log, which outlives a Redis that loses or
    // rolls back its data. Entries hold ids and hashes only, never a secret (R12).
    logger.info({ audit: entry }, 'audit');
  });
}
