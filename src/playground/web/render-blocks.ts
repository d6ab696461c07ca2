import { chromeFor } from './chrome.js';
import { emojiFor } from './emoji.js';
import { controlId, type ElementPlace, renderElement } from './render-elements.js';
import {
  channelLabel,
  link,
  plainText,
  type RenderContext,
  renderDate,
  renderTextObject,
  userLabel,
} from './render-text.js';
import { h, safeImageSrc, text, type VElement, type VNode } from './vnode.js';

type Json = Record<string, unknown>;
const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

export type Surface = 'message' | 'modal' | 'home';

/**
 * Regdesk's Block Kit JSON as an element tree. `scope` makes control ids unique on the page (a
 * message ts or a view id). Blocks without a block_id get a positional one (`b<index>`), as Slack
 * assigns one; the server half finds the element by the same name (src/playground/actions.ts).
 */
export function renderBlocks(ctx: RenderContext, blocks: unknown, surface: Surface, scope: string): VElement {
  const list = Array.isArray(blocks) ? (blocks as Json[]) : [];
  return h(
    'div',
    { class: `blocks ${surface}` },
    list.map((block, i) => renderBlock(ctx, block, scope, i)),
  );
}

function renderBlock(ctx: RenderContext, block: Json, scope: string, index: number): VNode {
  const type = str(block.type) ?? '';
  const blockId = str(block.block_id) ?? `b${index}`;
  const place: ElementPlace = { blockId, scope, dispatch: true };
  const wrap = (children: VNode[], extra = '') =>
    h('div', { class: `block ${type}${extra}`, 'data-block-id': blockId }, children);
  switch (type) {
    case 'header':
      return wrap([h('h2', { dir: 'auto' }, [plainText(str((block.text as Json | undefined)?.text) ?? '')])]);
    case 'divider':
      return wrap([h('hr')]);
    case 'section': {
      const body: VNode[] = [];
      if (block.text !== undefined) body.push(renderTextObject(ctx, block.text));
      const fields = (block.fields ?? []) as unknown[];
      if (fields.length > 0)
        body.push(
          h(
            'div',
            { class: 'fields' },
            fields.map((f) => renderTextObject(ctx, f, 'field')),
          ),
        );
      const accessory = block.accessory as Json | undefined;
      const side =
        accessory === undefined
          ? []
          : [h('div', { class: 'accessory' }, [renderElement(ctx, accessory, place, 0)])];
      return wrap([h('div', { class: 'section-body' }, body), ...side]);
    }
    case 'context':
      return wrap(
        ((block.elements ?? []) as Json[]).map((element) =>
          element.type === 'image'
            ? renderElement(ctx, element, place, 0)
            : renderTextObject(ctx, element, 'context-text'),
        ),
      );
    case 'actions':
      return wrap(
        ((block.elements ?? []) as Json[]).map((element, i) => renderElement(ctx, element, place, i)),
      );
    case 'input':
      return renderInput(ctx, block, { ...place, dispatch: block.dispatch_action === true });
    case 'image': {
      const src = safeImageSrc(str(block.image_url) ?? '');
      const alt = str(block.alt_text) ?? '';
      const title = block.title === undefined ? [] : [renderTextObject(ctx, block.title, 'image-title')];
      return wrap([
        ...title,
        src === undefined
          ? h('span', { class: 'image-missing' }, [chromeFor(ctx.viewer.locale).image({ alt })])
          : h('img', { src, alt }),
      ]);
    }
    case 'rich_text':
      return wrap(((block.elements ?? []) as Json[]).map((element) => renderRich(ctx, element)));
    default:
      return wrap([
        h('span', { class: 'unsupported' }, [chromeFor(ctx.viewer.locale).unsupportedBlock({ type })]),
      ]);
  }
}

