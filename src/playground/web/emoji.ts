/**
 * The emoji shortcodes Regdesk and people commonly use. An unknown `:name:` stays as typed, which is
 * also what keeps times like `12:30:45` intact.
 */
export const EMOJI: Readonly<Record<string, string>> = {
  '+1': '👍',
  '-1': '👎',
  thumbsup: '👍',
  thumbsdown: '👎',
  alarm_clock: '⏰',
  bell: '🔔',
  check: '✔️',
  clock3: '🕒',
  eyes: '👀',
  gear: '⚙️',
  globe_with_meridians: '🌐',
  grey_question: '❔',
  heavy_check_mark: '✔️',
  heavy_multiplication_x: '✖️',
  hourglass: '⌛',
  hourglass_flowing_sand: '⏳',
  information_source: 'ℹ️',
  key: '🔑',
  leftwards_arrow_with_hook: '↩️',
  lock: '🔒',
  mag: '🔍',
  memo: '📝',
  no_entry: '⛔',
  no_entry_sign: '🚫',
  ok: '🆗',
  pencil: '📝',
  rocket: '🚀',
  rotating_light: '🚨',
  scissors: '✂️',
  shield: '🛡️',
  smile: '😄',
  tada: '🎉',
  unlock: '🔓',
  warning: '⚠️',
  wastebasket: '🗑️',
  wave: '👋',
  white_check_mark: '✅',
  x: '❌',
};

export function emojiFor(name: string): string | undefined {
  return EMOJI[name.replace(/::skin-tone-\d$/, '')];
}
