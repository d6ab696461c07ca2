import type { KnownBlock, View } from '@slack/types';
import { DNS_RECORD_TYPES, type DnsRecord } from '../../registrar/index.js';
import { displayName, reviewName } from '../../shared/domain-names.js';
import { button, context, formModal, packLines, section, slackDate } from '../../slack/blocks.js';
import { inputBlock, writeMetadata } from '../../slack/modal.js';
import { codeSpan, escapeMrkdwn, truncate } from '../../slack/mrkdwn.js';
import { text } from '../../text/index.js';
import type { MadeChange, RecordChange, RecordValue } from './changes.js';
import { RECORD_IDS, ROW_DELETE, ROW_EDIT } from './ids.js';
import { ModalTarget } from './targets.js';

/**
 * A record in zone-file order (name, TTL, type, priority, data), as approvers and the card show it:
 * whole (R10) for anything Regdesk writes (TXT data is at most 2,000 characters); only a longer record
 * made elsewhere is shortened, to fit one section with its label.
 */
export function recordText(value: RecordValue): string {
  const priority = value.priority === undefined ? '' : ` ${value.priority}`;
  return codeSpan(truncate(`${value.name} ${value.ttl} ${value.type}${priority} ${value.data}`, 2_900));
}

/** Before and after, each whole (R10: the approver sees exactly what will be written). */
export function changeLines(change: RecordChange): string[] {
  switch (change.kind) {
    case 'add':
      return [
        text.records.before({ record: text.records.nothing }),
        text.records.after({ record: recordText(change.after) }),
      ];
    case 'edit':
      return [
        text.records.before({ record: recordText(change.before) }),
        text.records.after({ record: recordText(change.after) }),
      ];
    case 'delete':
      return [
        text.records.before({ record: recordText(change.before) }),
        text.records.after({ record: text.records.nothing }),
      ];
  }
}

/** "add TXT record `_dmarc.example.de`": what will happen, in words; a revert says when the change it undoes was made. */
export function changeSummary(
  domain: string,
  change: RecordChange,
  revertOf?: string,
  revertOfMadeAt?: number,
): string {
  const value = change.kind === 'add' ? change.after : change.before;
  const words = {
    type: value.type,
    name: reviewName(value.name.replace(/\.$/, '')),
    // The name already shows its ASCII form, which ends in the zone's: the zone once, as people read it.
    zone: displayName(domain),
    ...(change.kind === 'add' ? {} : { id: change.id }),
  };
  const said =
    change.kind === 'add'
      ? text.records.summaryAdd(words)
      : change.kind === 'edit'
        ? text.records.summaryEdit({ ...words, id: change.id })
        : text.records.summaryDelete({ ...words, id: change.id });
  if (revertOf === undefined) return said;
  // Plain words, not a Slack date token: a summary is plain text that each surface escapes.
  return revertOfMadeAt === undefined
    ? text.records.summaryRevert({ change: revertOf, summary: said })
    : text.records.summaryRevertMade({
        change: revertOf,
        made: `${new Date(revertOfMadeAt).toISOString().slice(0, 16).replace('T', ' ')} UTC`,
        summary: said,
      });
}

/** Cached answers may outlive the change by this much: said as a duration and as the time it ends. */
export function cacheNote(cacheSeconds: number, from: number): string {
  return text.records.cachesMayHold({
    seconds: cacheSeconds,
    until: slackDate(from + cacheSeconds * 1000),
  });
}

/**
 * A change that was made: who, what before and after, and **Revert** (itself a change under the same
 * rules and policy). `served` once the zone's nameservers serve it.
 */
export function changeCard(
  made: MadeChange,
  served?: { nameservers: string[]; at: number },
): { text: string; blocks: KnownBlock[] } {
  // The summary holds zone text (record names): escaped, so a name like `<!channel>` stays words.
  const summary = escapeMrkdwn(changeSummary(made.domain, made.change, made.revertOf));
  const blocks: KnownBlock[] = [
    section(text.records.changeMade({ user: made.by, summary })),
    ...packLines(changeLines(made.change)),
  ];
  if (served !== undefined) {
    blocks.push(
      context(
        text.records.servedBy({ nameservers: served.nameservers.map(codeSpan).join(', ') }),
        cacheNote(made.cacheSeconds, served.at),
      ),
    );
  }
  blocks.push(context(text.records.changeKept({ id: made.id, when: slackDate(made.at) })), {
    type: 'actions',
    elements: [
      button(
        text.records.revertButton,
        RECORD_IDS.revert,
        made.id,
        undefined,
        text.records.revertLabel({ id: made.id }),
      ),
    ],
  });
  return { text: text.records.changeMade({ user: made.by, summary }), blocks };
}

