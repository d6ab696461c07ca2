/** A number as English readers group it (`1,000`), the German catalog's `n` in English. */
export const n = (value: number): string => value.toLocaleString('en-US');
