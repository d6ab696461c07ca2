import { escapeMrkdwn } from '../../slack/mrkdwn.js';

/**
 * The assistant's Markdown → Slack mrkdwn. The answer is data, never instructions: every piece of
 * text is escaped (no mention, channel ping or link can come from it), and the only links produced
 * are http(s) links, with the registrar's relative `/my/…` dashboard paths made absolute against
 * `dashboard_url`.
 *
 * Hand-written rather than a Markdown library: we need exact control of what may become active
 * mrkdwn (everything escaped, nothing passed through), and the answers use a small subset
 * (headings, emphasis, lists, code, links, images, quotes, rules). And a single-pass scanner rather
 * than regexes: patterns with lazy or nested quantifiers backtrack quadratically on answers such as
 * 100,000 `[`. Every step below is amortised O(1) per character, lookups use precomputed tables.
 */
export function markdownToMrkdwn(markdown: string, dashboardUrl: string): string {
  const out: string[] = [];
  let fence: string[] | undefined;
  for (const line of markdown.replace(/\r\n?/g, '\n').split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) {
      if (fence === undefined) {
        fence = [];
      } else {
        out.push(`\`\`\`\n${fence.map(escapeCode).join('\n')}\n\`\`\``);
        fence = undefined;
      }
      continue;
    }
    if (fence !== undefined) {
      fence.push(line);
      continue;
    }
    out.push(convertLine(line, dashboardUrl));
  }
  if (fence !== undefined) out.push(`\`\`\`\n${fence.map(escapeCode).join('\n')}\n\`\`\``);
  return out
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

const SPACE = /\s/;
const PUNCT = /[\p{P}\p{S}]/u;
/** Start and end of line count as whitespace (CommonMark's flanking rules). ASCII first: hot paths. */
function isSpace(c: string | undefined): boolean {
  const code = c === undefined ? 32 : c.charCodeAt(0);
  return code < 128 ? code === 32 || (code >= 9 && code <= 13) : SPACE.test(c ?? '');
}

function isPunct(c: string | undefined): boolean {
  const code = c === undefined ? 32 : c.charCodeAt(0);
  if (code >= 128) return PUNCT.test(c ?? '');
  return (code > 32 && code < 48) || (code > 57 && code < 65) || (code > 90 && code < 97) || (code > 122 && code < 127);
}

function skipSpaces(text: string, from: number): number {
  let i = from;
  while (i < text.length && isSpace(text[i])) i++;
  return i;
}

function convertLine(line: string, base: string): string {
  const start = skipSpaces(line, 0);
  const nest = '   '.repeat(Math.floor(start / 2));
  const first = line[start];
  if (isRule(line, start)) return '───';
  if (first === '#' && start <= 3) {
    let level = 0;
    while (line[start + level] === '#') level++;
    if (level <= 6 && start + level < line.length && isSpace(line[start + level])) {
      let title = line.slice(start + level).trim();
      let end = title.length;
      while (end > 0 && title[end - 1] === '#') end--;
      if (end === 0 || isSpace(title[end - 1])) title = title.slice(0, end).trimEnd(); // closing `##`
      return title === '' ? '' : `*${inline(title, base, true)}*`;
    }
  }
  if (
    (first === '-' || first === '*' || first === '+') &&
    start + 1 < line.length &&
    isSpace(line[start + 1])
  )
    return `${nest}• ${inline(line.slice(skipSpaces(line, start + 1)), base)}`;
  let digits = start;
  while (line.charCodeAt(digits) >= 48 && line.charCodeAt(digits) <= 57) digits++;
  const mark = line[digits];
  if (
    digits > start &&
    (mark === '.' || mark === ')') &&
    digits + 1 < line.length &&
    isSpace(line[digits + 1])
  )
    return `${nest}${line.slice(start, digits)}. ${inline(line.slice(skipSpaces(line, digits + 1)), base)}`;
  if (first === '>')
    return `> ${inline(line.slice(start + (start + 1 < line.length && isSpace(line[start + 1]) ? 2 : 1)), base)}`;
  return inline(line, base);
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
  at: number;
  length: number;
  left: number;
  canOpen: boolean;
  canClose: boolean;
  open: string;
  close: string;
}

interface Bracket {
  at: number;
  from: number;
  image: boolean;
  alt?: string;
}

/**
 * Inline spans, one pass left to right (code spans, links and images, bare URLs, emphasis runs),
 * then emphasis is paired up. Tokens are finished mrkdwn (escaped) except the emphasis runs.
 */
