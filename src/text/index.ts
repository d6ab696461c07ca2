import { AsyncLocalStorage } from 'node:async_hooks';
import { de } from './de/index.js';
import { en } from './en/index.js';
import { escapeMrkdwn } from './escape.js';

export { Markup, markup } from './escape.js';

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

/**
 * Escaping is the catalog's default (docs/requirements.md R23, issue #41): every string parameter —
 * a zone's record, a registrar's message, a person's input — arrives escaped for mrkdwn, so text from
 * outside can never become a mention, `<!channel>` or a link in a card or a message's `text`.
 * Regdesk's own markup passes as `Markup` (`markup(…)`), the parameter's type says which.
 */
function escapedParameter(value: unknown): unknown {
  if (typeof value === 'string') return escapeMrkdwn(value);
  if (Array.isArray(value)) return value.map(escapedParameter);
  return value; // numbers, booleans, Markup
}

function escaping(entry: unknown): unknown {
  if (typeof entry !== 'function') return entry;
  return (params: Record<string, unknown>) =>
    entry(Object.fromEntries(Object.entries(params).map(([key, value]) => [key, escapedParameter(value)])));
}

/**
 * A catalog whose entries are wrapped when first read and kept: a process pays for the sentences it
 * says, not for a wrapper around each of the 1,400 in each language (0.3 MB at start, issue #49).
 */
function guarded(catalog: Catalog): Catalog {
  const areas = new Map<PropertyKey, unknown>();
  return new Proxy(catalog, {
    get: (raw, area) => {
      if (!areas.has(area)) {
        const entries: unknown = Reflect.get(raw, area);
        areas.set(area, typeof entries === 'object' && entries !== null ? guardedArea(entries) : entries);
      }
      return areas.get(area);
    },
  });
}

function guardedArea(entries: object): object {
  const wrapped = new Map<PropertyKey, unknown>();
  return new Proxy(entries, {
    get: (raw, key) => {
      if (!wrapped.has(key)) wrapped.set(key, escaping(Reflect.get(raw, key)));
      return wrapped.get(key);
    },
  });
}

const catalogs: Record<Locale, Catalog> = { en: guarded(en), de: guarded(de) };

/** The catalog of a locale, its parameters escaped unless marked as markup. */
export function texts(locale: Locale = 'en'): Catalog {
  return catalogs[locale];
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
