import { escapeMrkdwn } from '../../slack/mrkdwn.js';
import { text } from '../../text/index.js';
import type { LinkResolver } from './links.js';
import { codeClosers, destinations, isPunct, isSpace, skipSpaces } from './markdown-scan.js';

/** The label of an image without alt text (`inline` below calls its own input `text`). */
const imageLabel = (): string => text.assistant.imageLabel;

/**
 * The assistant's Markdown → Slack mrkdwn. The answer is data, never instructions: every piece of
 * text is escaped (no mention, channel ping or link can come from it), and the only links produced
 * are the ones `links` accepts (`linkResolver`: http(s), allowed hosts); any other keeps only its
 * label, as plain text.
 *
 * Hand-written rather than a Markdown library: we need exact control of what may become active
 * mrkdwn (everything escaped, nothing passed through), and answers use a small subset (headings,
 * emphasis, lists, code, links, images, quotes, rules). A single-pass scanner rather than regexes:
 * patterns with lazy or nested quantifiers backtrack quadratically on answers like 100,000 `[`.
 * Every step below is amortised O(1) per character; lookups use tables built in one pass.
 */
export function markdownToMrkdwn(markdown: string, links: LinkResolver): string {
  const out: string[] = [];
  const block = (lines: string[]) => `\`\`\`\n${lines.map(escapeCode).join('\n')}\n\`\`\``;
  let fence: string[] | undefined;
  for (const line of markdown.replace(/\r\n?/g, '\n').split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) {
      if (fence) out.push(block(fence));
      fence = fence ? undefined : [];
    } else if (fence) fence.push(line);
    else out.push(convertLine(line, links));
  }
  if (fence) out.push(block(fence));
  return out
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

function convertLine(line: string, links: LinkResolver): string {
  const start = skipSpaces(line, 0);
  const nest = '   '.repeat(Math.floor(start / 2));
  const first = line[start];
  if (isRule(line, start)) return '───';
  let level = 0;
  while (line[start + level] === '#') level++;
  if (start <= 3 && level >= 1 && level <= 6 && isSpace(line[start + level])) {
    let title = line.slice(start + level).trim();
    let end = title.length;
    while (title[end - 1] === '#') end--;
    if (end === 0 || isSpace(title[end - 1])) title = title.slice(0, end).trimEnd(); // closing `##`
    return title === '' ? '' : `*${inline(title, links, true)}*`;
  }
  if ((first === '-' || first === '*' || first === '+') && isSpace(line[start + 1]))
    return `${nest}• ${inline(line.slice(skipSpaces(line, start + 1)), links)}`;
  let digits = start;
  while (line.charCodeAt(digits) >= 48 && line.charCodeAt(digits) <= 57) digits++;
  if (digits > start && (line[digits] === '.' || line[digits] === ')') && isSpace(line[digits + 1]))
    return `${nest}${line.slice(start, digits)}. ${inline(line.slice(skipSpaces(line, digits + 1)), links)}`;
  if (first === '>') return `> ${inline(line.slice(start + (isSpace(line[start + 1]) ? 2 : 1)), links)}`;
  return inline(line, links);
}

/** `---`, `***`, `___`, spaces allowed between; checked before lists, so `* * *` is a rule too. */
function isRule(line: string, start: number): boolean {
  const mark = line[start];
  if (mark !== '-' && mark !== '*' && mark !== '_') return false;
  let count = 0;
  for (let i = start; i < line.length; i++) {
    if (line[i] === mark) count++;
    else if (!isSpace(line[i])) return false;
  }
  return count >= 3;
}

/** A run of `*`, `_` or `~` that may open or close emphasis; `open`/`close` collect Slack markers. */
interface Delim {
  ch: '*' | '_' | '~';
  at: number; // token index
  length: number; // as written; `left` is what pairing has not used yet
  left: number;
  canOpen: boolean;
  canClose: boolean;
  open: string;
  close: string;
}