function inline(text: string, base: string, insideBold = false): string {
  const out: (string | Delim)[] = [];
  const brackets: Bracket[] = [];
  const code = text.includes('`') ? codeClosers(text) : new Map<number, number>();
  let dest: DestinationIndex | undefined;
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === '`') {
      let end = i;
      while (text[end] === '`') end++;
      const closer = code.get(i);
      out.push(closer === undefined ? text.slice(i, end) : `\`${escapeCode(text.slice(end, closer))}\``);
      i = closer === undefined ? end : closer + (end - i);
    } else if (c === '[' || (c === '!' && text[i + 1] === '[')) {
      brackets.push({ at: out.length, from: i + (c === '!' ? 2 : 1), image: c === '!' });
      out.push(c === '!' ? '![' : '[');
      i += c === '!' ? 2 : 1;
    } else if (c === ']') {
      const opener = brackets.pop();
      dest ??= text[i + 1] === '(' && opener !== undefined ? destinationIndex(text) : undefined;
      const target = opener && dest && text[i + 1] === '(' ? destination(text, dest, i + 1) : undefined;
      if (opener === undefined || target === undefined) {
        out.push(']');
        i++;
        continue;
      }
      const raw = text.slice(opener.from, i);
      const badge = opener.alt !== undefined && out.length === opener.at + 2; // [![alt](img)](url)
      const label = opener.image ? raw || 'image' : badge ? (opener.alt ?? '') : raw || target.href;
      out.length = opener.at;
      out.push(link(label, target.href, base));
      // Links do not nest (Slack cannot show it); the one nesting kept is a linked image (badge).
      const parent = brackets.at(-1);
      brackets.length = 0;
      if (opener.image && parent && !parent.image && parent.from === opener.from - 2)
        brackets.push({ ...parent, alt: raw || 'image' });
      i = target.end;
    } else if (c === '*' || c === '_' || c === '~') {
      let end = i;
      while (text[end] === c) end++;
      const before = text[i - 1];
      const after = text[end];
      const leftFlanking = !isSpace(after) && (!isPunct(after) || isSpace(before) || isPunct(before));
      const rightFlanking = !isSpace(before) && (!isPunct(before) || isSpace(after) || isPunct(after));
      // CommonMark's rule for `_`, applied to all three: Slack only honours its markers at word
      // boundaries, so an intraword run (snake_case, 2*3*4) stays literal.
      const canOpen = leftFlanking && (!rightFlanking || isPunct(before));
      const canClose = rightFlanking && (!leftFlanking || isPunct(after));
      const length = end - i;
      if ((c === '~' && length > 2) || (!canOpen && !canClose)) out.push(text.slice(i, end));
      else out.push({ ch: c, at: out.length, length, left: length, canOpen, canClose, open: '', close: '' });
      i = end;
    } else if (isUrlStart(text, i)) {
      // Bare URL up to whitespace (or the `]` of an open label); then, as GFM does, drop trailing
      // emphasis markers and the `)` that close surrounding prose rather than a `(` in the URL.
      let end = i;
      let parens = 0;
      for (; end < text.length; end++) {
        const u = text[end];
        if (isSpace(u) || u === '<' || u === '>' || (u === ']' && brackets.length > 0)) break;
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
      out.push(link(text.slice(i, end), text.slice(i, end), base));
      i = end;
    } else {
      let end = i + 1;
      while (end < text.length && !'`[]!*_~'.includes(text.charAt(end)) && !isUrlStart(text, end)) end++;
      out.push(escapeMrkdwn(text.slice(i, end)));
      i = end;
    }
  }
  pairEmphasis(out, insideBold);
  return out.map((t) => (typeof t === 'string' ? t : t.close + t.ch.repeat(t.left) + t.open)).join('');
}

