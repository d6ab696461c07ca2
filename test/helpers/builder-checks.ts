import { readFileSync } from 'node:fs';
import type { KnownBlock } from '@slack/types';
import { describe, expect, it } from 'vitest';
import { inLanguage, LOCALES, type Locale } from '../../src/text/index.js';
import { blockKitViolations } from './block-kit.js';
import { LIVE_HOSTILE } from './builder-fixtures.js';
import { unrenderedShortcodes } from './unrendered-shortcodes.js';

/**
 * Every builder of a Slack message, modal or Home view, rendered in every language at the largest
 * its inputs realistically get. German runs longer than English, so a limit may break in German
 * only; and a builder that keeps an English copy of its words (read before the language was set)
 * renders German identical to English.
 *
 * Each feature lists its builders as `BUILDERS` in its own `test/<feature>/builders.unit.test.ts` and
 * hands them to `checkBuilders`, which runs every check below over them. A builder added later is one
 * line of its feature's `BUILDERS`; a feature added later is one such file (its fixtures there, or in
 * builder-fixtures.ts when another feature shows them too).
 */

export type Surface = 'message' | 'modal' | 'home';
/** `dates`: the builder shows times, which must reach Slack as `<!date^…>` tokens (each reader's zone). */
export type Traits = { dates?: true };
export type Entry = [name: string, surface: Surface, build: () => unknown, traits?: Traits];
export const DATES: Traits = { dates: true };

/** What Slack receives: a message's text alone, a list of blocks, or the builder's message or view. */
function asPayload(output: unknown): unknown {
  if (typeof output === 'string') return { text: output };
  if (Array.isArray(output)) return { blocks: output as KnownBlock[] };
  return output;
}

async function render(locale: Locale, build: () => unknown): Promise<unknown> {
  return asPayload(await inLanguage(locale, build));
}

type Json = Record<string, unknown>;
const limits = JSON.parse(
  readFileSync(new URL('../fixtures/block-kit/limits.json', import.meta.url), 'utf8'),
) as Record<string, Record<string, { value: number }>>;
const limit = (section: string, name: string): number => limits[section]?.[name]?.value ?? 0;
const textOf = (value: unknown): string =>
  typeof value === 'object' && value !== null ? String((value as Json).text ?? '') : '';

/** Slack's Block Kit reference: plain_text_input `max_length` is at most 3000 (not in limits.json). */
const PLAIN_TEXT_INPUT_MAX = 3000;

/**
 * Limits of test/fixtures/block-kit/limits.json the shared helper does not check: options (selects,
 * checkboxes, radio buttons, overflow menus), placeholders, input hints, confirm dialog buttons.
 */
function moreViolations(payload: unknown): string[] {
  const problems: string[] = [];
  const visit = (node: unknown, at: string): void => {
    if (Array.isArray(node)) {
      node.forEach((child, i) => {
        visit(child, `${at}[${i}]`);
      });
      return;
    }
    if (node === null || typeof node !== 'object') return;
    const json = node as Json;
    const options = [
      ...(Array.isArray(json.options) ? (json.options as Json[]) : []),
      ...(Array.isArray(json.initial_options) ? (json.initial_options as Json[]) : []),
      ...(typeof json.initial_option === 'object' ? [json.initial_option as Json] : []),
    ];
    if (Array.isArray(json.options) && json.options.length > limit('elements', 'static_select.options.max'))
      problems.push(`${at}: ${json.options.length} options`);
    for (const option of options) {
      const said = textOf(option.text);
      if (said.length > limit('composition', 'option.text.max'))
        problems.push(`${at}: option text ${said.length} > 75: "${said}"`);
      if (String(option.value ?? '').length > limit('composition', 'option.value.max'))
        problems.push(`${at}: option value too long`);
    }
    if (textOf(json.placeholder).length > limit('elements', 'select.placeholder.max'))
      problems.push(`${at}: placeholder ${textOf(json.placeholder).length} > 150`);
    if (json.type === 'input' && textOf(json.hint).length > limit('blocks', 'input.hint.max'))
      problems.push(`${at}: hint too long`);
    // A text input may not start with more than it holds (plain_text_input's max_length, at most 3000).
    if (json.type === 'plain_text_input' && String(json.initial_value ?? '').length > PLAIN_TEXT_INPUT_MAX)
      problems.push(`${at}: initial_value ${String(json.initial_value).length} > ${PLAIN_TEXT_INPUT_MAX}`);
    // A confirmation dialog: its buttons hold 30 characters.
    if (json.deny !== undefined && json.confirm !== undefined) {
      for (const key of ['confirm', 'deny'])
        if (textOf(json[key]).length > limit('composition', `confirm.${key}.max`))
          problems.push(`${at}: confirm ${key} ${textOf(json[key]).length} > 30: "${textOf(json[key])}"`);
    }
    for (const [key, child] of Object.entries(json)) visit(child, `${at}.${key}`);
  };
  visit(payload, '');
  return problems;
}

