import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** The builders and handlers: what turns outcomes into what a person reads in Slack. */
const BUILDERS = /(^|\/)(blocks|[a-z-]+-blocks|commands|actions|views|modals|announce|interaction)\.ts$/;

/**
 * Literals that read like words but are not sentences for people: slash commands quoted as commands,
 * operation names for roles and the audit. Each with the reason; anything else belongs in src/text.
 */
const NOT_SENTENCES = [
  /^\/(domain|tls|dns) watch remove \$\{item\.id\}$/, // a command, passed into a catalog sentence
  /^(domain|tls) watch (add|all)$/, // the operation name the permission model and audit record
];

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : [path];
  });
}

/** String and template literals with three words or more in a row: the shape of an English sentence. */
function sentences(source: string): string[] {
  const found: string[] = [];
  for (const line of source.split('\n')) {
    const code = line.trim();
    if (code.startsWith('//') || code.startsWith('*') || code.startsWith('/*') || code.startsWith('import'))
      continue;
    if (/logger\.|\.(warn|info|error|debug)\(|new Error\(/.test(code)) continue;
    for (const match of code.matchAll(/(['`])((?:(?!\1).)*)\1/g)) {
      const literal = match[2] ?? '';
      if (/[A-Za-z]{2,} [a-z]{2,} [a-z]{2,}/.test(literal.replace(/\$\{[^}]*\}/g, 'x'))) found.push(literal);
    }
  }
  return found;
}

describe('every sentence a person reads comes from the text catalog (src/text)', () => {
  it('no builder or handler of a feature or the Slack layer writes an English sentence of its own', () => {
    const builders = [...files(join(ROOT, 'src/features')), ...files(join(ROOT, 'src/slack'))].filter(
      (path) => BUILDERS.test(path),
    );
    expect(builders.length).toBeGreaterThan(20);
    const own = builders.flatMap((path) =>
      sentences(readFileSync(path, 'utf8'))
        .filter((literal) => !NOT_SENTENCES.some((allowed) => allowed.test(literal)))
        .map((literal) => `${relative(ROOT, path)}: ${literal}`),
    );
    expect(own).toEqual([]);
  });

  it('finds a sentence where one is written (the scan itself works)', () => {
    expect(sentences("respond({ text: 'Your request is done.' })")).toEqual(['Your request is done.']);
    expect(sentences("logger.info('not for people to read')")).toEqual([]);
  });
});
