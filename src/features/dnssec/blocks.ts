import type { KnownBlock } from '@slack/types';
import type { DnssecRecord, DnssecState } from '../../registrar/index.js';
import { displayName } from '../../shared/domain-names.js';
import { context, header, packLines, section, slackDate } from '../../slack/blocks.js';
import { codeSpan, escapeMrkdwn } from '../../slack/mrkdwn.js';
import { markup, text } from '../../text/index.js';

function recordLine(record: DnssecRecord): string {
  const parts = [
    record.kind.toUpperCase(),
    record.key_tag,
    record.flags,
    record.algorithm,
    record.digest_type,
    record.digest ?? record.public_key?.slice(0, 40),
  ];
  return codeSpan(parts.filter((part) => part !== undefined).join(' '));
}

/** A `…_at` field as epoch seconds, milliseconds or ISO text, in ms; undefined when it is not a time. */
function timeOf(key: string, value: unknown): number | undefined {
  if (!key.endsWith('_at')) return undefined;
  if (typeof value === 'number') return value < 1e11 ? value * 1000 : value;
  if (typeof value === 'string' && !Number.isNaN(Date.parse(value))) return Date.parse(value);
  return undefined;
}

/**
 * The pending job's inner shape is not shown by the spec: its scalar fields are listed as they come,
 * times (`settle_at` …) as `<!date^…>` (docs/requirements.md R32).
 */
function pendingLine(job: Record<string, unknown>): string {
  const fields = Object.entries(job)
    .filter(([, value]) => ['string', 'number', 'boolean'].includes(typeof value))
    .slice(0, 6)
    .map(([key, value]) => {
      const at = timeOf(key, value);
      return `${escapeMrkdwn(key)}: ${at === undefined ? escapeMrkdwn(String(value)) : slackDate(at)}`;
    });
  return fields.length > 0
    ? text.dns.pendingTransitionWith({ fields: markup(fields.join(', ')) })
    : text.dns.pendingTransition;
}

export function dnssecCard(domain: string, state: DnssecState): { text: string; blocks: KnownBlock[] } {
  const title = text.dns.dnssecTitle({ name: displayName(domain), state: state.dnssec_state });
  const caps = state.capabilities;
  const blocks: KnownBlock[] = [
    header(title),
    {
      type: 'section',
      fields: [
        {
          type: 'mrkdwn',
          text: text.dns.dnssecStateField({ state: text.dns.dnssecState({ state: state.dnssec_state }) }),
        },
        { type: 'mrkdwn', text: text.dns.dnssecModeField({ mode: escapeMrkdwn(state.mode ?? 'none') }) },
        {
          type: 'mrkdwn',
          text: text.dns.dnssecDesiredField({
            state: text.dns.dnssecState({ state: state.desired_state ?? '?' }),
          }),
        },
        {
          type: 'mrkdwn',
          text: text.dns.dnssecLiveField({ state: text.dns.dnssecState({ state: state.live_state ?? '?' }) }),
        },
        {
          type: 'mrkdwn',
          text: text.dns.serviceNameserversField({
            value: state.using_regfish_nameservers === true ? text.dns.yes : text.dns.no,
          }),
        },
        {
          type: 'mrkdwn',
          text: text.dns.zoneSignedField({ value: state.zone_signed === true ? text.dns.yes : text.dns.no }),
        },
      ],
    },
  ];
  if (state.pending_job !== undefined && state.pending_job !== null)
    blocks.push(section(pendingLine(state.pending_job)));
  const desired = state.desired_records.map(recordLine);
  const live = state.live_records.map(recordLine);
  blocks.push(
    ...packLines([
      text.dns.desiredRecordsHeading({ count: desired.length }),
      ...desired,
      text.dns.liveRecordsHeading({ count: live.length }),
      ...live,
    ]),
  );
  if (caps !== undefined) {
    blocks.push(
      context(
        text.dns.acceptedRecords({
          kinds: caps.accepted_record_kinds.map((k) => k.toUpperCase()).join(', ') || '?',
          algorithms: caps.accepted_algorithms.join(', ') || '?',
          min: caps.min_records ?? '?',
          provider: escapeMrkdwn(caps.provider ?? '?'),
        }),
      ),
    );
  }
  return { text: escapeMrkdwn(title), blocks };
}
