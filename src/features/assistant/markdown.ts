import { escapeMrkdwn } from '../../slack/mrkdwn.js';

/**
 * The assistant's Markdown → Slack mrkdwn. The answer is data, never instructions: every piece of
 * text is escaped (no mention, channel ping or link can come from it), and the only links produced
 * are http(s) links, with the registrar's relative `/my/…` dashboard paths made absolute against
 * `dashboard_url`. A small converter rather than a Markdown library: we need exact control of what
 * may become active mrkdwn, and the answers use a small subset (headings, emphasis, lists, code,
 * links, quotes).
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

function convertLine(line: string, base: string): string {
  const heading = /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
  if (heading) return `*${inline(heading[1] ?? '', base, true)}*`;
  const bullet = /^(\s*)[-*+]\s+(.*)$/.exec(line);
  if (bullet)
    return `${'   '.repeat(Math.floor((bullet[1] ?? '').length / 2))}• ${inline(bullet[2] ?? '', base)}`;
  const numbered = /^(\s*)(\d+)[.)]\s+(.*)$/.exec(line);
  if (numbered)
    return `${'   '.repeat(Math.floor((numbered[1] ?? '').length / 2))}${numbered[2]}. ${inline(numbered[3] ?? '', base)}`;
  const quote = /^\s*>\s?(.*)$/.exec(line);
  if (quote) return `> ${inline(quote[1] ?? '', base)}`;
  if (/^\s*([-*_])(\s*\1){2,}\s*$/.test(line)) return '───';
  return inline(line, base);
}

/** Inline spans: code first (its content is literal), then links, then emphasis, all escaped. */
function inline(text: string, base: string, insideBold = false): string {
  const parts: string[] = [];
  const pattern = /`([^`]+)`|\[([^\]]+)\]\(([^)\s]+)(?:\s+"[^"]*")?\)|(https?:\/\/[^\s<>()]+)/g;
  let last = 0;
  for (const match of text.matchAll(pattern)) {
    parts.push(emphasis(text.slice(last, match.index), insideBold));
    const [, code, label, href, bare] = match;
    if (code !== undefined) parts.push(`\`${escapeCode(code)}\``);
    else if (label !== undefined && href !== undefined) parts.push(link(label, href, base));
    else if (bare !== undefined) parts.push(link(bare, bare, base));
    last = (match.index ?? 0) + match[0].length;
  }
  parts.push(emphasis(text.slice(last), insideBold));
  return parts.join('');
}

function emphasis(text: string, insideBold: boolean): string {
  // **bold** / __bold__ → *bold*; *it* → _it_ (Slack has one bold and one italic marker). Bold is
  // marked with a private-use character first so the italic pass does not see its asterisks.
  const BOLD = '\uE000';
  let out = escapeMrkdwn(text.replaceAll(BOLD, ''));
  out = out.replace(/(\*\*|__)(?=\S)(.+?)(?<=\S)\1/g, insideBold ? '$2' : `${BOLD}$2${BOLD}`);
  out = out.replace(/(^|[^\w*])\*(?=\S)([^*]+?)(?<=\S)\*(?!\w)/g, '$1_$2_');
  return out.replaceAll(BOLD, '*');
}

/** Only http(s) targets become links; a relative `/my/…` path is resolved against the dashboard. */
export function resolveLink(href: string, base: string): string | undefined {
  try {
    const url = href.startsWith('/') ? new URL(href, base) : new URL(href);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.toString() : undefined;
  } catch {
    return undefined;
  }
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
