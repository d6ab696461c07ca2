import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * How Regdesk's source is cut (docs/architecture.md "Layers"): folders import only downward, feature
 * folders never import each other both ways, and no file imports itself through others. A change that
 * breaks one fails here with the import that does.
 */

const SRC = fileURLToPath(new URL('../../src', import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

/** Every relative module a file imports (static, re-exported, dynamic), as the `.ts` path it names. */
function importsOf(path: string): { target: string; typeOnly: boolean }[] {
  const text = readFileSync(path, 'utf8');
  const found: { target: string; typeOnly: boolean }[] = [];
  const pattern =
    /(?:^|\n)\s*(import|export)(\s+type)?[^'";]*?from\s+'(\.{1,2}\/[^']+)'|import\('(\.{1,2}\/[^']+)'\)/g;
  for (const match of text.matchAll(pattern)) {
    const literal = match[3] ?? match[4] ?? '';
    found.push({
      target: resolve(dirname(path), literal).replace(/\.js$/, '.ts'),
      typeOnly: match[2] !== undefined,
    });
  }
  return found;
}

const FILES = sources(SRC);
const IMPORTS = new Map(FILES.map((path) => [path, importsOf(path)]));
const name = (path: string) => relative(SRC, path);

/**
 * The top-level parts of `src/`, lowest first: each may import only parts before it (and itself).
 * A file at the top of `src/` is a part of its own.
 */
const LAYERS = [
  ['text'],
  ['shared'],
  ['dns'],
  ['rdap'],
  ['served'],
  ['ct'],
  ['config', 'config.ts'],
  ['registrar'],
  ['vault'],
  ['sandbox'],
  ['runtime'],
  ['manifest.ts'],
  ['slack'],
  ['features'],
  ['backup'],
  ['doctor'],
  ['playground'],
  ['services.ts'],
  ['start'],
  ['shutdown.ts'],
  ['main.ts'],
  ['cli-program.ts'],
  ['cli.ts'],
] as const;

const partOf = (path: string) => name(path).split('/')[0] ?? '';
const rankOf = (part: string) => LAYERS.findIndex((parts) => (parts as readonly string[]).includes(part));
const featureOf = (path: string) => {
  const [top, feature, file] = name(path).split('/');
  return top === 'features' && file !== undefined ? feature : undefined;
};

describe('layers', () => {
  it('knows every part of src/', () => {
    const parts = new Set(FILES.map(partOf));
    expect([...parts].filter((part) => rankOf(part) < 0)).toEqual([]);
  });

  it('imports only downward between the parts of src/ (shared/ reads no config/ type either)', () => {
    const upward = FILES.flatMap((path) =>
      (IMPORTS.get(path) ?? [])
        .filter(({ target }) => rankOf(partOf(target)) > rankOf(partOf(path)))
        .map(({ target }) => `${name(path)} → ${name(target)}`),
    );
    expect(upward).toEqual([]);
  });

  it('has no two feature folders that import each other', () => {
    const edges = new Set<string>();
    for (const path of FILES) {
      const from = featureOf(path);
      if (from === undefined) continue;
      for (const { target } of IMPORTS.get(path) ?? []) {
        const to = featureOf(target);
        if (to !== undefined && to !== from) edges.add(`${from} → ${to}`);
      }
    }
    const twoWay = [...edges].filter((edge) => {
      const [from, to] = edge.split(' → ');
      return from !== undefined && to !== undefined && from < to && edges.has(`${to} → ${from}`);
    });
    expect(twoWay).toEqual([]);
    // The check has something to look at: features do import one another downward.
    expect(edges.size).toBeGreaterThan(10);
  });

  it('has no import cycle between files (a module that loads itself through others)', () => {
    const cycles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const stack: string[] = [];
    const visit = (path: string) => {
      state.set(path, 'open');
      stack.push(path);
      for (const { target, typeOnly } of IMPORTS.get(path) ?? []) {
        if (typeOnly || !IMPORTS.has(target)) continue;
        if (state.get(target) === 'open')
          cycles.push([...stack.slice(stack.indexOf(target)), target].map(name).join(' → '));
        else if (state.get(target) === undefined) visit(target);
      }
      stack.pop();
      state.set(path, 'done');
    };
    for (const path of FILES) if (state.get(path) === undefined) visit(path);
    expect(cycles).toEqual([]);
  });
});
