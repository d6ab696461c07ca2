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

/** The catalog of a locale. */
export function texts(locale: Locale = 'en'): Catalog {
  return locale === 'de' ? de : en;
}

/** The English catalog, for code that has no person's locale at hand yet. */
export const text: Catalog = en;