/** The add/edit modal: the zone's records were read when it opened (the draft), so every rule is checked on submit. */
export function recordModal(target: ModalTarget, editing?: RecordValue): View {
  const zone = displayName(target.domain);
  const relative = editing === undefined ? '' : relativeName(editing.name, target.domain);
  const input = (initial: string | undefined, extra: Record<string, unknown> = {}) => ({
    type: 'plain_text_input',
    ...(initial === undefined || initial === '' ? {} : { initial_value: initial }),
    ...extra,
  });
  const typeBlock: KnownBlock =
    editing === undefined
      ? inputBlock(RECORD_IDS.type, text.records.typeLabel, {
          type: 'static_select',
          options: DNS_RECORD_TYPES.map((type) => ({
            text: { type: 'plain_text', text: type },
            value: type,
          })),
        })
      : section(text.records.editingType({ type: editing.type, id: target.recordId ?? 0 }));
  return formModal(
    RECORD_IDS.modal,
    writeMetadata(ModalTarget, target),
    editing === undefined ? text.records.addTitle : text.records.editTitle,
    editing === undefined ? text.records.addSubmit : text.records.editSubmit,
    [
      section(text.records.modalIntro({ zone: codeSpan(zone) })),
      typeBlock,
      inputBlock(RECORD_IDS.name, text.records.nameLabel, input(relative, { max_length: 253 }), {
        optional: true,
        hint: text.records.nameHint({ zone }),
      }),
      inputBlock(RECORD_IDS.data, text.records.dataLabel, input(editing?.data, { max_length: 2_000 }), {
        hint: text.records.dataHint,
      }),
      inputBlock(
        RECORD_IDS.ttl,
        text.records.ttlLabel,
        input(String(editing?.ttl ?? ''), { max_length: 6 }),
        {
          optional: true,
          hint: text.records.ttlHint,
        },
      ),
      inputBlock(
        RECORD_IDS.priority,
        text.records.priorityLabel,
        input(editing?.priority === undefined ? undefined : String(editing.priority), { max_length: 5 }),
        { optional: true, hint: text.records.priorityHint },
      ),
    ],
  );
}

/** "Delete this record?": the record as it is, and what the submission will do (request or delete). */
export function deleteModal(target: ModalTarget, before: RecordValue): View {
  return formModal(
    RECORD_IDS.deleteModal,
    writeMetadata(ModalTarget, target),
    text.records.deleteTitle,
    text.records.deleteSubmit,
    [
      section(
        text.records.deleteConfirm({
          zone: codeSpan(displayName(target.domain)),
          record: recordText(before),
        }),
      ),
    ],
  );
}

/** `www` for `www.example.de.` in `example.de`, `@` for the apex: what the modal's name field takes back. */
export function relativeName(name: string, domain: string): string {
  const bare = name.replace(/\.$/, '');
  if (bare === domain) return '@';
  return bare.endsWith(`.${domain}`) ? bare.slice(0, -domain.length - 1) : bare;
}

/**
 * A records page line with Edit and Delete (an overflow menu) for a record the registrar lets change:
 * one with an id that it does not manage itself (`auto`).
 */
export function recordRow(line: string, record: DnsRecord): KnownBlock {
  if (record.id === undefined || record.auto === true) return section(line);
  const option = (label: string, verb: string) => ({
    text: { type: 'plain_text' as const, text: label },
    value: `${verb}:${record.id}`,
  });
  return {
    type: 'section',
    text: { type: 'mrkdwn', text: line },
    accessory: {
      type: 'overflow',
      action_id: RECORD_IDS.rowMenu,
      options: [option(text.records.editOption, ROW_EDIT), option(text.records.deleteOption, ROW_DELETE)],
    },
  };
}