/** A modal input: its label tied to the control, the hint, and the error Regdesk answered for it. */
function renderInput(ctx: RenderContext, block: Json, place: ElementPlace): VElement {
  const element = (block.element ?? {}) as Json;
  const actionId = str(element.action_id) ?? 'action-0';
  const id = controlId(place, actionId);
  const error = ctx.errors?.[place.blockId];
  const label = plainText(str((block.label as Json | undefined)?.text) ?? '');
  const optional = block.optional === true ? ` ${chromeFor(ctx.viewer.locale).optional}` : '';
  const group = element.type === 'checkboxes' || element.type === 'radio_buttons';
  const control = renderElement(ctx, element, place, 0);
  if (control.kind === 'el') {
    if (error !== undefined) {
      control.attrs['aria-invalid'] = 'true';
      control.attrs['aria-describedby'] = `${id}--error`;
    }
    // The visible label names the control; a placeholder aria-label would hide it from assistive tech.
    if (group) control.attrs['aria-label'] = label;
    else delete control.attrs['aria-label'];
    if (!group && block.optional !== true && element.type !== 'datepicker') control.attrs.required = '';
  }
  return h(
    'div',
    { class: `block input${error === undefined ? '' : ' has-error'}`, 'data-block-id': place.blockId },
    [
      group
        ? h('span', { class: 'label' }, [label, optional])
        : h('label', { for: id, class: 'label' }, [label, optional]),
      control,
      ...(block.hint === undefined ? [] : [renderTextObject(ctx, block.hint, 'hint')]),
      ...(error === undefined
        ? []
        : [h('div', { class: 'error', id: `${id}--error`, role: 'alert' }, [error])]),
    ],
  );
}

/** rich_text sections, lists, quotes and preformatted text (Slack's rich text elements). */
function renderRich(ctx: RenderContext, element: Json): VNode {
  const children = (element.elements ?? []) as Json[];
  switch (element.type) {
    case 'rich_text_section':
      return h(
        'p',
        { dir: 'auto' },
        children.map((child) => richInline(ctx, child)),
      );
    case 'rich_text_preformatted':
      return h(
        'pre',
        {},
        children.map((child) => richInline(ctx, child)),
      );
    case 'rich_text_quote':
      return h(
        'blockquote',
        {},
        children.map((child) => richInline(ctx, child)),
      );
    case 'rich_text_list':
      return h(
        element.style === 'ordered' ? 'ol' : 'ul',
        {},
        children.map((child) => h('li', {}, [renderRich(ctx, child)])),
      );
    default:
      return h('span', { class: 'unsupported' }, [
        chromeFor(ctx.viewer.locale).unsupportedRichText({ type: String(element.type) }),
      ]);
  }
}

function richInline(ctx: RenderContext, element: Json): VNode {
  const style = (element.style ?? {}) as Record<string, boolean>;
  let node: VNode;
  switch (element.type) {
    case 'text':
      node = text(str(element.text) ?? '');
      break;
    case 'link':
      node = link(ctx, str(element.url) ?? '', [text(str(element.text) ?? str(element.url) ?? '')]);
      break;
    case 'user':
      node = h('span', { class: 'mention user' }, [`@${userLabel(ctx, str(element.user_id) ?? '')}`]);
      break;
    case 'channel':
      node = h('span', { class: 'mention channel' }, [
        `#${channelLabel(ctx, str(element.channel_id) ?? '')}`,
      ]);
      break;
    case 'broadcast':
      node = h('span', { class: 'mention special' }, [`@${str(element.range) ?? ''}`]);
      break;
    case 'emoji':
      node = text(emojiFor(str(element.name) ?? '') ?? `:${str(element.name) ?? ''}:`);
      break;
    case 'date':
      node = renderDate(
        ctx,
        Number(element.timestamp),
        str(element.format) ?? '{date_short}',
        str(element.fallback) ?? '',
        str(element.url),
      );
      break;
    default:
      node = text(`[${String(element.type)}]`);
  }
  if (style.code) node = h('code', {}, [node]);
  if (style.strike) node = h('s', {}, [node]);
  if (style.italic) node = h('i', {}, [node]);
  if (style.bold) node = h('b', {}, [node]);
  return node;
}
