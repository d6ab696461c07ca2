/**
 * Slack's mrkdwn gives `&`, `<` and `>` control meaning (`<@U1>` mentions, `<!channel>`, `<url|text>`
 * links). Escaping exactly these three makes any user or registrar text inert, as Slack's
 * "Escaping text" guidance prescribes.
 *
 * Escaping is idempotent: an `&` that already begins one of the three entities is left alone, so text
 * escaped by a builder and again by the catalog (its default, src/text/index.ts) reads the same.
 * Slack decodes an entity for display without reading the result as a token again, so text that
 * arrives holding `&lt;` shows `<` and stays inert.
 */
export function escapeMrkdwn(text: string): string {
  return visibleInvisibles(
    text
      .replace(/&(?!(?:amp|lt|gt);)/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;'),
  );
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

/**
 * Regdesk's own mrkdwn — a mention, a `<!date^…>` token, a link or a sentence it built — handed to the
 * catalog as it is. Every other string parameter is escaped there; a parameter that carries markup
 * is typed `Markup`, so passing raw text to it does not compile. Catalog functions interpolate it
 * (`${p.when}`), which reads `toString`.
 */
export class Markup {
  constructor(readonly mrkdwn: string) {}
  toString(): string {
    return this.mrkdwn;
  }
}

/** Marks `mrkdwn` as Regdesk's own, to pass through the catalog unescaped. */
export function markup(mrkdwn: string): Markup {
  return new Markup(mrkdwn);
}
