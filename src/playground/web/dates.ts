import { chromeFor, type DateParts } from './chrome.js';

/**
 * `<!date^SECONDS^FORMAT|fallback>` as Slack shows it: in the reader's own time zone (Regdesk relies
 * on this, docs/requirements.md R32) and language. Tokens per Slack's "Formatting text for app
 * surfaces → dates".
 */

interface Parts extends DateParts {
  month: string;
  dayKey: string;
}

/** Numbers as digits whatever the language; month and weekday names in `lang`. */
function partsIn(ms: number, timeZone: string, lang = 'en'): Parts {
  const pick = (locale: string, options: Intl.DateTimeFormatOptions, type: Intl.DateTimeFormatPartTypes) =>
    new Intl.DateTimeFormat(locale, { timeZone, ...options }).formatToParts(ms).find((p) => p.type === type)
      ?.value ?? '';
  const year = pick('en-US', { year: 'numeric' }, 'year');
  const month = pick('en-US', { month: '2-digit' }, 'month');
  const day = Number(pick('en-US', { day: 'numeric' }, 'day'));
  return {
    year,
    month,
    monthLong: pick(lang, { month: 'long' }, 'month'),
    monthShort: pick(lang, { month: 'short' }, 'month'),
    day,
    weekday: pick(lang, { weekday: 'long' }, 'weekday'),
    dayKey: `${year}-${month}-${String(day).padStart(2, '0')}`,
  };
}

function relativeDay(
  ms: number,
  nowMs: number,
  timeZone: string,
): 'today' | 'yesterday' | 'tomorrow' | undefined {
  const day = partsIn(ms, timeZone).dayKey;
  if (day === partsIn(nowMs, timeZone).dayKey) return 'today';
  if (day === partsIn(nowMs - 86_400_000, timeZone).dayKey) return 'yesterday';
  if (day === partsIn(nowMs + 86_400_000, timeZone).dayKey) return 'tomorrow';
  return undefined;
}

function ago(ms: number, nowMs: number, locale: string): string {
  const seconds = Math.round((ms - nowMs) / 1000);
  const units: Array<[Intl.RelativeTimeFormatUnit, number]> = [
    ['year', 31_536_000],
    ['month', 2_592_000],
    ['day', 86_400],
    ['hour', 3_600],
    ['minute', 60],
  ];
  const format = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
  for (const [unit, size] of units) {
    if (Math.abs(seconds) >= size) return format.format(Math.round(seconds / size), unit);
  }
  return format.format(seconds, 'second');
}

/** Formats a Slack date token; unknown `{tokens}` stay as written, like Slack leaves them. */
export function formatSlackDate(
  seconds: number,
  format: string,
  viewer: { tz: string; locale: string },
  nowMs: number,
): string {
  const ms = seconds * 1000;
  const timeZone = viewer.tz;
  const locale = viewer.locale.replace('_', '-');
  const words = chromeFor(locale);
  let p: Parts;
  try {
    p = partsIn(ms, timeZone, words.lang);
  } catch {
    // An unknown zone name: Slack would fall back to the account's zone; UTC is the honest default.
    return formatSlackDate(seconds, format, { tz: 'UTC', locale }, nowMs);
  }
  const time = (withSeconds: boolean) =>
    new Intl.DateTimeFormat(locale, {
      timeZone,
      hour: 'numeric',
      minute: '2-digit',
      ...(withSeconds ? { second: '2-digit' } : {}),
    }).format(ms);
  const date = words.date(p);
  const short = words.dateShort(p);
  const long = `${p.weekday}, ${date}`;
  const pretty = (plain: string) => {
    const word = relativeDay(ms, nowMs, timeZone);
    return word === undefined ? plain : words[word];
  };
  const tokens: Record<string, () => string> = {
    date_num: () => `${p.year}-${p.month}-${String(p.day).padStart(2, '0')}`,
    date: () => date,
    date_short: () => short,
    date_long: () => long,
    date_pretty: () => pretty(date),
    date_short_pretty: () => pretty(short),
    date_long_pretty: () => pretty(long),
    time: () => time(false),
    time_secs: () => time(true),
    ago: () => ago(ms, nowMs, locale),
  };
  return format.replace(/\{([a-z_]+)\}/g, (whole, name: string) => tokens[name]?.() ?? whole);
}
