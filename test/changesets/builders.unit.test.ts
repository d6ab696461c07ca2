import { outcomeMessage, planLines, scheduledMessage } from '../../src/features/changesets/blocks.js';
import { importModal } from '../../src/features/changesets/commands.js';
import type { ChangeSetParams } from '../../src/features/changesets/params.js';
import type { ChangeSetRun } from '../../src/features/changesets/store.js';
import type { RecordChange } from '../../src/features/records/changes.js';
import { section } from '../../src/slack/blocks.js';
import { checkBuilders, DATES, type Entry } from '../helpers/builder-checks.js';
import { HOSTILE } from '../helpers/builder-fixtures.js';

/**
 * Every builder of the change sets feature, in every language, at the largest its inputs get
 * (test/helpers/builder-checks.ts: Block Kit limits, no outside markup, German differs, dates as tokens).
 */

const ZONE = 'xn--mller-kva.de';
const txt = (i: number) => ({
  type: 'TXT' as const,
  name: `r${i}.${ZONE}.`,
  data: `${HOSTILE} ${'long text '.repeat(180)}`.slice(0, 2000),
  ttl: 3600,
});
/** 500 steps of every kind, each at its longest. */
const STEPS: RecordChange[] = Array.from({ length: 500 }, (_, i) =>
  i % 3 === 0
    ? { kind: 'add', after: txt(i) }
    : i % 3 === 1
      ? { kind: 'edit', id: i, before: txt(i), after: { ...txt(i), ttl: 60 } }
      : { kind: 'delete', id: i, before: txt(i) },
);
const PARAMS: ChangeSetParams = {
  domain: ZONE,
  steps: STEPS,
  unchanged: 40,
  manageable: 600,
  by: 'U0REQUESTER',
  applyAt: Date.UTC(2026, 11, 1, 2, 0),
  lowerTtls: true,
};
const run = (state: ChangeSetRun['state'], done: number): ChangeSetRun => ({
  id: 'cs_0123456789ab',
  domain: ZONE,
  steps: STEPS,
  by: 'U0REQUESTER',
  thread: { channel: 'C0OPS', ts: '1.1' },
  before: [],
  done,
  created: {},
  state,
  reason: `${HOSTILE} ${'The registrar refused the write. '.repeat(30)}`,
  applyAt: Date.UTC(2026, 11, 1, 2, 0),
  lowered: Object.fromEntries(STEPS.map((_, i) => [String(i), 3600])),
  confirmed: 0,
});

const BUILDERS: Entry[] = [
  ['changesets: import modal', 'modal', () => importModal(ZONE, 'C0OPS')],
  [
    'changesets: the plan as a request shows it',
    'message',
    () => ({ blocks: planLines(PARAMS).shown.map((line) => section(line.slice(0, 3000))) }),
    DATES,
  ],
  ['changesets: applied', 'message', () => outcomeMessage(run('applied', 500))],
  ['changesets: stopped half-way', 'message', () => outcomeMessage(run('stopped', 250))],
  ['changesets: scheduled cutover', 'message', () => scheduledMessage(run('scheduled', 0)), DATES],
];

checkBuilders('changesets', BUILDERS);
