import { policyOf } from '../../src/features/policy/document.js';
import { parsePolicyYaml } from '../../src/features/policy/yaml.js';
import { inputActionId, type StateValue, type ViewState } from '../../src/slack/modal.js';
import { WS } from '../approvals/support.js';
import type { Harness } from '../helpers/app-harness.js';

type Element = {
  type: string;
  initial_value?: string;
  initial_option?: { value: string };
  initial_options?: { value: string }[];
  initial_users?: string[];
  initial_conversation?: string;
};

/**
 * A modal submitted untouched: each input's state as Slack sends it for what the modal showed
 * (`view.state.values`). `changed` replaces the state of the blocks it names, as a person's choices.
 */
export function submittedAsShown(
  blocks: readonly unknown[],
  changed: Record<string, StateValue> = {},
): ViewState {
  const state: ViewState = {};
  for (const block of blocks as { type: string; block_id?: string; element?: Element }[]) {
    if (block.type !== 'input' || block.block_id === undefined || block.element === undefined) continue;
    const element = block.element;
    const value: StateValue =
      changed[block.block_id] ??
      {
        plain_text_input: { value: element.initial_value ?? null },
        number_input: { value: element.initial_value ?? null },
        static_select: { selected_option: element.initial_option ?? null },
        // Slack sends an unchecked box, and a multi-select with nothing chosen, as an empty list.
        checkboxes: { selected_options: element.initial_options ?? [] },
        multi_static_select: { selected_options: element.initial_options ?? [] },
        multi_users_select: { selected_users: element.initial_users ?? [] },
        conversations_select: { selected_conversation: element.initial_conversation ?? null },
      }[element.type] ??
      {};
    state[block.block_id] = { [inputActionId(block.block_id)]: value };
  }
  return state;
}

/** Saves a version 2 policy document for the harness's workspace, as `regdesk policy set` saves it. */
export async function savePolicyYaml(h: Harness, yaml: string): Promise<void> {
  const parsed = parsePolicyYaml(yaml);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
  await h.running.services.policies.set(WS, policyOf(parsed.document));
}
