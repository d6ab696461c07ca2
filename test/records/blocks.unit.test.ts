import { describe, expect, it } from 'vitest';
import { approvalMessage } from '../../src/features/approvals/blocks.js';
import { recordsPage } from '../../src/features/dns/blocks.js';
import {
  changeCard,
  changeLines,
  changeSummary,
  deleteModal,
  recordModal,
} from '../../src/features/records/blocks.js';
import type { MadeChange, RecordValue } from '../../src/features/records/changes.js';
import { RECORD_IDS } from '../../src/features/records/ids.js';
import type { DnsRecord } from '../../src/registrar/index.js';
import { approvalRequest } from '../helpers/approval-request.js';
import { assertLabelledButtons, assertWithinBlockKitLimits } from '../helpers/block-kit.js';

/** The longest a record change can carry: a 63-character zone label, a 253-character name, a 2,000-character TXT. */
const ZONE = `${'z'.repeat(63)}.de`;
const NAME = `${'n'.repeat(63)}.${'m'.repeat(63)}.${'l'.repeat(56)}.${ZONE}.`;
const txt = (fill: string): RecordValue => ({
  type: 'TXT',
  name: NAME,
  data: fill.repeat(2_000),
  ttl: 604_800,
});

function made(change: MadeChange['change']): MadeChange {
  return {
    id: 'AbCdEfGh',
    domain: ZONE,
    change,
    recordId: 123_456_789,
    by: 'U0001',
    at: Date.UTC(2026, 10, 27),
    revertOf: 'ZyXwVuTs',
    before: [],
    cacheSeconds: 604_800,
  };
}

describe('record change builders stay within Block Kit limits at their largest', () => {
  const edit = { kind: 'edit' as const, id: 123_456_789, before: txt('a'), after: txt('b') };

  it('the change card, served or not, with Revert named for the change', () => {
    const nameservers = Array.from({ length: 13 }, (_, i) => `ns${i}.${'h'.repeat(50)}.example.net`);
    for (const card of [changeCard(made(edit)), changeCard(made(edit), { nameservers, at: Date.now() })]) {
      assertWithinBlockKitLimits(card, 'message');
      assertLabelledButtons(card.blocks, 'AbCdEfGh');
      expect(JSON.stringify(card.blocks)).toContain(RECORD_IDS.revert);
    }
  });

  it('the approval request shows the whole record before and after', () => {
    const message = approvalMessage(
      approvalRequest({
        operation: 'dns.record',
        target: ZONE,
        summary: changeSummary(ZONE, edit, 'ZyXwVuTs'),
        details: changeLines(edit),
      }),
    );
    assertWithinBlockKitLimits(message, 'message');
    expect(JSON.stringify(message.blocks)).toContain('b'.repeat(1_900));
  });

  it('the add, edit and delete modals', () => {
    const target = { draft: 'd'.repeat(8), domain: ZONE, channel: 'C0123456789', recordId: 123_456_789 };
    assertWithinBlockKitLimits(recordModal({ ...target, recordId: undefined } as never), 'modal');
    assertWithinBlockKitLimits(recordModal(target, txt('c')), 'modal');
    assertWithinBlockKitLimits(deleteModal(target, txt('c')), 'modal');
    const mx: RecordValue = { type: 'MX', name: `${ZONE}.`, data: `mail.${ZONE}.`, ttl: 3600, priority: 10 };
    const modal = JSON.stringify(recordModal(target, mx));
    expect(modal).toContain('"initial_value":"@"');
    expect(modal).toContain('"initial_value":"10"');
  });

  it('a records page of 40 long records, each with Edit and Delete, auto ones without', () => {
    const records: DnsRecord[] = Array.from({ length: 40 }, (_, i) => ({
      id: 1_000_000 + i,
      name: NAME,
      type: 'TXT',
      data: 'q'.repeat(4_000),
      ttl: 3600,
      auto: i % 10 === 0,
    }));
    const page = recordsPage({
      domain: ZONE,
      type: undefined,
      total: 400,
      page: 3,
      pages: 10,
      records,
      editable: true,
    });
    assertWithinBlockKitLimits(page, 'message');
    // The lookup adds a Share button (an actions block) to what the builder returns.
    expect(page.blocks.length).toBeLessThanOrEqual(49);
    expect(JSON.stringify(page.blocks).split(`"action_id":"${RECORD_IDS.rowMenu}"`).length - 1).toBe(36);
    const readOnly = recordsPage({
      domain: ZONE,
      type: undefined,
      total: 400,
      page: 3,
      pages: 10,
      records,
      editable: false,
    });
    expect(JSON.stringify(readOnly.blocks)).not.toContain(RECORD_IDS.rowMenu);
  });
});