/**
 * Inline spans in one pass left to right (code spans, links and images, bare URLs, emphasis runs),
 * then emphasis is paired. Tokens are finished, escaped mrkdwn except the emphasis runs; literal
 * text accumulates from `lit` and is escaped in one piece.
 */
function inline(text: string, links: LinkResolver, insideBold = false): string {
  if (text === '') return '';
  const out: (string | Delim)[] = [];
  // Open `[` / `![`: token index and where the label starts, negative for an image. Numbers rather
  // than objects: 100,000 `[` would otherwise cost more in garbage collection than in parsing.
  const openAt: number[] = [];
  const openFrom: number[] = [];
  let badge: { at: number; alt: string } | undefined; // the `[` around a linked image
  const code = text.includes('`') ? codeClosers(text) : new Map<number, number>();
  let destination: ReturnType<typeof destinations> | undefined;
  let lit = 0;
  let i = 0;
  const next = () => out.length + (i > lit ? 1 : 0); // index of the token emit() is about to push
  const emit = (token: string | Delim, to: number) => {
    if (i > lit) out.push(escapeText(text.slice(lit, i)));
    out.push(token);
    lit = to;
  };
  while (i < text.length) {
    const c = text[i];
    if (c === '`') {
      let end = i;
      while (text[end] === '`') end++;
      const closer = code.get(i);
      if (closer !== undefined) emit(`\`${escapeCode(text.slice(end, closer))}\``, closer + end - i);
      i = closer === undefined ? end : closer + end - i;
    } else if (c === '[' || (c === '!' && text[i + 1] === '[')) {
      const from = i + (c === '!' ? 2 : 1);
      openAt.push(next());
      openFrom.push(c === '!' ? -from : from);
      emit(text.slice(i, from), from);
      i = from;
    } else if (c === ']') {
      const at = openAt.pop();
      const from = openFrom.pop() ?? 0;
      if (at !== undefined && text[i + 1] === '(') destination ??= destinations(text);
      const target = at !== undefined && text[i + 1] === '(' ? destination?.(i + 1) : undefined;
      if (at === undefined || target === undefined) {
        i++;
        continue;
      }
      const raw = text.slice(Math.abs(from), i);
      const linkedImage = badge?.at === at && out.length === at + 2 && lit === i; // [![alt](img)](url)
      const label = from < 0 ? raw || imageLabel() : linkedImage ? (badge?.alt ?? '') : raw || target.href;
      out.length = at; // the label's tokens, now plain label text
      out.push(link(label, target.href, links));
      lit = i = target.end;
      // Links do not nest (Slack cannot show it); the one nesting kept is a linked image (badge).
      const parent = from < 0 && openFrom.at(-1) === -from - 2 ? openAt.at(-1) : undefined;
      openAt.length = openFrom.length = 0;
      badge = parent === undefined ? undefined : { at: parent, alt: raw || imageLabel() };
      if (parent !== undefined) {
        openAt.push(parent);
        openFrom.push(-from - 2);
      }
    } else if (c === '*' || c === '_' || c === '~') {
      let end = i;
      while (text[end] === c) end++;
      const before = text[i - 1] ?? ' ';
      const after = text[end] ?? ' ';
      const leftFlanking = !isSpace(after) && (!isPunct(after) || isSpace(before) || isPunct(before));
      const rightFlanking = !isSpace(before) && (!isPunct(before) || isSpace(after) || isPunct(after));
      // CommonMark's rule for `_`, applied to all three: Slack only honours its markers at word
      // boundaries, so an intraword run (snake_case, 2*3*4) stays literal.
      const canOpen = leftFlanking && (!rightFlanking || isPunct(before));
      const canClose = rightFlanking && (!leftFlanking || isPunct(after));
      const length = end - i;
      if ((canOpen || canClose) && (c !== '~' || length <= 2))
        emit({ ch: c, at: next(), length, left: length, canOpen, canClose, open: '', close: '' }, end);
      i = end;
    } else if (text.startsWith('https://', i) || text.startsWith('http://', i)) {
      // Bare URL up to whitespace (or the `]` of an open label); then, as GFM does, drop trailing
      // emphasis markers and the `)` that close surrounding prose rather than a `(` in the URL.
      let end = i;
      let parens = 0;
      for (; end < text.length; end++) {
        const u = text[end];
        if (isSpace(u) || u === '<' || u === '>' || (u === ']' && openAt.length > 0)) break;
        parens += u === '(' ? 1 : u === ')' ? -1 : 0;
      }
      for (;;) {
        let kept = end; // sentence punctuation goes only with a `)` or marker before it, else it stays
        while (kept > i && '.,:;!?'.includes(text.charAt(kept - 1))) kept--;
        const last = text.charAt(kept - 1);
        if (last === ')' && parens < 0) parens++;
        else if (last !== '*' && last !== '_' && last !== '~') break;
        end = kept - 1;
      }
      emit(link(text.slice(i, end), text.slice(i, end), links), end);
      i = end;
    } else {
      i++;
      while (i < text.length && !'`[]!*_~h'.includes(text.charAt(i))) i++;
    }
  }
  if (text.length > lit) out.push(escapeText(text.slice(lit)));
  if (out.some((t) => typeof t !== 'string')) pairEmphasis(out, insideBold);
  let result = '';
  for (const t of out) result += typeof t === 'string' ? t : t.close + t.ch.repeat(t.left) + t.open;
  return result;
}

