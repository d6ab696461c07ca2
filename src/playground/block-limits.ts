/**
 * The Block Kit limits Slack enforces when a message or view is sent (Slack's Block Kit reference:
 * 50 blocks in a message, 100 in a modal or Home tab, section text 3000, header 150, …). The stand-in
 * refuses what Slack refuses, so Regdesk cannot pass in the playground and fail in a real workspace.
 */
export type Surface = 'message' | 'modal' | 'home';

const LIMITS = {
  messageBlocks: 50,
  viewBlocks: 100,
  messageText: 40_000,
  viewTitle: 24,
  privateMetadata: 3_000,
  callbackId: 255,
  blockId: 255,
  sectionText: 3_000,
  sectionFields: 10,
  fieldText: 2_000,
  header: 150,
  contextElements: 10,
  actionsElements: 25,
  buttonText: 75,
  buttonValue: 2_000,
  actionId: 255,
  url: 3_000,
  inputLabel: 2_000,
  inputHint: 2_000,
  options: 100,
  optionText: 75,
  optionValue: 150,
  confirmTitle: 100,
  confirmText: 300,
  confirmButton: 30,
} as const;

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const textOf = (value: unknown): string => (isObject(value) ? String(value.text ?? '') : '');

/**
 * What Slack would object to in `payload` (a message's `{text, blocks}` or a view), worded like
 * Slack's `response_metadata.messages` (`[ERROR] … [json-pointer:/blocks/0/text]`). Empty when valid.
 */
export function blockKitProblems(payload: unknown, surface: Surface): string[] {
  const problems: string[] = [];
  const error = (message: string, pointer: string) =>
    problems.push(`[ERROR] ${message} [json-pointer:${pointer}]`);
  if (!isObject(payload)) return problems;
  const root = surface === 'message' ? '' : '/view';
  const blocks = payload.blocks;
  if (blocks !== undefined && !Array.isArray(blocks)) {
    error('must be an array', `${root}/blocks`);
    return problems;
  }
  const list = (blocks ?? []) as unknown[];
  const maxBlocks = surface === 'message' ? LIMITS.messageBlocks : LIMITS.viewBlocks;
  if (list.length > maxBlocks) error(`no more than ${maxBlocks} items allowed`, `${root}/blocks`);
  if (surface === 'message' && typeof payload.text === 'string' && payload.text.length > LIMITS.messageText) {
    error(`must be less than ${LIMITS.messageText} characters`, '/text');
  }
  if (surface !== 'message') viewProblems(payload, surface, error);
  const ids = new Set<string>();
  list.forEach((block, index) => {
    const at = `${root}/blocks/${index}`;
    if (!isObject(block) || typeof block.type !== 'string') {
      error('missing required field: type', at);
      return;
    }
    if (block.block_id !== undefined) {
      const id = String(block.block_id);
      if (id.length > LIMITS.blockId)
        error(`must be less than ${LIMITS.blockId} characters`, `${at}/block_id`);
      if (ids.has(id)) error(`duplicate block_id: ${id}`, `${at}/block_id`);
      ids.add(id);
    }
    blockProblems(block, at, error);
  });
  return problems;
}

type Report = (message: string, pointer: string) => void;

function viewProblems(view: Json, surface: Surface, error: Report): void {
  if (view.type !== surface) error(`must be ${surface}`, '/view/type');
  if (surface === 'modal') {
    for (const key of ['title', 'submit', 'close'] as const) {
      const text = textOf(view[key]);
      if (text.length > LIMITS.viewTitle)
        error(`must be less than ${LIMITS.viewTitle} characters`, `/view/${key}`);
    }
    if (view.title === undefined) error('missing required field: title', '/view/title');
    const hasInput = Array.isArray(view.blocks) && view.blocks.some((b) => isObject(b) && b.type === 'input');
    if (hasInput && view.submit === undefined) {
      error('submit is required when an input block is within the blocks array', '/view/submit');
    }
  }
  if (typeof view.private_metadata === 'string' && view.private_metadata.length > LIMITS.privateMetadata) {
    error(`must be less than ${LIMITS.privateMetadata} characters`, '/view/private_metadata');
  }
  if (typeof view.callback_id === 'string' && view.callback_id.length > LIMITS.callbackId) {
    error(`must be less than ${LIMITS.callbackId} characters`, '/view/callback_id');
  }
}

