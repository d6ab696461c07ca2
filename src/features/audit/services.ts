import type { AuditSettings } from '../../config.js';
import type { Logger } from '../../shared/logger.js';
import { APPROVAL_STATE_OF_ACTION, type Metrics } from '../../shared/metrics.js';
import type { KeySpace, Redis } from '../../shared/redis.js';
import { AuditOutbox, type SinkName } from './outbox.js';
import { AuditLog } from './service.js';
import type { AuditSink } from './sink.js';
import { syslogSink } from './syslog.js';
import { webhookSink } from './webhook.js';

export interface AuditServiceDeps {
  redis: Redis;
  keys: KeySpace;
  logger: Logger;
  metrics: Pick<Metrics, 'approvals' | 'approvalReminders' | 'observeAuditBacklog'>;
  /** Retention and sinks (AUDIT_RETENTION_DAYS, AUDIT_WEBHOOK_URL, AUDIT_SYSLOG). */
  settings: AuditSettings;
}

/** The sinks the settings configure, by the name of their consumer group. */
export function configuredSinks(settings: AuditSettings): SinkName[] {
  return [
    ...(settings.webhook === undefined ? [] : (['webhook'] as const)),
    ...(settings.syslog === undefined ? [] : (['syslog'] as const)),
  ];
}

/** The audit trail, which also counts approvals and writes every entry to the log. */
export function buildAuditLog(deps: AuditServiceDeps): AuditLog {
  const { logger, metrics } = deps;
  const sinks = configuredSinks(deps.settings);
  // Every process reports the outbox backlog, read from Redis: it shows even when no deliverer runs.
  if (sinks.length > 0) {
    const outbox = new AuditOutbox(deps.redis, deps.keys, sinks);
    metrics.observeAuditBacklog(() => outbox.backlog());
  }
  // Each approval transition is audited exactly once, so the audit is where approvals are counted.
  return new AuditLog(deps.redis, deps.keys, {
    ...deps.settings,
    observe: (entry) => {
      const state = APPROVAL_STATE_OF_ACTION[entry.action];
      if (entry.requestId !== undefined && state !== undefined) metrics.approvals.inc({ state });
      if (entry.action === 'remind') metrics.approvalReminders.inc();
      // docs/requirements.md R40: the trail is also in the log, which outlives a Redis that loses or
      // rolls back its data. Entries hold ids and hashes only, never a secret (R12).
      logger.info({ audit: entry }, 'audit');
    },
  });
}

/** The sinks the settings configure, ready to send (webhook.ts, syslog.ts). */
export function buildSinks(settings: AuditSettings): AuditSink[] {
  return [
    ...(settings.webhook === undefined ? [] : [webhookSink(settings.webhook)]),
    ...(settings.syslog === undefined ? [] : [syslogSink(settings.syslog)]),
  ];
}
