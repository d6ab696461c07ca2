/**
 * Slack mrkdwn → a small syntax tree (pure; rendered by render-text.ts). It follows Slack's
 * "Formatting text for app surfaces": `*bold*`, `_italic_`, `~strike~`, `` `code` ``, ``` blocks,
 * `>` quotes, `<url|text>` links, `<@U…>`/`<#C…>` mentions, `<!here>`-style specials, `<!date^…>`,
 * and the three entities `&lt;` `&gt;` `&amp;`. Whatever is not one of these stays text.
 */

export type Inline =
  | { t: 'text'; text: string }
  | { t: 'bold' | 'italic' | 'strike'; children: Inline[] }
  | { t: 'code'; text: string }
  /** `href` is the raw target; render-text.ts decides whether it may become a link. */
  | { t: 'link'; href: string; children: Inline[] }
  | { t: 'user'; id: string; label?: string }
  | { t: 'channel'; id: string; label?: string }
  | { t: 'special'; name: string }
  | { t: 'date'; seconds: number; format: string; fallback: string; link?: string }
  | { t: 'emoji'; name: string }
  | { t: 'br' };

export type MrkdwnBlock =
  | { t: 'para'; children: Inline[] }
  | { t: 'pre'; text: string }
  | { t: 'quote'; children: MrkdwnBlock[] }
  | { t: 'list'; ordered: boolean; items: Inline[][] };

/** Slack escapes exactly these three; every other `&…;` is literal text. */
export function decodeEntities(value: string): string {
  return value.replace(/&(lt|gt|amp);/g, (_, name: string) =>
    name === 'lt' ? '<' : name === 'gt' ? '>' : '&',
  );
}

export function parseMrkdwn(source: string): MrkdwnBlock[] {
  const blocks: MrkdwnBlock[] = [];
  // Code fences first: nothing inside one is formatting.
  const parts = source.split('```');
  parts.forEach((part, i) => {
    const isCode = i % 2 === 1 && i < parts.length - 1;
    if (isCode) blocks.push({ t: 'pre', text: decodeEntities(part.replace(/^\n/, '').replace(/\n$/, '')) });
    else blocks.push(...parseLines((i % 2 === 1 ? '```' : '') + part));
  });
  return blocks;
}

const QUOTE = /^(?:>|&gt;) ?/;
const BULLET = /^\s*(?:[-•◦▪]) +/;
const ORDERED = /^\s*\d{1,3}[.)] +/;

function parseLines(source: string): MrkdwnBlock[] {
  const blocks: MrkdwnBlock[] = [];
  const lines = source.split('\n');
  let i = 0;
  while (i < lines.length) {
    const line = lines[i] ?? '';
    if (QUOTE.test(line)) {
      const quoted: string[] = [];
      while (i < lines.length && QUOTE.test(lines[i] ?? ''))
        quoted.push((lines[i++] ?? '').replace(QUOTE, ''));
      blocks.push({ t: 'quote', children: parseLines(quoted.join('\n')) });
    } else if (BULLET.test(line) || ORDERED.test(line)) {
      const ordered = ORDERED.test(line);
      const marker = ordered ? ORDERED : BULLET;
      const items: Inline[][] = [];
      while (i < lines.length && marker.test(lines[i] ?? ''))
        items.push(parseInline((lines[i++] ?? '').replace(marker, '')));
      blocks.push({ t: 'list', ordered, items });
    } else if (line.trim() === '') {
      i++;
    } else {
      const para: string[] = [];
      while (i < lines.length) {
        const next = lines[i] ?? '';
        if (next.trim() === '' || QUOTE.test(next) || BULLET.test(next) || ORDERED.test(next)) break;
        para.push(next);
        i++;
      }
      blocks.push({ t: 'para', children: parseInline(para.join('\n')) });
    }
  }
  return blocks;
}

/**
 * An emoji shortcode, with Slack's skin tone when one follows (`:+1::skin-tone-3:`). Its name is
 * opaque: an `_` or `*` inside it never opens or closes formatting (`:large_blue_circle:`).
 */
export const SHORTCODE = /^:[a-z0-9_+-]{1,64}:(?::skin-tone-[2-6]:)?/;

const MARKERS: Record<string, 'bold' | 'italic' | 'strike'> = { '*': 'bold', _: 'italic', '~': 'strike' };
const WORD = /[\p{L}\p{N}]/u;

/** Slack formats `*x*` only at word edges: `a*b*c` and `snake_case_name` stay as typed. */
function opens(s: string, i: number): boolean {
  const before = i === 0 ? '' : (s[i - 1] ?? '');
  const after = s[i + 1] ?? '';
  return (before === '' || !WORD.test(before)) && after !== '' && !/\s/.test(after) && after !== s[i];
}

