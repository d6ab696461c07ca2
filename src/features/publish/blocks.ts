import type { KnownBlock } from '@slack/types';
import { packLines, section } from '../../slack/blocks.js';
import { codeSpan } from '../../slack/mrkdwn.js';
import { text } from '../../text/index.js';
import type { Step } from './plan.js';
import type { PublishOutcome } from './service.js';

const recordOf = (record: { name: string; type: string; value: string }) =>
  codeSpan(`${record.name} ${record.type} ${record.value}`);

/** One step of the plan; `nameservers` names the servers of a zone hosted elsewhere. */
export function stepLine(step: Step, nameservers: (zone: string) => string): string {
  const record = recordOf(step.record);
  switch (step.action) {
    case 'create':
      return text.publish.stepCreate({ record });
    case 'present':
      return text.publish.stepPresent({ record });
    case 'replace':
      return text.publish.stepReplace({
        record,
        old: recordOf({ ...step.stale, value: step.stale.data ?? '' }),
      });
    case 'blocked':
      return text.publish.stepBlocked({
        record,
        existing: step.existing.map((found) => recordOf({ ...found, value: found.data ?? '' })).join(', '),
      });
    case 'elsewhere':
      return text.publish.stepElsewhere({
        record,
        zone: codeSpan(step.zone),
        nameservers: nameservers(step.zone),
      });
  }
}

/**
 * What the presser is told: the plan where nothing was written (or why), or what was written. The
 * nameservers of a zone hosted elsewhere are the ones the resolvers report (`zoneServers`).
 */
export function outcomeMessage(
  certificateId: string,
  outcome: PublishOutcome,
  zoneServers: ReadonlyMap<string, readonly string[]> = new Map(),
): { text: string; blocks?: KnownBlock[] } {
  const id = codeSpan(certificateId);
  const nameservers = (zone: string) => {
    const hosts = zoneServers.get(zone) ?? [];
    return hosts.length === 0 ? text.diagnostics.factsNone : hosts.map(codeSpan).join(', ');
  };
  switch (outcome.kind) {
    case 'not-ours':
      return { text: text.publish.notOurs({ id }) };
    case 'not-pending':
      return { text: text.publish.notPending({ id, status: codeSpan(outcome.status) }) };
    case 'read-only':
      return { text: text.publish.readOnlyKey };
    case 'not-offered':
      return { text: text.publish.notOffered };
    case 'partial':
      return { text: text.publish.partial({ id, written: outcome.written, reason: outcome.reason }) };
    case 'plan': {
      const why = outcome.steps.some((step) => step.action === 'blocked')
        ? text.publish.blockedNothingWritten
        : text.publish.elsewhereNothingWritten;
      const lines = outcome.steps.map((step) => stepLine(step, nameservers));
      return {
        text: why,
        blocks: [section(text.publish.planTitle({ id })), ...packLines(lines).slice(0, 20), section(why)],
      };
    }
    case 'written': {
      const present = outcome.steps.filter((step) => step.action === 'present').length;
      const said =
        outcome.written === 0 && outcome.steps.every((step) => step.action === 'present')
          ? text.publish.allPresent({ id })
          : text.publish.written({ id, count: outcome.written, present });
      return { text: said, blocks: [section(said)] };
    }
  }
}
