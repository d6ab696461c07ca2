import { escapeMrkdwn } from '../text/escape.js';

export { escapeMrkdwn, invisiblesIn, visibleInvisibles } from '../text/escape.js';

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
