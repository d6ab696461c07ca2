import { type ActionRef, ATTRIBUTES, safeHref, safeImageSrc, TAGS, type VNode } from './vnode.js';

/** Every control rendered from Block Kit, with the element it came from. */
export const actionRefs = new WeakMap<Element, ActionRef>();

const TAG_SET = new Set<string>(TAGS);

/**
 * The thin layer from the pure tree to the DOM: createElement, textContent and setAttribute only,
 * tags and attributes from the allow-lists, URLs checked again here so no caller can slip one past.
 */
export function toDom(node: VNode): Node {
  if (node.kind === 'text') return document.createTextNode(node.text);
  if (!TAG_SET.has(node.tag)) return document.createTextNode('');
  const element = document.createElement(node.tag);
  for (const [name, value] of Object.entries(node.attrs)) {
    if (!ATTRIBUTES.has(name)) continue;
    if (name === 'href' && safeHref(value) === undefined) continue;
    if (name === 'src' && safeImageSrc(value) === undefined) continue;
    element.setAttribute(name, value);
  }
  // `value` and `selected` as attributes only set defaults; the live state must match them too.
  if (element instanceof HTMLTextAreaElement) element.textContent = node.children.map(textOfNode).join('');
  else for (const child of node.children) element.append(toDom(child));
  if (element instanceof HTMLOptionElement && node.attrs.selected !== undefined) element.selected = true;
  if (node.action !== undefined) actionRefs.set(element, node.action);
  return element;
}

function textOfNode(node: VNode): string {
  return node.kind === 'text' ? node.text : node.children.map(textOfNode).join('');
}

/** A small helper for the page's own chrome (never for data: data goes through the renderers). */
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, string | undefined> = {},
  children: Array<Node | string> = [],
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs))
    if (value !== undefined) element.setAttribute(name, value);
  for (const child of children)
    element.append(typeof child === 'string' ? document.createTextNode(child) : child);
  return element;
}

/** The raw values a rendered control holds now (what state-values.ts turns into Slack's shape). */
export function readControl(element: Element): string[] {
  if (element instanceof HTMLSelectElement) return [...element.selectedOptions].map((o) => o.value);
  if (element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement) return [element.value];
  if (element instanceof HTMLButtonElement) return [element.value];
  return [...element.querySelectorAll('input')].filter((i) => i.checked).map((i) => i.value);
}

/** Put values back into a control (a view update keeps what the person already typed). */
export function writeControl(element: Element, values: string[]): void {
  if (element instanceof HTMLSelectElement) {
    for (const option of element.options) option.selected = values.includes(option.value);
  } else if (element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement) {
    element.value = values[0] ?? '';
  } else {
    for (const input of element.querySelectorAll('input')) input.checked = values.includes(input.value);
  }
}

/** Controls under `root` that came from Block Kit, with their element JSON. */
export function controlsIn(root: Element): Array<{ element: Element; ref: ActionRef }> {
  const found: Array<{ element: Element; ref: ActionRef }> = [];
  for (const element of root.querySelectorAll('[data-action-id]')) {
    const ref = actionRefs.get(element);
    if (ref !== undefined) found.push({ element, ref });
  }
  return found;
}