function closes(s: string, j: number, start: number): boolean {
  const before = s[j - 1] ?? '';
  const after = s[j + 1] ?? '';
  return j > start && !/\s/.test(before) && (after === '' || !WORD.test(after));
}

export function parseInline(s: string): Inline[] {
  const out: Inline[] = [];
  let buffer = '';
  const flush = () => {
    if (buffer !== '') out.push({ t: 'text', text: decodeEntities(buffer) });
    buffer = '';
  };
  let i = 0;
  while (i < s.length) {
    const c = s[i] ?? '';
    if (c === '\n') {
      flush();
      out.push({ t: 'br' });
      i++;
      continue;
    }
    if (c === '<') {
      const end = s.indexOf('>', i + 1);
      const inner = end === -1 ? '' : s.slice(i + 1, end);
      if (end !== -1 && !inner.includes('<') && !inner.includes('\n')) {
        flush();
        out.push(angle(inner));
        i = end + 1;
        continue;
      }
    }
    if (c === '`') {
      const end = s.indexOf('`', i + 1);
      if (end > i + 1 && !s.slice(i + 1, end).includes('\n')) {
        flush();
        out.push({ t: 'code', text: decodeEntities(s.slice(i + 1, end)) });
        i = end + 1;
        continue;
      }
    }
    const kind = MARKERS[c];
    if (kind !== undefined && opens(s, i)) {
      const end = findClose(s, i);
      if (end !== -1) {
        flush();
        out.push({ t: kind, children: parseInline(s.slice(i + 1, end)) });
        i = end + 1;
        continue;
      }
    }
    if (c === ':') {
      const match = SHORTCODE.exec(s.slice(i));
      if (match !== null) {
        flush();
        out.push({ t: 'emoji', name: match[0].slice(1, -1) });
        i += match[0].length;
        continue;
      }
    }
    buffer += c;
    i++;
  }
  flush();
  return out;
}

function findClose(s: string, start: number): number {
  const marker = s[start];
  for (let j = start + 2; j < s.length; j++) {
    const c = s[j];
    if (c === '\n') return -1;
    // A link or code span is opaque: a marker inside it cannot close the span around it.
    if (c === '<') {
      const end = s.indexOf('>', j);
      if (end !== -1) j = end;
      continue;
    }
    // So is a shortcode: `_see :large_blue_circle:_` closes after it, not inside it.
    const shortcode = c === ':' ? SHORTCODE.exec(s.slice(j)) : null;
    if (shortcode !== null) {
      j += shortcode[0].length - 1;
      continue;
    }
    if (c === marker && closes(s, j, start + 1)) return j;
  }
  return -1;
}

/** `<…>`: a link, a mention, a special or a date token (Slack's "Advanced formatting"). */
function angle(inner: string): Inline {
  const bar = inner.indexOf('|');
  const target = bar === -1 ? inner : inner.slice(0, bar);
  const label = bar === -1 ? undefined : inner.slice(bar + 1);
  const withLabel = <T extends object>(node: T): T & { label?: string } =>
    label === undefined ? node : { ...node, label: decodeEntities(label) };
  if (/^@[UW][A-Z0-9]+$/.test(target)) return withLabel({ t: 'user' as const, id: target.slice(1) });
  if (/^#C[A-Z0-9]+$/.test(target) || /^#[GD][A-Z0-9]+$/.test(target))
    return withLabel({ t: 'channel' as const, id: target.slice(1) });
  if (target.startsWith('!date^')) {
    const [, seconds, format, link] = target.split('^');
    const value = Number(seconds);
    if (Number.isFinite(value) && format !== undefined) {
      return {
        t: 'date',
        seconds: value,
        format,
        fallback: decodeEntities(label ?? ''),
        ...(link === undefined ? {} : { link: decodeEntities(link) }),
      };
    }
    return { t: 'text', text: decodeEntities(label ?? inner) };
  }
  if (/^!(here|channel|everyone)$/.test(target)) return { t: 'special', name: target.slice(1) };
  // `<!subteam^S…|@handle>` and other specials: Slack shows the label, inert here.
  if (target.startsWith('!')) return { t: 'text', text: decodeEntities(label ?? target.slice(1)) };
  // Only a target with a scheme is a link attempt; `<script>` and the like stay as typed.
  if (!/^[a-z][a-z0-9+.-]*:/i.test(target)) return { t: 'text', text: `<${decodeEntities(inner)}>` };
  const children: Inline[] = [{ t: 'text', text: decodeEntities(label ?? target) }];
  return { t: 'link', href: decodeEntities(target), children };
}
