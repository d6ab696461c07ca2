import { readdirSync, readFileSync } from 'node:fs';
import { parse } from 'yaml';

/** One recorded HTTP exchange with the real registrar (test/fixtures/regfish-cassettes, VCR format). */
export interface Interaction {
  request: { method: string; uri: string; body: string | null };
  response: { status: { code: number }; headers: Record<string, string[]>; body: { string: string } };
}

const DIR = new URL('../fixtures/regfish-cassettes/', import.meta.url);

/** Every cassette, in file order, with its exchanges in the order they were recorded. */
export function cassettes(): Array<{ file: string; interactions: Interaction[] }> {
  return readdirSync(DIR)
    .filter((file) => file.endsWith('.yaml'))
    .sort()
    .map((file) => ({
      file,
      interactions: (parse(readFileSync(new URL(file, DIR), 'utf8')) as { interactions: Interaction[] })
        .interactions,
    }));
}

/** All recorded exchanges, one list. */
export const recordedInteractions = (): Interaction[] =>
  cassettes().flatMap((cassette) => cassette.interactions);
