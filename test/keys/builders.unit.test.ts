import { checkingModal, doneModal, keyModal } from '../../src/features/keys/blocks.js';
import { text } from '../../src/text/index.js';
import { checkBuilders, DATES, type Entry } from '../helpers/builder-checks.js';
import { KEY_SET } from '../helpers/builder-fixtures.js';

/**
 * Every modal of the registrar key. Each is rendered in every language at the largest its inputs
 * realistically get and checked by test/helpers/builder-checks.ts (Block Kit limits, no outside markup,
 * German differs, dates as tokens). A builder added later is one line of `BUILDERS` here.
 */

const BUILDERS: Entry[] = [
  [
    'keys: modal, key set, last attempt rejected',
    'modal',
    () => keyModal(KEY_SET, text.workspace.keyRejected),
    DATES,
  ],
  [
    'keys: modal, key set, registrar unreachable',
    'modal',
    () => keyModal(KEY_SET, text.workspace.keyUncheckable),
    DATES,
  ],
  ['keys: modal, no key', 'modal', () => keyModal({ state: 'missing' })],
  ['keys: modal, sandbox', 'modal', () => keyModal({ state: 'sandbox' })],
  ['keys: checking', 'modal', () => checkingModal()],
  ['keys: accepted', 'modal', () => doneModal(text.workspace.keyAccepted({ masked: KEY_SET.masked }))],
  ['keys: not an admin', 'modal', () => doneModal(text.workspace.keyChangeNotAdmin)],
];

checkBuilders('keys', BUILDERS);
