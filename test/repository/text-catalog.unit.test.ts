import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAst } from 'rolldown/parseAst';
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

/**
 * Reads of `text` that run when a module loads or an object is built (module constants, class
 * fields, constructors): they would keep the language of whoever loaded the module, not the one of
 * the person or workspace being answered (src/text/index.ts). TypeScript 7 has no JavaScript API, so
 * the source is parsed by rolldown's parser (Oxc, ESTree-shaped), the one vitest itself runs on.
 */
type EsNode = { type: string; start: number; end: number; [key: string]: unknown };
const FUNCTIONS = new Set(['FunctionDeclaration', 'FunctionExpression', 'ArrowFunctionExpression']);

function frozenReads(path: string, source: string): string[] {
  const program = parseAst(source, { lang: 'ts' }) as unknown as EsNode;
  const found: string[] = [];
  const lineOf = (offset: number) => source.slice(0, offset).split('\n').length;
  // `constructorBody`: a constructor is a function, but it runs when the object is built.
  const visit = (node: EsNode, inFunction: boolean, constructorBody = false): void => {
    const object = node.object as EsNode | undefined;
    if (
      !inFunction &&
      node.type === 'MemberExpression' &&
      object?.type === 'Identifier' &&
      object.name === 'text'
    ) {
      found.push(`${path}:${lineOf(node.start)}: ${source.slice(node.start, node.end)}`);
    }
    const inside = inFunction || (FUNCTIONS.has(node.type) && !constructorBody);
    const isConstructor = node.type === 'MethodDefinition' && node.kind === 'constructor';
    for (const [key, value] of Object.entries(node)) {
      for (const child of Array.isArray(value) ? value : [value]) {
        if (child !== null && typeof child === 'object' && typeof (child as EsNode).type === 'string')
          visit(child as EsNode, inside, isConstructor && key === 'value');
      }
    }
  };
  visit(program, false);
  return found;
}

describe('text is read where it is said, in the language of the moment', () => {
  it('no module of src reads the catalog when it loads or when an object is built', () => {
    const modules = files(join(ROOT, 'src')).filter(
      (path) => path.endsWith('.ts') && !path.includes(`${join('src', 'text')}/`),
    );
    const frozen = modules.flatMap((path) => frozenReads(relative(ROOT, path), readFileSync(path, 'utf8')));
    expect(frozen).toEqual([]);
  });

  it('finds a read at load time, and lets one inside a function be (the scan itself works)', () => {
    expect(frozenReads('a.ts', 'const say = text.records;')).toEqual(['a.ts:1: text.records']);
    expect(frozenReads('b.ts', 'class C { readonly say = text.tls.title; }')).toEqual(['b.ts:1: text.tls']);
    expect(frozenReads('d.ts', 'class D { constructor() { this.say = text.dns; } }')).toEqual([
      'd.ts:1: text.dns',
    ]);
    expect(frozenReads('c.ts', 'const say = () => text.records.title;')).toEqual([]);
  });
});
