import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { emojiTableSource, readDataset, TABLE_PATH } from '../../src/playground/emoji-table.generate.js';
import { emojiFor } from '../../src/playground/web/emoji.js';
import { parseMrkdwn } from '../../src/playground/web/mrkdwn.js';
import { plainText } from '../../src/playground/web/render-text.js';
import { unrenderedShortcodes } from '../helpers/unrendered-shortcodes.js';

/**
 * The playground's emoji: the committed table is what emoji-datasource gives (so a Renovate update of
 * the dataset fails here until `npm run emoji-table` is run), every short name and skin tone renders as
 * the dataset says, and every shortcode Regdesk's words and builders contain is one of them.
 */

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const dataset = readDataset();
const fromCodePoints = (unified: string) =>
  String.fromCodePoint(...unified.split('-').map((hex) => Number.parseInt(hex, 16)));

describe('the emoji table', () => {
  it('is what the installed emoji-datasource gives (run `npm run emoji-table` after an update)', () => {
    expect(readFileSync(join(ROOT, TABLE_PATH), 'utf8')).toBe(
      emojiTableSource(dataset.version, dataset.emoji),
    );
  });

  it('renders every short name the dataset knows, Slack’s aliases included', () => {
    const wrong = dataset.emoji.flatMap((entry) =>
      entry.short_names
        .filter((name) => emojiFor(name) !== fromCodePoints(entry.unified))
        .map((name) => `${name}: ${emojiFor(name)}`),
    );
    expect(wrong).toEqual([]);
    expect(emojiFor('red_circle')).toBe('🔴');
    expect(emojiFor('large_orange_circle')).toBe('🟠');
    expect(emojiFor('thumbsup')).toBe(emojiFor('+1'));
  });

  it('renders every single skin tone as the dataset’s variation, and ignores a tone where none applies', () => {
    const tones = ['1F3FB', '1F3FC', '1F3FD', '1F3FE', '1F3FF'];
    const wrong: string[] = [];
    for (const entry of dataset.emoji) {
      const variations = (entry.skin_variations ?? {}) as Record<string, { unified: string }>;
      tones.forEach((tone, i) => {
        const variation = variations[tone];
        if (variation === undefined) return;
        const code = `${entry.short_names[0]}::skin-tone-${i + 2}`;
        if (emojiFor(code) !== fromCodePoints(variation.unified)) wrong.push(code);
      });
    }
    expect(wrong).toEqual([]);
    expect(emojiFor('+1::skin-tone-3')).toBe('👍🏼');
    expect(emojiFor('rocket::skin-tone-3')).toBe('🚀');
    expect(emojiFor('not_an_emoji')).toBeUndefined();
  });
});

describe('shortcodes in mrkdwn and plain text', () => {
  const kinds = (source: string) => JSON.stringify(parseMrkdwn(source));

  it('reads underscores inside a shortcode as part of its name, never as italics', () => {
    expect(kinds(':large_blue_circle: *Advice* :large_orange_circle: x')).not.toContain('italic');
    expect(kinds('_see :large_blue_circle: here_')).toContain(
      '{"t":"italic","children":[{"t":"text","text":"see "},{"t":"emoji","name":"large_blue_circle"},{"t":"text","text":" here"}]}',
    );
    expect(kinds('_a :x_y: b_ c')).toContain('"name":"x_y"');
  });

  it('keeps a skin tone with its emoji, in mrkdwn and plain text', () => {
    expect(kinds(':+1::skin-tone-2: ok')).toContain('"name":"+1::skin-tone-2"');
    expect(plainText(':wave::skin-tone-5: at 12:30:45 :nope:')).toBe('👋🏾 at 12:30:45 :nope:');
  });
});

/** A shortcode in source text: not after a word, `}` or `:` (keys, templates, IPv6 addresses). */
const SHORTCODE_IN_SOURCE = /(?<![\w}:$]):([a-z][a-z0-9_+-]*):/g;

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

describe('Regdesk’s own shortcodes', () => {
  it('are all ones the playground renders (the catalog, features and the Slack layer)', () => {
    const files = ['src/text', 'src/features', 'src/slack'].flatMap((dir) => sources(join(ROOT, dir)));
    const found = files.flatMap((path) =>
      [...readFileSync(path, 'utf8').matchAll(SHORTCODE_IN_SOURCE)].map((match) => ({
        at: relative(ROOT, path),
        name: match[1] ?? '',
      })),
    );
    expect(found.length).toBeGreaterThan(50);
    expect(found.filter(({ name }) => emojiFor(name) === undefined)).toEqual([]);
  });
});

describe('the builders’ check (test/helpers/builder-checks.ts)', () => {
  it('finds a shortcode left as text, and only that', () => {
    const payload = {
      text: 'fallback :red_circle:',
      blocks: [
        {
          type: 'section',
          text: { type: 'mrkdwn', text: ':large_orange_circle: `:as_typed:` 2001:db8::1 at 12:30:45' },
        },
        { type: 'context', elements: [{ type: 'plain_text', text: ':no_such_emoji: :large_blue_circle:' }] },
        {
          type: 'actions',
          elements: [{ type: 'button', text: { type: 'plain_text', text: 'Go' }, value: ':v:' }],
        },
      ],
    };
    expect(unrenderedShortcodes(payload)).toEqual([':no_such_emoji:']);
  });
});
