import type { DnsRecord } from '../../registrar/index.js';
import { slackDate } from '../../slack/blocks.js';
import { text } from '../../text/index.js';
import { defineOperation, type RegistrarContext } from '../approvals/operations.js';
import type { RecordChange } from '../records/changes.js';
import { refusal, writable } from '../records/make.js';
import { planLines, planText, scheduledMessage } from './blocks.js';
import { type DnsPaceDeps, pacedDns } from './pace.js';
import { ChangeSetParams } from './params.js';
import { isLarge } from './plan.js';
import type { ChangeSets } from './store.js';

/** The records a step leaves behind, as the next step's rules see them (ids of new records unknown: 0). */
export function afterStep(records: readonly DnsRecord[], step: RecordChange): DnsRecord[] {
  switch (step.kind) {
    case 'add':
      return [...records, { id: 0, ...step.after }];
    case 'edit':
      return records.map((record) => (record.id === step.id ? { ...record, ...step.after } : record));
    case 'delete':
      return records.filter((record) => record.id !== step.id);
  }
}

/**
 * Why the set cannot be applied to `records`, step by step on the zone as each earlier step leaves it
 * (every rule of single record changes holds per record, contract §3), or undefined.
 */
export function firstRefusal(records: readonly DnsRecord[], params: ChangeSetParams): string | undefined {
  let zone = [...records];
  for (const step of params.steps) {
    const refused = refusal(zone, { domain: params.domain, change: step, by: params.by });
    if (refused !== undefined) return refused;
    zone = afterStep(zone, step);
  }
  return undefined;
}

/** The TTL a cutover lowers the records it changes or deletes to (the registrar's minimum). */
export const CUTOVER_TTL = 60;

type Paced = Awaited<ReturnType<typeof pacedDns>>;

/**
 * Lowers each record an edit or delete step will touch to `CUTOVER_TTL`, returning the TTL each had
 * (by record id). A record already at or below it is left as it is.
 */
async function lowerTtls(
  registrar: Pick<Paced, 'updateRecord'>,
  steps: readonly RecordChange[],
): Promise<Record<string, number>> {
  const lowered: Record<string, number> = {};
  for (const step of steps) {
    if (step.kind === 'add' || step.before.ttl <= CUTOVER_TTL || lowered[String(step.id)] !== undefined)
      continue;
    await registrar.updateRecord(step.id, writable({ ...step.before, ttl: CUTOVER_TTL }));
    lowered[String(step.id)] = step.before.ttl;
  }
  return lowered;
}

const counts = (params: ChangeSetParams) => ({
  creates: params.steps.filter((step) => step.kind === 'add').length,
  changes: params.steps.filter((step) => step.kind === 'edit').length,
  deletes: params.steps.filter((step) => step.kind === 'delete').length,
});

/**
 * A change set (contract §3 "Change sets"): one request for many record changes, class `record`; a
 * set that changes or deletes more than 30 % of a zone of 10 records or more needs one approval more.
 * Approved, it is applied by its own job (apply.ts), step by step, resumable, reported in the thread.
 */
export const applyChangeSet = defineOperation<
  RegistrarContext & { changeSets: ChangeSets } & DnsPaceDeps,
  'dns.changeset',
  ChangeSetParams
>({
  name: 'dns.changeset',
  actionClass: 'record',
  schema: ChangeSetParams,
  summary: (p) =>
    p.revertOf === undefined
      ? text.changesets.summary({ domain: p.domain, ...counts(p) })
      : text.changesets.summaryRevert({ domain: p.domain, of: p.revertOf }),
  target: (p) => p.domain,
  extraApprovals: (p) =>
    isLarge({ steps: p.steps, unchanged: p.unchanged, manageable: p.manageable }) ? 1 : 0,
  preview: async ({ registrar }, p) => {
    const blocker = firstRefusal(await registrar.dns.records(p.domain), p);
    const lines = planLines(p);
    return {
      details: lines.shown,
      ...(lines.more > 0
        ? {
            attachment: {
              filename: `${p.domain}-changeset-plan.txt`,
              title: text.changesets.planFileTitle({ domain: p.domain }),
              content: planText(p),
            },
          }
        : {}),
      ...(blocker === undefined ? {} : { blocker }),
    };
  },
  // Each step is checked again when it is applied, on the zone as it is then (apply.ts).
  precheck: async () => undefined,
  execute: async (ctx, p) => {
    const { changeSets, workspace, thread, now } = ctx;
    // Paced like the apply job's calls: a set's reads and writes all count against the DNS window.
    const registrar = await pacedDns(ctx, ctx.registrar, workspace);
    const before = await registrar.records(p.domain);
    const run = {
      domain: p.domain,
      steps: p.steps,
      by: p.by,
      ...(thread === undefined ? {} : { thread }),
      ...(p.revertOf === undefined ? {} : { revertOf: p.revertOf }),
      before,
    };
    if (p.applyAt === undefined) {
      await changeSets.start(workspace, run);
      return { outcome: text.changesets.applying({ steps: p.steps.length }) };
    }
    // A cutover: the old records' TTLs are lowered now, and it applies at its time but not before
    // their old TTLs have run out since, so no resolver still holds an answer from before.
    const lowered = p.lowerTtls === true ? await lowerTtls(registrar, p.steps) : {};
    const longest = Math.max(0, ...Object.values(lowered));
    const startAt = Math.max(p.applyAt, now + longest * 1000);
    const scheduled = await changeSets.start(workspace, { ...run, applyAt: startAt, lowered }, startAt, now);
    return {
      outcome: text.changesets.scheduledOutcome({
        at: slackDate(startAt),
        lowered: Object.keys(lowered).length,
      }),
      offer: scheduledMessage(scheduled),
    };
  },
});