/** Slack date tokens; the fallback after `|` is what a client without token support shows. */
const DATE_TOKEN = /<!date\^\d+\^[^|>]*\|[^>]*>/g;
const tokens = (payload: unknown): string[] => JSON.stringify(payload).match(DATE_TOKEN) ?? [];
/** A `<!date^` that is no whole token (cut by a length limit, or escaped): Slack shows it raw. */
const brokenTokens = (payload: unknown): string[] =>
  JSON.stringify(payload)
    .replace(DATE_TOKEN, '')
    .match(/(?:<|&lt;)!date\^.{0,60}/g) ?? [];
/**
 * A date Regdesk formatted itself, left once the tokens are gone: a year of the fixtures' decade or
 * a month's name, in either language.
 */
const formattedDates = (payload: unknown): string[] =>
  JSON.stringify(payload)
    .replace(DATE_TOKEN, '')
    .match(
      /\b20[23]\d\b|\b(?:January|February|March|April|June|July|August|September|October|November|December|Januar|Februar|März|Juni|Juli|Oktober|Dezember)\b/g,
    ) ?? [];

const NOT_RENDERED = new Set(['initial_value', 'value', 'private_metadata']);

/**
 * Declares, for one feature's `builders`, the checks every builder passes: within Block Kit's limits in
 * each language, no markup from outside let through, words of the moment's language, dates as tokens.
 */
export function checkBuilders(feature: string, builders: Entry[]): void {
  describe(`${feature} builders`, () => {
    describe.each(LOCALES)('every builder within Slack’s Block Kit limits, in %s', (locale) => {
      it.each(builders)('%s', async (_name, surface, build) => {
        const payload = await render(locale, build);
        expect([...blockKitViolations(payload, surface), ...moreViolations(payload)]).toEqual([]);
      });
    });

    describe('no builder lets markup from outside through, in any language (issue #41)', () => {
      it.each(builders)('%s', async (_name, _surface, build) => {
        for (const locale of LOCALES) {
          // What Slack renders: an input's initial value and a button's value are data, shown as typed.
          const shown = JSON.stringify(await render(locale, build), (key, value) =>
            NOT_RENDERED.has(key) ? undefined : value,
          );
          expect(shown.match(LIVE_HOSTILE), locale).toBeNull();
        }
      });
    });

    describe('every emoji shortcode is one the playground renders, in every language (issue #47)', () => {
      it.each(builders)('%s', async (_name, _surface, build) => {
        for (const locale of LOCALES)
          expect(unrenderedShortcodes(await render(locale, build)), locale).toEqual([]);
      });
    });

    describe('every builder speaks the language of the moment', () => {
      // Every builder has words of its own (headers, buttons, footers): none is data alone, so none is
      // skipped.
      it.each(builders)('%s differs in German', async (_name, _surface, build) => {
        const [english, german] = await Promise.all([render('en', build), render('de', build)]);
        expect(JSON.stringify(german)).not.toBe(JSON.stringify(english));
      });
    });

    // A feature whose builders show no times has no date checks (vitest fails a suite without tests).
    const dated = builders.filter(([, , , traits]) => traits?.dates === true);
    if (dated.length > 0) {
      describe('dates stay Slack date tokens in every language (docs/requirements.md R32)', () => {
        // German lines are longer, so a message cut to Slack's limits may hold fewer of them, and fewer
        // tokens, than in English: each language is judged on its own.
        it.each(dated)('%s', async (_name, _surface, build) => {
          for (const locale of LOCALES) {
            const payload = await render(locale, build);
            expect(tokens(payload).length, locale).toBeGreaterThan(0);
            expect(brokenTokens(payload), locale).toEqual([]);
            expect(formattedDates(payload), locale).toEqual([]);
          }
        });
      });
    }
  });
}
