import { auditBlocks } from '../../src/features/audit/blocks.js';
import { checkBuilders, DATES, type Entry } from '../helpers/builder-checks.js';
import { auditEntries, DOMAIN } from '../helpers/builder-fixtures.js';

/**
 * The audit trail's message (`/domain audit`). Each is rendered in every language at the largest its inputs
 * realistically get and checked by test/helpers/builder-checks.ts (Block Kit limits, no outside markup,
 * German differs, dates as tokens). A builder added later is one line of `BUILDERS` here.
 */

const BUILDERS: Entry[] = [
  ['audit: 30 entries of a domain', 'message', () => auditBlocks(auditEntries(30), DOMAIN), DATES],
  ['audit: 30 entries', 'message', () => auditBlocks(auditEntries(30)), DATES],
  ['audit: nothing recorded', 'message', () => auditBlocks([], DOMAIN)],
];

checkBuilders('audit', BUILDERS);
