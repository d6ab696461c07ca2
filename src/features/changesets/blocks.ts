import type { KnownBlock } from '@slack/types';
import { button, section, slackDate } from '../../slack/blocks.js';
import type { Message } from '../../slack/reply.js';
import { markup, text } from '../../text/index.js';
import { recordText } from '../records/blocks.js';
import type { RecordChange, RecordValue } from '../records/changes.js';
import { CHANGESET_IDS } from './ids.js';
import type { ChangeSetParams } from './params.js';
import { isLarge } from './plan.js';
import type { ChangeSetRun } from './store.js';

/** The steps a request message shows; the rest are in the plan file in its thread. */
export const SHOWN_STEPS = 25;

function stepLine(step: RecordChange): string {
  switch (step.kind) {
    case 'add':
      return text.changesets.planCreate({ record: recordText(step.after) });
    case 'edit':
      return text.changesets.planChange({ before: recordText(step.before), after: recordText(step.after) });
    case 'delete':
      return text.changesets.planDelete({ record: recordText(step.before) });
  }
}

/** The plan as the request shows it: counts, why it needs one approval more, the first steps. */
export function planLines(params: ChangeSetParams): { shown: string[]; more: number } {
  const count = (kind: RecordChange['kind']) => params.steps.filter((step) => step.kind === kind).length;
  const shown = [
    text.changesets.planCounts({
      creates: count('add'),
      changes: count('edit'),
      deletes: count('delete'),
      unchanged: params.unchanged,
    }),
  ];
  if (isLarge(params)) {
    const touched = params.steps.length - count('add');
    shown.push(
      text.changesets.planLarge({ share: Math.round((touched / Math.max(1, params.manageable)) * 100) }),
    );
  }
  shown.push(text.changesets.planNoAuto);
  if (params.applyAt !== undefined)
    shown.push(
      params.lowerTtls === true
        ? text.changesets.planCutoverLowered({ at: slackDate(params.applyAt) })
        : text.changesets.planCutover({ at: slackDate(params.applyAt) }),
    );
  shown.push(...params.steps.slice(0, SHOWN_STEPS).map(stepLine));
  const more = Math.max(0, params.steps.length - SHOWN_STEPS);
  if (more > 0) shown.push(text.changesets.planMore({ count: more }));
  return { shown, more };
}

const plain = (value: RecordValue) =>
  `${value.name} ${value.ttl} IN ${value.type}${value.priority === undefined ? '' : ` ${value.priority}`} ${value.data}`;

/** The whole plan as a text file: one step per line, `+`, `~` (before → after) or `-`. */
export function planText(params: ChangeSetParams): string {
  return params.steps
    .map((step) => {
      if (step.kind === 'add') return `+ ${plain(step.after)}`;
      if (step.kind === 'edit') return `~ ${plain(step.before)} -> ${plain(step.after)}`;
      return `- ${plain(step.before)}`;
    })
    .map((line) => `${line}\n`)
    .join('');
}

/** A scheduled cutover, in its request's thread: when, and Cancel (which puts lowered TTLs back). */
export function scheduledMessage(run: ChangeSetRun): { text: string; blocks: KnownBlock[] } {
  const said = text.changesets.scheduled({
    id: run.id,
    domain: run.domain,
    at: slackDate(run.applyAt ?? 0),
    lowered: Object.keys(run.lowered).length,
  });
  return {
    text: said,
    blocks: [
      section(said),
      {
        type: 'actions',
        elements: [
          button(
            text.changesets.cancelButton,
            CHANGESET_IDS.cancel,
            run.id,
            'danger',
            `${text.changesets.cancelButton} ${run.id}`,
          ),
        ],
      },
    ],
  };
}

/** The end of a change set, in its request's thread: done, or where it stopped and what was not done, with Revert. */
export function outcomeMessage(run: ChangeSetRun): Message {
  const said =
    run.state === 'applied'
      ? text.changesets.applied({ domain: run.domain, done: run.done, id: run.id })
      : text.changesets.stopped({
          domain: run.domain,
          done: run.done,
          total: run.steps.length,
          id: run.id,
          reason: run.reason ?? '',
        });
  const blocks: KnownBlock[] = [section(said.slice(0, 3000))];
  const left = run.steps.slice(run.done);
  if (left.length > 0) {
    const listed = left.slice(0, SHOWN_STEPS).map(stepLine).join('\n');
    const more =
      left.length > SHOWN_STEPS ? `\n${text.changesets.planMore({ count: left.length - SHOWN_STEPS })}` : '';
    blocks.push(section(text.changesets.notDone({ steps: markup(`\n${listed}${more}`) }).slice(0, 3000)));
  }
  if (run.done > 0)
    blocks.push({
      type: 'actions',
      elements: [
        button(
          text.changesets.revertButton,
          CHANGESET_IDS.revert,
          run.id,
          undefined,
          `${text.changesets.revertButton} ${run.id}`,
        ),
      ],
    });
  return { text: said, blocks };
}