/**
 * CommonMark's delimiter pairing with one stack per marker: a closer pairs with the nearest opener,
 * and runs left open between them are dropped. Unlike CommonMark, a closer refused by the nearest
 * opener (rule of 3, `~` lengths) does not search deeper; that keeps it linear.
 */
function pairEmphasis(tokens: (string | Delim)[], insideBold: boolean): void {
  const stacks = { '*': [] as Delim[], _: [] as Delim[], '~': [] as Delim[] };
  const all = Object.values(stacks);
  for (const token of tokens) {
    if (typeof token === 'string') continue;
    const stack = stacks[token.ch];
    for (let opener = stack.at(-1); token.canClose && opener && token.left > 0; opener = stack.at(-1)) {
      const multipleOf3 = (opener.length + token.length) % 3 === 0 && (opener.length % 3 || token.length % 3);
      if (token.ch === '~' ? opener.left !== token.left : multipleOf3 && (opener.canClose || token.canOpen))
        break;
      // Both ≥ 3 (`***x***`): italic innermost, so Slack gets `*_x_*`.
      const both3 = opener.left >= 3 && token.left >= 3;
      const use = token.ch === '~' ? token.left : both3 ? 1 : Math.min(2, opener.left, token.left);
      const marker = token.ch === '~' ? '~' : use === 2 ? (insideBold ? '' : '*') : '_';
      opener.left -= use;
      token.left -= use;
      opener.open = marker + opener.open;
      token.close += marker;
      if (opener.left === 0) stack.pop();
      for (const other of all) while ((other.at(-1)?.at ?? -1) > opener.at) other.pop();
    }
    if (token.left > 0 && token.canOpen) stack.push(token);
  }
}

function link(label: string, href: string, links: LinkResolver): string {
  const url = links(href);
  const text = escapeMrkdwn(label).replace(/\|/g, '∣');
  if (url === undefined) return text;
  // Inside <url|text>, `|` and `>` would end the parts early; the URL is percent-encoded already.
  return `<${url.replace(/[|<>]/g, encodeURIComponent)}|${text}>`;
}

/** escapeMrkdwn, skipped when there is nothing to escape (one test instead of three replaces). */
const escapeText = (text: string) => (/[&<>]/.test(text) ? escapeMrkdwn(text) : text);

function escapeCode(text: string): string {
  return escapeMrkdwn(text).replace(/`/g, 'ˋ');
}
