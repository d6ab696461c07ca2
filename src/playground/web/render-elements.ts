import { chromeFor } from './chrome.js';
import { plainText, type RenderContext, renderTextObject } from './render-text.js';
import { type ActionRef, h, safeImageSrc, type VElement, type VNode } from './vnode.js';

type Json = Record<string, unknown>;

export interface Option {
  text: Json;
  value: string;
  description?: Json;
}

const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
const textString = (value: unknown): string => str((value as Json | undefined)?.text) ?? '';

/** Options of a static select or overflow, option groups flattened. */
export function optionsOf(element: Json): Option[] {
  const options = (element.options ?? []) as Option[];
  const groups = (element.option_groups ?? []) as Array<{ options?: Option[] }>;
  return [...options, ...groups.flatMap((g) => g.options ?? [])];
}

/** Where a control sits: its block, and an id prefix unique on the page for labels. */
export interface ElementPlace {
  blockId: string;
  scope: string;
  /** True in actions blocks and accessories (and inputs with `dispatch_action`). */
  dispatch: boolean;
}

export function controlId(place: ElementPlace, actionId: string): string {
  return `${place.scope}--${place.blockId}--${actionId}`.replace(/[^A-Za-z0-9_-]/g, '_');
}

function control(element: Json, place: ElementPlace, actionId: string): Record<string, string> {
  return {
    'data-block-id': place.blockId,
    'data-action-id': actionId,
    'data-element-type': str(element.type) ?? '',
    id: controlId(place, actionId),
  };
}

function withAction(node: VElement, element: Json, place: ElementPlace, actionId: string): VElement {
  const action: ActionRef = {
    element: { ...element, action_id: actionId },
    blockId: place.blockId,
    dispatch: place.dispatch,
  };
  node.action = action;
  return node;
}

function choices(
  placeholder: string,
  items: Array<{ value: string; label: string }>,
  selected: Set<string>,
  multiple: boolean,
): VElement[] {
  const list = items.map((item) =>
    h('option', { value: item.value, selected: selected.has(item.value) ? '' : undefined }, [item.label]),
  );
  // A single select starts on its placeholder, as Slack's menus do.
  return multiple ? list : [h('option', { value: '' }, [placeholder]), ...list];
}

/** Users, conversations and channels selects list the workspace's own people and channels. */
function selectItems(ctx: RenderContext, element: Json): Array<{ value: string; label: string }> {
  const type = str(element.type) ?? '';
  if (type.includes('users_select')) return ctx.users.map((u) => ({ value: u.id, label: u.realName }));
  if (type.includes('channels_select'))
    return ctx.channels.filter((c) => c.kind === 'public').map((c) => ({ value: c.id, label: `#${c.name}` }));
  if (type.includes('conversations_select')) {
    const include = ((element.filter as Json | undefined)?.include ?? []) as string[];
    return ctx.channels
      .filter((c) => include.length === 0 || include.includes(c.kind))
      .map((c) => ({ value: c.id, label: c.kind === 'im' ? `@${c.name}` : `#${c.name}` }));
  }
  return optionsOf(element).map((o) => ({ value: o.value, label: plainText(textString(o.text)) }));
}

function initialValues(element: Json): string[] {
  const single = [element.initial_user, element.initial_conversation, element.initial_channel];
  const many = [element.initial_users, element.initial_conversations, element.initial_channels];
  const values: string[] = [];
  for (const value of single) if (typeof value === 'string') values.push(value);
  for (const list of many) if (Array.isArray(list)) values.push(...list.filter((v) => typeof v === 'string'));
  const option = element.initial_option as Option | undefined;
  if (option !== undefined) values.push(option.value);
  for (const o of (element.initial_options ?? []) as Option[]) values.push(o.value);
  return values;
}

