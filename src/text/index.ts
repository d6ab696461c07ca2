import { AsyncLocalStorage } from 'node:async_hooks';
import { de } from './de/index.js';
import { en } from './en/index.js';

/**
 * The text seam (docs/architecture.md "Text"): every sentence a person reads in Slack comes from one
 * typed catalog per language, looked up by key with parameters. Features return outcomes; builders
 * turn them into words through this catalog, never through literals of their own.
 *
 * English is the source catalog; another language is a second object of the same type
 * (`Catalog`), so a missing or extra key, or a parameter of another shape, does not compile.
 */
export type Locale = 'en' | 'de';
export type Catalog = typeof en;
export const LOCALES: readonly Locale[] = ['en', 'de'];

/** The catalog of a locale. */
export function texts(locale: Locale = 'en'): Catalog {
  return locale === 'de' ? de : en;
}

/**
 * The language of the work in progress (docs/architecture.md "Language"): set once where the work
 * starts — a Slack request (the person's language), a queued job (the workspace's, or the asker's) —
 * and carried through every await below it, so no builder takes a locale parameter. Node's
 * AsyncLocalStorage is made for exactly this; outside any `inLanguage` it is English.
 */
const current = new AsyncLocalStorage<Locale>();

/** Runs `work` with `locale` as the language of everything `text` says inside it. */
export function inLanguage<T>(locale: Locale, work: () => T): T {
  return current.run(locale, work);
}

/** The language `text` speaks here. */
export function currentLocale(): Locale {
  return current.getStore() ?? 'en';
}

/** `de-DE`, `de-AT`, `de-CH`, `de`: German; any other Slack locale, or none, is English. */
export function localeOfSlack(slackLocale: string | undefined): Locale {
  return slackLocale !== undefined && /^de(?:[-_]|$)/i.test(slackLocale) ? 'de' : 'en';
}

/**
 * The catalog of the current language. Read it where the words are needed — inside the function
 * that builds them — never into a module-level constant, which would keep the language of whoever
 * loaded the module (test/repository/text-catalog.unit.test.ts checks).
 */
export const text: Catalog = new Proxy(en, {
  get: (_english, area) => Reflect.get(texts(currentLocale()), area),
});
