import { changeCard, deleteModal, recordModal } from '../../src/features/records/blocks.js';
import type { RecordValue } from '../../src/features/records/changes.js';
import { checkBuilders, DATES, type Entry } from '../helpers/builder-checks.js';
import {
  CHANNEL,
  made,
  NAMESERVERS,
  NOW,
  RECORD_NAME,
  recordEdit,
  txt,
  ZONE,
} from '../helpers/builder-fixtures.js';

/**
 * The record change cards and the record modals. Each is rendered in every language at the largest its inputs
 * realistically get and checked by test/helpers/builder-checks.ts (Block Kit limits, no outside markup,
 * German differs, dates as tokens). A builder added later is one line of `BUILDERS` here.
 */

const recordTarget = { draft: 'd'.repeat(20), domain: ZONE, channel: CHANNEL, recordId: 123_456_789 };
const mx: RecordValue = {
  type: 'MX',
  name: RECORD_NAME,
  data: `mail.${ZONE}.`,
  ttl: 604_800,
  priority: 65_535,
};

const BUILDERS: Entry[] = [
  ['records: change card', 'message', () => changeCard(made(recordEdit)), DATES],
  [
    'records: change card, served',
    'message',
    () => changeCard(made(recordEdit), { nameservers: NAMESERVERS, at: NOW }),
    DATES,
  ],
  ['records: change card, added', 'message', () => changeCard(made({ kind: 'add', after: txt('c') })), DATES],
  [
    'records: change card, deleted',
    'message',
    () => changeCard(made({ kind: 'delete', id: 1, before: txt('c') })),
    DATES,
  ],
  [
    'records: add modal',
    'modal',
    () => recordModal({ draft: 'd'.repeat(20), domain: ZONE, channel: CHANNEL }),
  ],
  ['records: edit modal, TXT', 'modal', () => recordModal(recordTarget, { ...txt('c'), name: RECORD_NAME })],
  ['records: edit modal, MX', 'modal', () => recordModal(recordTarget, mx)],
  ['records: delete modal', 'modal', () => deleteModal(recordTarget, { ...txt('c'), name: RECORD_NAME })],
];

checkBuilders('records', BUILDERS);
