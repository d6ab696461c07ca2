import { describe, expect, it } from 'vitest';
import { de as german } from '../../src/text/de/index.js';
import { en as english } from '../../src/text/en/index.js';

// The catalogs as written (their functions' sources name their parameters), not as `texts` serves them.
const en = english as unknown as Record<string, Record<string, unknown>>;
const de = german as unknown as Record<string, Record<string, unknown>>;

/** The parameters an entry reads (`p.name`), from its source: German must use every one English does. */
const paramsOf = (entry: unknown): string[] =>
  typeof entry === 'function'
    ? [...new Set([...String(entry).matchAll(/\bp\.([a-zA-Z]+)/g)].map((m) => m[1] ?? ''))].sort()
    : [];

/** What must survive translation untouched: emoji codes, mentions, and the commands in code spans. */
function fixedParts(value: string): string[] {
  const emoji = value.match(/:[a-z0-9_+-]+:/g) ?? [];
  const mentions = value.match(/<[@#!][^>]*>/g) ?? [];
  const commands = [...value.matchAll(/`(\/(?:domain|dns|tls|ask)(?: [a-z]+)?)/g)].map((m) => m[1] ?? '');
  return [...emoji, ...mentions, ...commands].sort();
}

/** Values a parameter may take; an entry is called with the first combination it accepts. */
const CANDIDATES = (name: string): unknown[] => [
  `‹${name}›`,
  3,
  [`‹${name}1›`, `‹${name}2›`],
  true,
  undefined,
];

/**
 * A sample for `params` that `entry` renders without throwing: strings first, then, parameter by
 * parameter, a number, a list, a flag or nothing (the catalog's types say which; at run time they are gone).
 */
function sampleFor(entry: unknown, params: string[]): Record<string, unknown> {
  const sample: Record<string, unknown> = Object.fromEntries(params.map((name) => [name, `‹${name}›`]));
  if (typeof entry !== 'function') return sample;
  const works = () => {
    try {
      return typeof (entry as (p: Record<string, unknown>) => unknown)(sample) === 'string';
    } catch {
      return false;
    }
  };
  for (const name of params) {
    if (works()) break;
    for (const value of CANDIDATES(name)) {
      sample[name] = value;
      if (works()) break;
    }
  }
  return sample;
}

function render(entry: unknown, sample: Record<string, unknown>): string {
  return typeof entry === 'string' ? entry : (entry as (p: Record<string, unknown>) => string)(sample);
}

describe('the German catalog mirrors the English one', () => {
  it('has the same areas and keys, strings where English has strings', () => {
    expect(Object.keys(de).sort()).toEqual(Object.keys(en).sort());
    for (const area of Object.keys(en)) {
      expect(Object.keys(de[area] ?? {}), area).toEqual(Object.keys(en[area] ?? {}));
      for (const [key, value] of Object.entries(en[area] ?? {})) {
        expect(typeof de[area]?.[key], `${area}.${key}`).toBe(typeof value);
      }
    }
  });

  it('uses every parameter English uses, and keeps emoji, mentions and commands', () => {
    for (const area of Object.keys(en)) {
      for (const [key, value] of Object.entries(en[area] ?? {})) {
        const german = de[area]?.[key];
        const params = paramsOf(value);
        expect(paramsOf(german), `${area}.${key}`).toEqual(expect.arrayContaining(params));
        const sample = sampleFor(value, params);
        const said = render(german, sample);
        expect(said.trim(), `${area}.${key}`).not.toBe('');
        expect(fixedParts(said), `${area}.${key}`).toEqual(fixedParts(render(value, sample)));
      }
    }
  });

  it('is German: formal address, no untranslated English sentence left', () => {
    const informal = /\b(du|dich|dir|dein|deine|deinen)\b/i;
    for (const area of Object.keys(de)) {
      for (const [key, value] of Object.entries(de[area] ?? {})) {
        const source = en[area]?.[key];
        const sample = sampleFor(source, paramsOf(source));
        const said = render(value, sample);
        expect(informal.test(said), `${area}.${key}: ${said}`).toBe(false);
        const english = render(source, sample);
        // Identical text is fine only for what has no words to translate (usage syntax, codes, names).
        if (said === english && /\b(the|is|are|you|your|not|with)\b/i.test(english))
          expect.fail(`${area}.${key} is still English: ${english}`);
      }
    }
  });
});
