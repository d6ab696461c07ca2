/** German numbers, plurals and weekdays, shared by the German catalog's areas. */

/** A number with the German thousands dot (`1.000`). */
export const n = (value: number): string => value.toLocaleString('de-DE');

/** A count with the fitting noun: `1 Domain`, `3 Domains`. */
export const count = (value: number, one: string, many: string): string =>
  `${n(value)} ${value === 1 ? one : many}`;

/**
 * A state as the registrar reports it (`pending`, `issued`, `enabled`): not translated but shown as
 * code (docs/glossary.md), so it reads as the registrar's value inside a German sentence.
 */
export const registrarState = (state: string): string => `\`${state.replaceAll('`', "'")}\``;

/** Weekdays as stored (`monday` …) or capitalised (`Monday` …). */
const WEEKDAYS: Record<string, string> = {
  monday: 'Montag',
  tuesday: 'Dienstag',
  wednesday: 'Mittwoch',
  thursday: 'Donnerstag',
  friday: 'Freitag',
  saturday: 'Samstag',
  sunday: 'Sonntag',
};

/** A weekday's German name (`monday` or `Monday` → `Montag`); anything else stays as it is. */
export const weekday = (day: string): string => WEEKDAYS[day.toLowerCase()] ?? day;

/** A cadence as an adverb: `daily` → „täglich“, `monday` → „montags“. */
export const cadenceAdverb = (cadence: string): string => {
  if (cadence === 'daily') return 'täglich';
  const day = WEEKDAYS[cadence.toLowerCase()];
  return day === undefined ? cadence : `${day.toLowerCase()}s`;
};
