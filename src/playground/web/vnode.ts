/**
 * A tiny element tree: what the pure renderers produce and the DOM layer (dom.ts) turns into
 * elements with createElement/textContent/setAttribute only. Keeping Block Kit → tree pure lets the
 * tests run in Node and check that nothing Regdesk (or a registrar) sends can become markup.
 */

/** Where an interactive element lives, so the page can build Slack's `block_actions` payload. */
export interface ActionRef {
  /** The Block Kit element exactly as Regdesk sent it. */
  element: Record<string, unknown>;
  blockId: string;
  /** Inputs in modals only report through `view.state.values` unless the block dispatches. */
  dispatch: boolean;
}

export interface VText {
  kind: 'text';
  text: string;
}

export interface VElement {
  kind: 'el';
  tag: Tag;
  attrs: Record<string, string>;
  children: VNode[];
  action?: ActionRef;
}

export type VNode = VText | VElement;

/** The only tags the renderers may produce; dom.ts refuses anything else. */
export const TAGS = [
  'a',
  'b',
  'bdi',
  'blockquote',
  'br',
  'button',
  'code',
  'div',
  'fieldset',
  'h2',
  'hr',
  'i',
  'img',
  'input',
  'label',
  'legend',
  'li',
  'ol',
  'option',
  'p',
  'pre',
  's',
  'select',
  'span',
  'textarea',
  'time',
  'ul',
] as const;
export type Tag = (typeof TAGS)[number];

/** Attributes dom.ts copies; event-handler attributes (`on…`) and `style` can never be set. */
export const ATTRIBUTES = new Set([
  'alt',
  'aria-describedby',
  'aria-invalid',
  'aria-label',
  'checked',
  'class',
  'data-action-id',
  'data-block-id',
  'data-element-type',
  'data-testid',
  'datetime',
  'dir',
  'disabled',
  'download',
  'for',
  'href',
  'id',
  'max',
  'maxlength',
  'min',
  'minlength',
  'multiple',
  'name',
  'placeholder',
  'rel',
  'required',
  'role',
  'rows',
  'selected',
  'src',
  'step',
  'target',
  'title',
  'type',
  'value',
]);

export function text(value: string): VText {
  return { kind: 'text', text: neutraliseBidi(value) };
}

export function h(
  tag: Tag,
  attrs: Record<string, string | undefined> = {},
  children: Array<VNode | string> = [],
): VElement {
  const kept: Record<string, string> = {};
  for (const [key, value] of Object.entries(attrs)) if (value !== undefined) kept[key] = value;
  return {
    kind: 'el',
    tag,
    attrs: kept,
    children: children.map((child) => (typeof child === 'string' ? text(child) : child)),
  };
}

/**
 * Explicit bidi embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069) let a string
 * reorder the text around it ("Trojan Source"). They are shown as a visible replacement character;
 * the marks (LRM/RLM) stay, and every rendered text container isolates itself (style.css).
 */
const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069]/g;
export function neutraliseBidi(value: string): string {
  return value.replace(BIDI_CONTROLS, '\uFFFD');
}

/** Links go out only as http, https or mailto; anything else is shown as text. */
export function safeHref(raw: string): string | undefined {
  const url = raw.trim();
  if (hasControlOrSpace(url)) return undefined;
  return /^(https?:\/\/[^/]|mailto:[^/])/i.test(url) ? url : undefined;
}

/** Images load only over http(s); a `javascript:` or `data:` source is dropped. */
export function safeImageSrc(raw: string): string | undefined {
  const url = raw.trim();
  return /^https?:\/\/[^/\s]/i.test(url) && !hasControlOrSpace(url) ? url : undefined;
}

/** Browsers strip tabs and newlines inside URLs (`java\nscript:`), so any of them disqualifies one. */
function hasControlOrSpace(url: string): boolean {
  for (const char of url) {
    const code = char.codePointAt(0) ?? 0;
    if (code <= 0x20 || code === 0x7f || /\s/.test(char)) return true;
  }
  return false;
}

/** The text a node would show, as `textContent` would return it (for tests and labels). */
export function textOf(node: VNode): string {
  if (node.kind === 'text') return node.text;
  return node.children.map(textOf).join('');
}

/** Every element of the tree, depth first (tests look for tags, attributes and actions). */
export function elementsOf(node: VNode): VElement[] {
  if (node.kind === 'text') return [];
  return [node, ...node.children.flatMap(elementsOf)];
}
