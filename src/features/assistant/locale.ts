/** The languages Regdesk recognises in a question; the registrar answers in either. */
export type Language = 'de' | 'en';

// Frequent function words: short and common, so a question of a few words carries several of them.
const GERMAN = new Set(
  'ich wie was wo wann warum wer welche welcher welches kann können muss müssen soll sollte ist sind wird werden habe hat haben mein meine meinen meiner unsere unser der die das dem den des ein eine einen einem nicht und oder für mit bei auf aus von zu zum zur ist es gibt sich bitte danke domain domains'
    .split(' ')
    // "domain(s)" is shared by both languages: it must not count for either.
    .filter((word) => !word.startsWith('domain')),
);
const ENGLISH = new Set(
  'i how what where when why who which can could must should is are will would have has my our the a an not and or for with at on from to of it there please thanks do does did'.split(
    ' ',
  ),
);

/**
 * The language a question is clearly written in, or undefined. A small heuristic, documented in
 * docs/requirements.md (assistant, locale): German when it has umlauts or ß, or at least two German
 * function words and more German than English ones; English when it has at least two English
 * function words, no umlaut, and more English than German ones. Anything shorter or mixed is unclear.
 */
export function languageOf(question: string): Language | undefined {
  const words = question.toLowerCase().match(/[\p{L}']+/gu) ?? [];
  const german = words.filter((word) => GERMAN.has(word)).length;
  const english = words.filter((word) => ENGLISH.has(word)).length;
  const umlauts = /[äöüß]/i.test(question);
  if ((umlauts && german >= english) || (german >= 2 && german > english)) return 'de';
  if (!umlauts && english >= 2 && english > german) return 'en';
  return undefined;
}

/**
 * The locale sent to the registrar (`locale`, docs/registrar-api.md): the asker's Slack locale
 * (`users.info` with `include_locale`), unless the question is clearly in the other language; then
 * that language's locale. Without a Slack locale, a clear language still picks one.
 */
export function registrarLocale(slackLocale: string | undefined, question: string): string | undefined {
  const language = languageOf(question);
  const slackLanguage = slackLocale?.slice(0, 2).toLowerCase();
  if (language === undefined || language === slackLanguage) return slackLocale;
  return language === 'de' ? 'de-DE' : 'en-US';
}
