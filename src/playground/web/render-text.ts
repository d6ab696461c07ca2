import { chromeFor } from './chrome.js';
import { formatSlackDate } from './dates.js';
import { emojiFor } from './emoji.js';
import { type Inline, type MrkdwnBlock, parseMrkdwn, SHORTCODE } from './mrkdwn.js';
import type { PlaygroundChannel, PlaygroundUser } from './protocol.js';
import { h, safeHref, text, type VElement, type VNode } from './vnode.js';

/** What rendering needs to know about the workspace and the person looking at it. */
export interface RenderContext {
  users: PlaygroundUser[];
  channels: PlaygroundChannel[];
  bot: { userId: string; name: string };
  /** The acting user: dates render in their zone, the page's own words in their language. */
  viewer: { tz: string; locale: string };
  now: number;
  /** Per-block errors of the modal being rendered (`response_action: errors`). */
  errors?: Record<string, string>;
}

export function userLabel(ctx: RenderContext, id: string): string {
  if (id === ctx.bot.userId) return ctx.bot.name;
  return ctx.users.find((u) => u.id === id)?.name ?? id;
}

export function channelLabel(ctx: RenderContext, id: string): string {
  return ctx.channels.find((c) => c.id === id)?.name ?? id;
}

/** A Block Kit text object (`mrkdwn` or `plain_text`). */
export function renderTextObject(ctx: RenderContext, value: unknown, className = 'text'): VElement {
  const object = (value ?? {}) as { type?: unknown; text?: unknown; emoji?: unknown; verbatim?: unknown };
  const raw = typeof object.text === 'string' ? object.text : '';
  if (object.type === 'mrkdwn') return renderMrkdwn(ctx, raw, className);
  return h('span', { class: `${className} plain`, dir: 'auto' }, [plainText(raw, object.emoji !== false)]);
}

const SHORTCODES = new RegExp(SHORTCODE.source.slice(1), 'g');

/** Plain text shows exactly what was sent, except `:emoji:` codes (Slack's `emoji: true` default). */
export function plainText(raw: string, emoji = true): string {
  if (!emoji) return raw;
  return raw.replace(SHORTCODES, (whole) => emojiFor(whole.slice(1, -1)) ?? whole);
}

export function renderMrkdwn(ctx: RenderContext, source: string, className = 'text'): VElement {
  return h(
    'div',
    { class: `${className} mrkdwn`, dir: 'auto' },
    parseMrkdwn(source).map((block) => renderBlock(ctx, block)),
  );
}

function renderBlock(ctx: RenderContext, block: MrkdwnBlock): VNode {
  switch (block.t) {
    case 'para':
      return h('p', {}, renderInlines(ctx, block.children));
    case 'pre':
      return h('pre', {}, [block.text]);
    case 'quote':
      return h(
        'blockquote',
        {},
        block.children.map((child) => renderBlock(ctx, child)),
      );
    case 'list':
      return h(
        block.ordered ? 'ol' : 'ul',
        {},
        block.items.map((item) => h('li', {}, renderInlines(ctx, item))),
      );
  }
}

export function renderInlines(ctx: RenderContext, nodes: Inline[]): VNode[] {
  return nodes.map((node) => renderInline(ctx, node));
}

function renderInline(ctx: RenderContext, node: Inline): VNode {
  switch (node.t) {
    case 'text':
      return text(node.text);
    case 'br':
      return h('br');
    case 'bold':
      return h('b', {}, renderInlines(ctx, node.children));
    case 'italic':
      return h('i', {}, renderInlines(ctx, node.children));
    case 'strike':
      return h('s', {}, renderInlines(ctx, node.children));
    case 'code':
      return h('code', {}, [node.text]);
    case 'link':
      return link(ctx, node.href, renderInlines(ctx, node.children));
    case 'user':
      return h('span', { class: 'mention user', title: node.id }, [`@${userLabel(ctx, node.id)}`]);
    case 'channel':
      return h('span', { class: 'mention channel', title: node.id }, [
        `#${node.label ?? channelLabel(ctx, node.id)}`,
      ]);
    case 'special':
      return h('span', { class: 'mention special' }, [`@${node.name}`]);
    case 'emoji':
      return text(emojiFor(node.name) ?? `:${node.name}:`);
    case 'date':
      return renderDate(ctx, node.seconds, node.format, node.fallback, node.link);
  }
}

/** A link when the target is http(s) or mailto; otherwise the label as plain text. */
export function link(ctx: RenderContext, href: string, children: VNode[]): VNode {
  const safe = safeHref(href);
  if (safe === undefined)
    return h('span', { class: 'unsafe-link', title: chromeFor(ctx.viewer.locale).linkNotFollowed }, children);
  return h('a', { href: safe, target: '_blank', rel: 'noopener noreferrer nofollow' }, children);
}

export function renderDate(
  ctx: RenderContext,
  seconds: number,
  format: string,
  fallback: string,
  href?: string,
): VNode {
  let shown: string;
  try {
    shown = formatSlackDate(seconds, format, ctx.viewer, ctx.now);
  } catch {
    shown = fallback;
  }
  const node = h('time', { datetime: new Date(seconds * 1000).toISOString(), title: fallback }, [shown]);
  return href === undefined ? node : link(ctx, href, [node]);
}
