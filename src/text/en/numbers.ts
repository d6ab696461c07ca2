/** A number as English readers group it (`1,000`), the German catalog's `n` in English. */
export const n = (value: number): string => value.toLocaleString('en-US');

/** A count with the fitting noun, as the German catalog's `count`: `1 record`, `3 records`. */
export const count = (value: number, one: string, many = `${one}s`): string =>
  `${n(value)} ${value === 1 ? one : many}`;
