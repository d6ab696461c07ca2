import type { DnsRecord } from '../../registrar/index.js';
import { text } from '../../text/index.js';
import { defineOperation, type RegistrarContext } from '../approvals/operations.js';
import type { RecordChange } from '../records/changes.js';
import { refusal } from '../records/make.js';
import { planLines, planText } from './blocks.js';
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
  RegistrarContext & { changeSets: ChangeSets },
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
  execute: async ({ registrar, changeSets, workspace, thread }, p) => {
    await changeSets.start(workspace, {
      domain: p.domain,
      steps: p.steps,
      by: p.by,
      ...(thread === undefined ? {} : { thread }),
      ...(p.revertOf === undefined ? {} : { revertOf: p.revertOf }),
      before: await registrar.dns.records(p.domain),
    });
    return { outcome: text.changesets.applying({ steps: p.steps.length }) };
  },
});
