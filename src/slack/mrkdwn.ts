/**
 * Slack's mrkdwn gives `&`, `<` and `>` control meaning (`<@U1>` mentions, `<!channel>`, `<url|text>`
 * links). Escaping exactly these three makes any user or registrar text inert, as Slack's
 * "Escaping text" guidance prescribes.
 */
export function escapeMrkdwn(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
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