function blockProblems(block: Json, at: string, error: Report): void {
  const max = (value: string, limit: number, pointer: string) => {
    if (value.length > limit) error(`must be less than ${limit} characters`, pointer);
  };
  switch (block.type) {
    case 'section': {
      if (block.text === undefined && block.fields === undefined) {
        error('must provide either text or fields', at);
      }
      if (block.text !== undefined) {
        const text = textOf(block.text);
        if (text.length === 0) error('must be more than 0 characters', `${at}/text`);
        max(text, LIMITS.sectionText, `${at}/text`);
      }
      const fields = Array.isArray(block.fields) ? block.fields : [];
      if (fields.length > LIMITS.sectionFields)
        error(`no more than ${LIMITS.sectionFields} items allowed`, `${at}/fields`);
      fields.forEach((field, i) => {
        max(textOf(field), LIMITS.fieldText, `${at}/fields/${i}`);
      });
      if (isObject(block.accessory)) elementProblems(block.accessory, `${at}/accessory`, error);
      return;
    }
    case 'header':
      max(textOf(block.text), LIMITS.header, `${at}/text`);
      return;
    case 'context': {
      const elements = Array.isArray(block.elements) ? block.elements : [];
      if (elements.length > LIMITS.contextElements) {
        error(`no more than ${LIMITS.contextElements} items allowed`, `${at}/elements`);
      }
      return;
    }
    case 'actions': {
      const elements = Array.isArray(block.elements) ? block.elements : [];
      if (elements.length > LIMITS.actionsElements) {
        error(`no more than ${LIMITS.actionsElements} items allowed`, `${at}/elements`);
      }
      elements.forEach((element, i) => {
        if (isObject(element)) elementProblems(element, `${at}/elements/${i}`, error);
      });
      return;
    }
    case 'input':
      max(textOf(block.label), LIMITS.inputLabel, `${at}/label`);
      max(textOf(block.hint), LIMITS.inputHint, `${at}/hint`);
      if (isObject(block.element)) elementProblems(block.element, `${at}/element`, error);
      else error('missing required field: element', `${at}/element`);
      return;
    default:
      return;
  }
}

function elementProblems(element: Json, at: string, error: Report): void {
  const max = (value: unknown, limit: number, pointer: string) => {
    if (typeof value === 'string' && value.length > limit)
      error(`must be less than ${limit} characters`, pointer);
  };
  max(element.action_id, LIMITS.actionId, `${at}/action_id`);
  if (element.type === 'button') {
    max(textOf(element.text), LIMITS.buttonText, `${at}/text`);
    max(element.value, LIMITS.buttonValue, `${at}/value`);
    max(element.url, LIMITS.url, `${at}/url`);
    if (element.style !== undefined && element.style !== 'primary' && element.style !== 'danger') {
      error('must be one of primary, danger', `${at}/style`);
    }
  }
  if (Array.isArray(element.options)) {
    if (element.options.length > LIMITS.options)
      error(`no more than ${LIMITS.options} items allowed`, `${at}/options`);
    element.options.forEach((option, i) => {
      if (!isObject(option)) return;
      max(textOf(option.text), LIMITS.optionText, `${at}/options/${i}/text`);
      max(option.value, LIMITS.optionValue, `${at}/options/${i}/value`);
    });
  }
  if (isObject(element.confirm)) {
    const confirm = element.confirm;
    max(textOf(confirm.title), LIMITS.confirmTitle, `${at}/confirm/title`);
    max(textOf(confirm.text), LIMITS.confirmText, `${at}/confirm/text`);
    max(textOf(confirm.confirm), LIMITS.confirmButton, `${at}/confirm/confirm`);
    max(textOf(confirm.deny), LIMITS.confirmButton, `${at}/confirm/deny`);
  }
}
