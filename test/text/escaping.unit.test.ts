import { describe, expect, it } from 'vitest';
import { de } from '../../src/text/de/index.js';
import { en } from '../../src/text/en/index.js';
import { escapeMrkdwn } from '../../src/text/escape.js';
import { inLanguage, LOCALES, markup, text, texts } from '../../src/text/index.js';

/** Text from outside that is live mrkdwn when sent raw: `@channel`, a disguised link, a mention, a channel. */
const HOSTILE = '<!channel> <https://evil.example/|click> <@U0EVIL> <#C0EVIL> & <!subteam^S0EVIL>';
const LIVE = /<!channel>|<https:\/\/evil|<@U0EVIL|<#C0EVIL|<!subteam\^S0EVIL/;

type Entry = string | ((params: Record<string, unknown>) => string);
type Areas = Record<string, Record<string, Entry>>;

/** The parameters an entry reads (`p.name`), from the catalog as written. */
const paramsOf = (entry: unknown): string[] =>
  typeof entry === 'function'
    ? [...new Set([...String(entry).matchAll(/\bp\.([a-zA-Z]+)/g)].map((m) => m[1] ?? ''))]
    : [];

/**
 * Hostile text in every parameter the entry reads as text; where it needs another shape (a count, a
 * list, a flag, nothing), the first that renders. Lists hold hostile text too.
 */
function hostileSample(entry: (params: Record<string, unknown>) => string, params: string[]) {
  const sample: Record<string, unknown> = Object.fromEntries(params.map((name) => [name, HOSTILE]));
  const works = () => {
    try {
      return typeof entry(sample) === 'string';
    } catch {
      return false;
    }
  };
  for (const name of params) {
    if (works()) break;
    for (const value of [[HOSTILE, HOSTILE], 3, true, undefined]) {
      sample[name] = value;
      if (works()) break;
    }
  }
  return sample;
}

describe('the catalog escapes every parameter by default (issue #41)', () => {
  const written: Record<string, Areas> = { en: en as unknown as Areas, de: de as unknown as Areas };

  it.each(LOCALES)('no entry lets hostile text through, in %s', (locale) => {
    const served = texts(locale) as unknown as Areas;
    let checked = 0;
    for (const [area, entries] of Object.entries(written[locale] ?? {})) {
      for (const [key, entry] of Object.entries(entries)) {
        if (typeof entry !== 'function') continue;
        const sample = hostileSample(entry, paramsOf(entry));
        const sentence = served[area]?.[key];
        if (typeof sentence !== 'function') throw new Error(`${area}.${key} is not served`);
        const said = sentence(sample);
        expect(said.match(LIVE), `${area}.${key}: ${said}`).toBeNull();
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThan(300);
  });

  it('passes Regdesk’s own markup as it is, and escapes the rest beside it', () => {
    const said = text.slack.list({ items: [markup('<@U0OWN>'), '<@U0EVIL>'] });
    expect(said).toContain('<@U0OWN>');
    expect(said).toContain('&lt;@U0EVIL&gt;');
    expect(inLanguage('de', () => text.slack.list({ items: [markup('<#C0OWN>'), '<#C0EVIL>'] }))).toMatch(
      /<#C0OWN>.*&lt;#C0EVIL&gt;/,
    );
  });

  it('escapes once: text a builder escaped already reads the same, and entities from outside stay inert', () => {
    for (const sample of [HOSTILE, 'a & b', '&amp;lt;', 'x\u202ey']) {
      expect(escapeMrkdwn(escapeMrkdwn(sample))).toBe(escapeMrkdwn(sample));
    }
    expect(text.records.before({ record: escapeMrkdwn('TXT "<!here>"') })).toBe(
      '*Before:* TXT "&lt;!here&gt;"',
    );
    expect(escapeMrkdwn('&lt;!channel&gt; & co')).toBe('&lt;!channel&gt; &amp; co');
  });
});
