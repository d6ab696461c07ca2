import type { RenderContext } from '../../src/playground/web/render-text.js';
import { renderTextObject } from '../../src/playground/web/render-text.js';
import type { VNode } from '../../src/playground/web/vnode.js';

/**
 * Shortcodes the playground would show as typed (`:red_circle:` as text) in a Slack payload: every
 * text object (`mrkdwn` and `plain_text`) and a message's `text`, rendered by the playground's own
 * renderer. Code spans and blocks are left out (Slack shows codes there as typed, too), and so are
 * names of hex digits alone (an IPv6 address's `:db8:`). Issue #47.
 */
export function unrenderedShortcodes(payload: unknown): string[] {
  const left: string[] = [];
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) {
      for (const child of node) visit(child);
      return;
    }
    if (node === null || typeof node !== 'object') return;
    const json = node as Record<string, unknown>;
    const isText = (json.type === 'mrkdwn' || json.type === 'plain_text') && typeof json.text === 'string';
    if (isText) left.push(...leftIn(renderTextObject(CONTEXT, json)));
    for (const [key, child] of Object.entries(json)) {
      // Values and metadata are data, not shown; a message's fallback `text` is shown as mrkdwn.
      if (key === 'value' || key === 'private_metadata' || key === 'initial_value') continue;
      if (key === 'text' && typeof child === 'string' && !isText)
        left.push(...leftIn(renderTextObject(CONTEXT, { type: 'mrkdwn', text: child })));
      else visit(child);
    }
  };
  visit(payload);
  return left;
}

const CONTEXT: RenderContext = {
  users: [],
  channels: [],
  bot: { userId: 'UBOT', name: 'Regdesk' },
  viewer: { tz: 'UTC', locale: 'en-US' },
  now: 0,
};

function shownText(node: VNode): string {
  if (node.kind === 'text') return node.text;
  if (node.tag === 'code' || node.tag === 'pre') return ' ';
  return node.children.map(shownText).join('');
}

function leftIn(node: VNode): string[] {
  return [...shownText(node).matchAll(/:([a-z0-9_+-]+):/g)]
    .map((match) => match[0])
    .filter((code) => !/^:[0-9a-f]+:$/.test(code));
}
