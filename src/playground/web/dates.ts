/**
 * `<!date^SECONDS^FORMAT|fallback>` as Slack shows it: in the reader's own time zone (Regdesk relies
 * on this, docs/requirements.md R32). Tokens per Slack's "Formatting text for app surfaces → dates".
 */

interface Parts {
  year: string;
  month: string;
  monthLong: string;
  monthShort: string;
  day: number;
  weekday: string;
  dayKey: string;
}

function partsIn(ms: number, timeZone: string): Parts {
  const pick = (options: Intl.DateTimeFormatOptions, type: Intl.DateTimeFormatPartTypes): string =>
    new Intl.DateTimeFormat('en-US', { timeZone, ...options }).formatToParts(ms).find((p) => p.type === type)
      ?.value ?? '';
  const year = pick({ year: 'numeric' }, 'year');
  const month = pick({ month: '2-digit' }, 'month');
  const day = Number(pick({ day: 'numeric' }, 'day'));
  return {
    year,
    month,
    monthLong: pick({ month: 'long' }, 'month'),
    monthShort: pick({ month: 'short' }, 'month'),
    day,
    weekday: pick({ weekday: 'long' }, 'weekday'),
    dayKey: `${year}-${month}-${String(day).padStart(2, '0')}`,
  };
}

function ordinal(day: number): string {
  const tens = day % 100;
  if (tens >= 11 && tens <= 13) return `${day}th`;
  return `${day}${['th', 'st', 'nd', 'rd'][day % 10] ?? 'th'}`;
}

function relativeDay(ms: number, nowMs: number, timeZone: string): string | undefined {
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
  let p: Parts;
  try {
    p = partsIn(ms, timeZone);
  } catch {
    // An unknown zone name: Slack would fall back to the account's zone; UTC is the honest default.
    return formatSlackDate(seconds, format, { tz: 'UTC', locale: 'en-US' }, nowMs);
  }
  const time = (withSeconds: boolean) =>
    new Intl.DateTimeFormat(locale, {
      timeZone,
      hour: 'numeric',
      minute: '2-digit',
      ...(withSeconds ? { second: '2-digit' } : {}),
    }).format(ms);
  const date = `${p.monthLong} ${ordinal(p.day)}, ${p.year}`;
  const short = `${p.monthShort} ${p.day}, ${p.year}`;
  const long = `${p.weekday}, ${date}`;
  const pretty = (plain: string) => {
    const word = relativeDay(ms, nowMs, timeZone);
    return word === undefined ? plain : word.charAt(0).toUpperCase() + word.slice(1);
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