/** One interactive (or image) element as a form control the page can read and dispatch from. */
export function renderElement(ctx: RenderContext, element: Json, place: ElementPlace, index: number): VNode {
  const type = str(element.type) ?? '';
  const actionId = str(element.action_id) ?? `action-${index}`;
  const attrs = control(element, place, actionId);
  const words = chromeFor(ctx.viewer.locale);
  const placeholder = plainText(textString(element.placeholder)) || words.selectAnOption;
  switch (type) {
    case 'button': {
      const style = str(element.style);
      const button = h(
        'button',
        { ...attrs, type: 'button', class: `btn${style ? ` ${style}` : ''}`, value: str(element.value) },
        [plainText(textString(element.text))],
      );
      return withAction(button, element, place, actionId);
    }
    case 'static_select':
    case 'external_select':
    case 'users_select':
    case 'conversations_select':
    case 'channels_select':
    case 'multi_static_select':
    case 'multi_external_select':
    case 'multi_users_select':
    case 'multi_conversations_select':
    case 'multi_channels_select': {
      const multiple = type.startsWith('multi_');
      const select = h(
        'select',
        { ...attrs, class: 'select', multiple: multiple ? '' : undefined, 'aria-label': placeholder },
        choices(placeholder, selectItems(ctx, element), new Set(initialValues(element)), multiple),
      );
      return withAction(select, element, place, actionId);
    }
    case 'overflow': {
      const items = optionsOf(element).map((o) => ({ value: o.value, label: plainText(textString(o.text)) }));
      const select = h('select', { ...attrs, class: 'select overflow', 'aria-label': words.moreActions }, [
        h('option', { value: '' }, ['⋯']),
        ...items.map((item) => h('option', { value: item.value }, [item.label])),
      ]);
      return withAction(select, element, place, actionId);
    }
    case 'datepicker': {
      const input = h('input', {
        ...attrs,
        type: 'date',
        class: 'control',
        value: str(element.initial_date),
      });
      return withAction(input, element, place, actionId);
    }
    case 'plain_text_input': {
      const common = {
        ...attrs,
        class: 'control',
        placeholder: textString(element.placeholder) || undefined,
        maxlength: typeof element.max_length === 'number' ? String(element.max_length) : undefined,
        minlength: typeof element.min_length === 'number' ? String(element.min_length) : undefined,
      };
      const initial = str(element.initial_value);
      const input =
        element.multiline === true
          ? h('textarea', { ...common, rows: '4' }, initial === undefined ? [] : [initial])
          : h('input', { ...common, type: 'text', value: initial });
      return withAction(input, element, place, actionId);
    }
    case 'number_input': {
      const input = h('input', {
        ...attrs,
        type: 'number',
        class: 'control',
        step: element.is_decimal_allowed === true ? 'any' : '1',
        min: str(element.min_value),
        max: str(element.max_value),
        value: str(element.initial_value),
        placeholder: textString(element.placeholder) || undefined,
      });
      return withAction(input, element, place, actionId);
    }
    case 'checkboxes':
    case 'radio_buttons':
      return withAction(renderChoiceGroup(ctx, element, place, actionId), element, place, actionId);
    case 'image': {
      const src = safeImageSrc(str(element.image_url) ?? '');
      const alt = str(element.alt_text) ?? '';
      return src === undefined
        ? h('span', { class: 'image-missing' }, [words.image({ alt })])
        : h('img', { src, alt, class: 'element-image' });
    }
    default:
      return h('span', { class: 'unsupported' }, [words.unsupportedElement({ type })]);
  }
}

function renderChoiceGroup(
  ctx: RenderContext,
  element: Json,
  place: ElementPlace,
  actionId: string,
): VElement {
  const type = str(element.type) ?? '';
  const selected = new Set(initialValues(element));
  const id = controlId(place, actionId);
  const items = optionsOf(element).map((option, i) =>
    h('label', { class: 'choice' }, [
      h('input', {
        type: type === 'checkboxes' ? 'checkbox' : 'radio',
        name: id,
        value: option.value,
        id: `${id}--${i}`,
        checked: selected.has(option.value) ? '' : undefined,
      }),
      renderTextObject(ctx, option.text, 'choice-text'),
      ...(option.description === undefined ? [] : [renderTextObject(ctx, option.description, 'choice-hint')]),
    ]),
  );
  return h('div', { ...control(element, place, actionId), class: 'choices', role: 'group' }, items);
}

/** A `confirm` composition object as the dialog content the page shows before dispatching. */
export function renderConfirm(ctx: RenderContext, confirm: Json): VElement {
  const style = str(confirm.style);
  const words = chromeFor(ctx.viewer.locale);
  return h('div', { class: 'confirm' }, [
    h('h2', { class: 'confirm-title' }, [plainText(textString(confirm.title)) || words.areYouSure]),
    renderTextObject(ctx, confirm.text, 'confirm-text'),
    h('div', { class: 'confirm-buttons' }, [
      h('button', { type: 'button', class: 'btn', value: 'deny' }, [
        plainText(textString(confirm.deny)) || words.cancel,
      ]),
      h('button', { type: 'button', class: `btn ${style ?? 'primary'}`, value: 'confirm' }, [
        plainText(textString(confirm.confirm)) || words.yes,
      ]),
    ]),
  ]);
}
