import type { KnownBlock } from '@slack/types';
import type { z } from 'zod';
import { AppError } from '../shared/app-error.js';
import { text } from '../text/index.js';

/**
 * Modal plumbing shared by every feature: input blocks, reading submitted state, and
 * `private_metadata` written and read through a schema (Slack returns it untouched, but a view can
 * outlive a deployment, so it is validated like any other input).
 */

/** A submitted input's value, as Slack sends it in `view.state.values[block][action]`. */
export interface StateValue {
  value?: string | null;
  selected_option?: { value: string } | null;
  selected_options?: { value: string }[];
  selected_users?: string[];
  selected_user?: string | null;
  selected_conversation?: string | null;
  selected_date?: string | null;
  /** A `datetimepicker`'s choice, in Unix seconds. */
  selected_date_time?: number | null;
}

export type ViewState = Record<string, Record<string, StateValue>>;

/** Slack's limit on `private_metadata` (Block Kit views reference). */
export const PRIVATE_METADATA_MAX = 3_000;

/** The action id of an input block's element: one per block, derived, so ids live in one place. */
export const inputActionId = (blockId: string): string => `${blockId}.value`;

/** An input block whose element's action id is `inputActionId(blockId)`. */
export function inputBlock(
  blockId: string,
  label: string,
  element: Record<string, unknown>,
  options: { optional?: boolean; hint?: string } = {},
): KnownBlock {
  return {
    type: 'input',
    block_id: blockId,
    optional: options.optional ?? false,
    label: { type: 'plain_text', text: label },
    element: { action_id: inputActionId(blockId), ...element },
    ...(options.hint === undefined ? {} : { hint: { type: 'plain_text', text: options.hint } }),
  } as KnownBlock;
}

/** The value of the input block `blockId` (built with `inputBlock`), or an empty one. */
export function stateOf(state: ViewState, blockId: string): StateValue {
  return state[blockId]?.[inputActionId(blockId)] ?? {};
}

export class BadMetadataError extends AppError {
  constructor() {
    super('regdesk_bad_view_metadata', () => text.slack.badViewMetadata);
  }
}

/** Metadata for a view: JSON within Slack's 3000 characters (larger state belongs in Redis). */
export function writeMetadata<T>(schema: z.ZodType<T>, value: T): string {
  const text = JSON.stringify(schema.parse(value));
  if (text.length > PRIVATE_METADATA_MAX) throw new Error('private_metadata over 3000 characters');
  return text;
}

/** Metadata of a submitted view (or a button's value), checked with its schema. */
export function readMetadata<T>(schema: z.ZodType<T>, raw: string | undefined): T {
  let json: unknown;
  try {
    json = JSON.parse(raw ?? '');
  } catch {
    throw new BadMetadataError();
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw new BadMetadataError();
  return parsed.data;
}

/** Zod issues as `response_action: 'errors'`: each on the block of the field it concerns. */
export function fieldErrors(
  error: z.ZodError,
  blockOf: (field: string) => string | undefined,
  fallbackBlock: string,
): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const issue of error.issues) {
    const block = blockOf(String(issue.path[0] ?? '')) ?? fallbackBlock;
    errors[block] ??= issue.message;
  }
  return errors;
}
