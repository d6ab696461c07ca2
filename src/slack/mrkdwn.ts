/**
 * Slack's mrkdwn gives `&`, `<` and `>` control meaning (`<@U1>` mentions, `<!channel>`, `<url|text>`
 * links). Escaping exactly these three makes any user or registrar text inert, as Slack's
 * "Escaping text" guidance prescribes.
 */
export function escapeMrkdwn(text: string): string {
  return visibleInvisibles(text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;'));
}

/**
 * Characters that change how text is shown without being seen: bidi embeddings, overrides and
 * isolates (U+202A–202E, U+2066–2069, the marks U+200E, U+200F, U+061C), zero-width characters
 * (U+200B–200D, U+2060–2064, U+FEFF, U+180E) and Unicode tags (U+E0000–E007F). A record holding them
 * reads reordered or shorter than it is (issue #41, "Trojan Source").
 */
export const INVISIBLE =
  /[\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff\u{e0000}-\u{e007f}]/gu;

const codePoint = (char: string) =>
  `U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;

/** Each invisible character written out as `[U+202E]`, so an approver sees exactly what is there. */
export function visibleInvisibles(text: string): string {
  return text.replace(INVISIBLE, (char) => `[${codePoint(char)}]`);
}

/** The invisible characters of `text`, written out (`U+202E`, `U+200B`); empty when there are none. */
export function invisiblesIn(text: string): string[] {
  return [...new Set(text.match(INVISIBLE) ?? [])].map(codePoint);
}

/** Escaped text inside inline code, with backticks that would close the span replaced. */
export function codeSpan(text: string): string {
  return `\`${escapeMrkdwn(text).replace(/`/g, 'ˋ')}\``;
}

/** Cut text to Slack's limit for a field, marking the cut. */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${text.slice(0, Math.max(0, max - 1))}…`;
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
