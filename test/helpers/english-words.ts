/**
 * Finds English that reached a German reader (issue #47): the words of a message or view outside code.
 */

/**
 * English words that are no German words (nor loanwords a German sentence keeps): one of them outside
 * code means a sentence, or a value, reached a German member without the catalog. Words German shares
 * with English (`was`, `will`, `die`, `in`, `so`, `status`, `record`, `live`) are left out on purpose.
 */
const ENGLISH = new Set(
  (
    'the and with this that these those is are were has have had not from your you for been would ' +
    'should could which when where there their only each every other than then into yet ' +
    'enabled disabled removed issued pending desired secure insecure found none approval approvals ' +
    'done kept first added changed deleted checked answered served signed validated expires expired ' +
    'days hours minutes ago more less before after left what why how who nobody nothing something ' +
    'requested running following waiting missing matches unknown'
  ).split(' '),
);

/** Every text a person reads in a message or view: each `text` field, however deep. */
export function textsOf(value: unknown): string[] {
  if (typeof value === 'string') return [];
  if (Array.isArray(value)) return value.flatMap(textsOf);
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, inner]) =>
    key === 'text' && typeof inner === 'string' ? [inner] : textsOf(inner),
  );
}

/**
 * The English words of `text` outside code: code spans and blocks, Slack's `<…>` tokens (mentions,
 * links, dates), emoji shortcodes and names with dots (hosts, files) are not sentences.
 */
export function englishWords(text: string): string[] {
  const prose = text
    .replace(/```[\s\S]*?```/g, ' ')
    .replace(/`[^`]*`/g, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/:[a-z0-9_+-]+:/g, ' ')
    .replace(/\S+\.\S+/g, ' ');
  return (prose.match(/[A-Za-zÄÖÜäöüß]+/g) ?? []).filter((word) => ENGLISH.has(word.toLowerCase()));
}
