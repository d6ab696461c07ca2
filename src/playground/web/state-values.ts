import type { ActionValue, StateValues } from './protocol.js';
import { type Option, optionsOf } from './render-elements.js';
import type { ActionRef } from './vnode.js';

type Json = Record<string, unknown>;
export type StateValue = Omit<ActionValue, 'action_id' | 'block_id'>;

/** What a control currently holds: the raw strings its DOM form element reports. */
export interface Reading {
  ref: ActionRef;
  values: string[];
}

/** Slack echoes the option object as the view defined it (text, value, description). */
function pickOptions(element: Json, values: string[]): ActionValue['selected_options'] & object {
  const options = optionsOf(element);
  return values
    .map((value) => options.find((o) => o.value === value))
    .filter((o): o is Option => o !== undefined)
    .map((o) => ({ ...(o as unknown as NonNullable<ActionValue['selected_option']>) }));
}

/**
 * One element's entry in Slack's `view.state.values` (or the value part of a `block_actions`
 * action). Where Slack sends `null` for an empty single value, the key is left out: the protocol
 * (protocol.ts StateValues) has no nulls, and readers treat both alike.
 */
export function stateValue(element: Json, values: string[]): StateValue {
  const type = String(element.type ?? '');
  const first = values.find((v) => v !== '');
  const present = values.filter((v) => v !== '');
  const one = <K extends keyof StateValue>(key: K, value: StateValue[K] | undefined): StateValue =>
    value === undefined ? { type } : { type, [key]: value };
  switch (type) {
    case 'plain_text_input':
    case 'number_input':
      return one('value', first);
    case 'button':
      return one('value', typeof element.value === 'string' ? element.value : undefined);
    case 'datepicker':
      return one('selected_date', first);
    case 'static_select':
    case 'external_select':
    case 'radio_buttons':
    case 'overflow':
      return one('selected_option', first === undefined ? undefined : pickOptions(element, [first])[0]);
    case 'multi_static_select':
    case 'multi_external_select':
    case 'checkboxes':
      return { type, selected_options: pickOptions(element, present) };
    case 'users_select':
      return one('selected_user', first);
    case 'multi_users_select':
      return { type, selected_users: present };
    case 'conversations_select':
      return one('selected_conversation', first);
    case 'multi_conversations_select':
      return { type, selected_conversations: present };
    case 'channels_select':
      return one('selected_channel', first);
    case 'multi_channels_select':
      return { type, selected_channels: present } as StateValue;
    default:
      return { type };
  }
}

/** Slack's `view.state.values`: block_id → action_id → value, for every input in the view. */
export function collectState(readings: Reading[]): StateValues {
  const state: StateValues = {};
  for (const { ref, values } of readings) {
    const actionId = String(ref.element.action_id ?? '');
    if (ref.element.type === 'button' || ref.element.type === 'image') continue;
    const block = state[ref.blockId] ?? {};
    block[actionId] = stateValue(ref.element, values);
    state[ref.blockId] = block;
  }
  return state;
}

/** Whether an element's state holds anything: a value, a selection, a date, a non-empty list. */
function filled(value: StateValue | undefined): boolean {
  if (value === undefined) return false;
  return Object.entries(value).some(
    ([key, held]) => key !== 'type' && held !== undefined && (!Array.isArray(held) || held.length > 0),
  );
}

/**
 * The input blocks a submission leaves empty though they are not `optional`: Slack's client refuses
 * such a submission itself, under the field, and never sends it to the app. Block ids as rendered
 * (`b<index>` for a block without one).
 */
export function missingRequired(view: unknown, state: StateValues): string[] {
  const blocks = ((view as Json | undefined)?.blocks ?? []) as Json[];
  return blocks.flatMap((block, index) => {
    if (block.type !== 'input' || block.optional === true) return [];
    const blockId = typeof block.block_id === 'string' ? block.block_id : `b${index}`;
    return Object.values(state[blockId] ?? {}).some(filled) ? [] : [blockId];
  });
}

/** The `actions[0]` entry of a `block_actions` payload for one element. */
export function actionValue(ref: ActionRef, values: string[]): ActionValue {
  return {
    ...stateValue(ref.element, values),
    action_id: String(ref.element.action_id ?? ''),
    block_id: ref.blockId,
  };
}
