import { EMOJI_LINES } from './emoji-table.js';

/**
 * Slack's emoji shortcodes (`:red_circle:`, `:+1::skin-tone-3:`) as characters, from the table
 * generated out of emoji-datasource (emoji-table.ts). An unknown `:name:` stays as typed, as in
 * Slack, which is also what keeps times like `12:30:45` intact.
 */

interface Emoji {
  chars: string;
  codePoints: number[];
  toned: boolean;
}

/** Slack's `skin-tone-2` … `skin-tone-6`: the Fitzpatrick modifiers U+1F3FB … U+1F3FF. */
const SKIN_TONES: Readonly<Record<string, number>> = {
  'skin-tone-2': 0x1f3fb,
  'skin-tone-3': 0x1f3fc,
  'skin-tone-4': 0x1f3fd,
  'skin-tone-5': 0x1f3fe,
  'skin-tone-6': 0x1f3ff,
};

let table: Map<string, Emoji> | undefined;

/** The table, read once, on the first shortcode the page renders. */
function emojiTable(): Map<string, Emoji> {
  if (table !== undefined) return table;
  table = new Map();
  for (const entry of EMOJI_LINES.replaceAll('\n', '').split(';')) {
    if (entry === '') continue;
    const [unified = '', names = '', tones] = entry.split(' ');
    const codePoints = unified.split('-').map((hex) => Number.parseInt(hex, 16));
    const emoji = { chars: String.fromCodePoint(...codePoints), codePoints, toned: tones === '*' };
    for (const name of names.split(',')) table.set(name, emoji);
  }
  return table;
}

/**
 * The characters for a shortcode's name: `white_check_mark`, or with a skin tone `+1::skin-tone-3`
 * (as in the text `:+1::skin-tone-3:` and in reactions). A tone the emoji does not take is left off.
 * The modifier follows the first code point, replacing a variation selector (U+FE0F) there: that is
 * how every single-tone variation in the dataset is built.
 */
export function emojiFor(code: string): string | undefined {
  const [name = '', tone] = code.split('::');
  const emoji = emojiTable().get(name);
  if (emoji === undefined) return undefined;
  const modifier = tone === undefined ? undefined : SKIN_TONES[tone];
  if (modifier === undefined || !emoji.toned) return emoji.chars;
  const [first = 0, ...rest] = emoji.codePoints;
  return String.fromCodePoint(first, modifier, ...(rest[0] === 0xfe0f ? rest.slice(1) : rest));
}