function isUrlStart(text: string, i: number): boolean {
  return text[i] === 'h' && (text.startsWith('https://', i) || text.startsWith('http://', i));
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
      const ruleOf3 =
        (opener.canClose || token.canOpen) &&
        (opener.length + token.length) % 3 === 0 &&
        (opener.length % 3 !== 0 || token.length % 3 !== 0);
      if (token.ch === '~' ? opener.left !== token.left : ruleOf3) break;
      // Both ≥ 3 (`***x***`): italic innermost, so Slack gets `*_x_*`.
      const use =
        token.ch === '~'
          ? token.left
          : opener.left >= 3 && token.left >= 3
            ? 1
            : Math.min(2, opener.left, token.left);
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

/** For each backtick run, where the next run of the same length starts (the code span's end). */
function codeClosers(text: string): Map<number, number> {
  const closers = new Map<number, number>();
  const next = new Map<number, number>();
  for (let end = text.length; end > 0; ) {
    if (text[end - 1] !== '`') {
      end--;
      continue;
    }
    let start = end - 1;
    while (start > 0 && text[start - 1] === '`') start--;
    const closer = next.get(end - start);
    if (closer !== undefined) closers.set(start, closer);
    next.set(end - start, start);
    end = start;
  }
  return closers;
}

/** Tables that make each `](…)` an O(1) lookup, however many failed attempts a line holds. */
interface DestinationIndex {
  closeParen: Int32Array; // for a `(`: its matching `)`, or -1
  balanced: Uint8Array; // 1 where text[i…next whitespace) has balanced parentheses
  nextSpace: Int32Array;
  nextSolid: Int32Array;
  nextQuote: Int32Array; // for a quote: the next same quote
}

function destinationIndex(text: string): DestinationIndex {
  const n = text.length;
  const ix: DestinationIndex = {
    closeParen: new Int32Array(n).fill(-1),
    balanced: new Uint8Array(n),
    nextSpace: new Int32Array(n + 1).fill(n),
    nextSolid: new Int32Array(n + 1).fill(n),
    nextQuote: new Int32Array(n).fill(n),
  };
  const open: number[] = [];
  for (let i = 0; i < n; i++) {
    if (text[i] === '(') open.push(i);
    else if (text[i] === ')' && open.length > 0) ix.closeParen[open.pop() ?? 0] = i;
  }
  const lastQuote = { '"': n, "'": n };
  let depth = 0;
  let broken = false;
  for (let i = n - 1; i >= 0; i--) {
    const c = text[i] ?? '';
    const space = isSpace(c);
    ix.nextSpace[i] = space ? i : (ix.nextSpace[i + 1] ?? n);
    ix.nextSolid[i] = space ? (ix.nextSolid[i + 1] ?? n) : i;
    if (c === '"' || c === "'") {
      ix.nextQuote[i] = lastQuote[c];
      lastQuote[c] = i;
    }
    // Right to left, a `(` without its `)` further right spoils every destination starting before it.
    depth = space ? 0 : depth + (c === ')' ? 1 : c === '(' ? -1 : 0);
    broken = !space && (broken || depth < 0);
    ix.balanced[i] = !space && !broken && depth === 0 ? 1 : 0;
  }
  return ix;
}

/** `(dest)` or `(dest "title")` at `paren`; the destination may hold balanced parentheses. */
function destination(
  text: string,
  ix: DestinationIndex,
  paren: number,
): { href: string; end: number } | undefined {
  const n = text.length;
  const start = ix.nextSolid[paren + 1] ?? n;
  const close = ix.closeParen[paren] ?? -1;
  if (close >= start && (ix.nextSpace[start] ?? n) > close)
    return { href: text.slice(start, close), end: close + 1 };
  const space = ix.nextSpace[start] ?? n;
  if (space === start || ix.balanced[start] !== 1) return undefined;
  let after = ix.nextSolid[space] ?? n;
  if (text[after] === '"' || text[after] === "'") {
    const quote = ix.nextQuote[after] ?? n;
    if (quote >= n) return undefined;
    after = ix.nextSolid[quote + 1] ?? n;
  }
  return text[after] === ')' ? { href: text.slice(start, space), end: after + 1 } : undefined;
}

/** Only http(s) targets become links; a relative `/my/…` path is resolved against the dashboard. */
export function resolveLink(href: string, base: string): string | undefined {
  const against = href.startsWith('/') ? base : undefined;
  // canParse rather than catching: a throw costs ~10 µs, too slow for an answer full of `[a](b)`.
  if (!URL.canParse(href, against)) return undefined;
  const url = new URL(href, against);
  return url.protocol === 'https:' || url.protocol === 'http:' ? url.toString() : undefined;
}

function link(label: string, href: string, base: string): string {
  const url = resolveLink(href, base);
  const text = escapeMrkdwn(label).replace(/\|/g, '∣');
  if (url === undefined) return text;
  // Inside <url|text>, `|` and `>` would end the parts early; the URL is percent-encoded already.
  return `<${url.replace(/[|<>]/g, encodeURIComponent)}|${text}>`;
}

function escapeCode(text: string): string {
  return escapeMrkdwn(text).replace(/`/g, 'ˋ');
}

/**
 * Cut mrkdwn into pieces of at most `max` characters (a section's text limit is 3000), between
 * paragraphs or lines where possible, never leaving a code block open across pieces.
 */
export function splitMrkdwn(text: string, max = 2_900): string[] {
  const limit = max - 4; // room to close a code block that a cut would leave open
  const pieces: string[] = [];
  let rest = text;
  while (rest.length > max) {
    let cut = rest.lastIndexOf('\n\n', limit);
    if (cut < limit / 2) cut = rest.lastIndexOf('\n', limit);
    if (cut < limit / 2) cut = rest.lastIndexOf(' ', limit);
    if (cut <= 0) cut = limit;
    let piece = rest.slice(0, cut);
    rest = rest.slice(cut).replace(/^\s+/, '');
    if ((piece.match(/```/g) ?? []).length % 2 === 1) {
      piece = `${piece}\n\`\`\``;
      rest = `\`\`\`\n${rest}`;
    }
    pieces.push(piece);
  }
  if (rest.trim() !== '') pieces.push(rest);
  return pieces;
}
