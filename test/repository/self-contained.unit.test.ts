import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CODE_DIRS = ['src', 'test', 'bench', '.ci'];

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'fixtures' ? [] : files(path);
    return [path];
  });
}

const codeFiles = CODE_DIRS.flatMap((dir) => files(join(ROOT, dir)));

/** Every relative path written in a file, with where it leads (template literals up to the first `${`). */
function relativePaths(path: string, text: string): { literal: string; target: string }[] {
  const found: { literal: string; target: string }[] = [];
  for (const match of text.matchAll(/['"`](\.{1,2}\/[^'"`$\s]*)/g)) {
    const literal = match[1] ?? '';
    found.push({ literal, target: resolve(dirname(path), literal) });
  }
  return found;
}

describe('the repository stands alone', () => {
  it('reads nothing outside itself: no relative path in src, test, bench or .ci leaves the clone', () => {
    expect(codeFiles.length).toBeGreaterThan(50);
    const escapes = codeFiles.flatMap((path) =>
      relativePaths(path, readFileSync(path, 'utf8'))
        .filter(({ target }) => relative(ROOT, target).startsWith('..'))
        .map(({ literal }) => `${relative(ROOT, path)}: ${literal}`),
    );
    expect(escapes).toEqual([]);
  });

  it('names no outside document: comments cite docs/ of this repository', () => {
    const outside = /\b(RELIABILITY|CONTRACT)\b|STYLE\.md|shared\/(reference|spec)|\bspec (part |§)?\d/;
    const offenders = codeFiles.filter(
      (path) => path !== fileURLToPath(import.meta.url) && outside.test(readFileSync(path, 'utf8')),
    );
    expect(offenders.map((path) => relative(ROOT, path))).toEqual([]);
  });

  it('has the documents the code cites', () => {
    const cited = new Set<string>();
    for (const path of codeFiles) {
      for (const match of readFileSync(path, 'utf8').matchAll(/docs\/([a-z-]+\.md)/g))
        cited.add(match[1] ?? '');
    }
    for (const doc of ['registrar-api.md', 'requirements.md', 'architecture.md']) cited.add(doc);
    for (const doc of cited) expect(statSync(join(ROOT, 'docs', doc)).isFile(), doc).toBe(true);
  });
});
