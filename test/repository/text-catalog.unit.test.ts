import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAst } from 'rolldown/parseAst';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

type EsNode = { type: string; start: number; end: number; [key: string]: unknown };

/**
 * Literals that read like words but are not sentences for people in Slack, each with the reason;
 * anything else belongs in src/text.
 */
const NOT_SENTENCES = [
  /^\/(domain|tls|dns) watch remove x$/, // a command, passed into a catalog sentence
  /^(domain|tls) watch (add|all)$/, // the operation name the permission model and audit record
  /^(Revoked|Cancelled) via Regdesk after team approval$/, // a note to the registrar, in its language
  /^Earlier in this conversation:/, // the registrar's assistant reads it, not a person
  /^(ich wie was|i how what) /, // word lists that tell a question's language (assistant/locale.ts)
  /^(Metrics are served on|Set METRICS_PORT)/, // an HTTP answer to a Prometheus operator, not to Slack
  /^not an object$/, // why a stored policy is unreadable: a log field's value
  /^approval x: stored x fails its schema$/, // an AppError's log message; people read its catalog text
];

/**
 * Modules whose words are for an operator's terminal, in English like every CLI message
 * (`src/vault/cli.ts`, `src/backup/`): the policy document as `regdesk policy get|set` reads and
 * writes it, with its validation messages, and `regdesk audit verify|export` with its findings.
 */
const FOR_OPERATORS = new Set([
  'src/features/audit/cli.ts',
  'src/features/policy/cli.ts',
  'src/features/policy/document.ts',
  'src/features/policy/schema.ts',
]);

/** Calls whose text is for the log or the developer, never shown in Slack. */
const LOG_METHODS = new Set(['trace', 'debug', 'info', 'warn', 'error', 'fatal']);
const INTERNAL_ERRORS = new Set(['Error', 'TypeError', 'RangeError']);

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : [path];
  });
}

/** Not a value: a type, whose string literals name states or codes. */
const isType = (node: EsNode) =>
  node.type.startsWith('TS') &&
  !['TSAsExpression', 'TSSatisfiesExpression', 'TSNonNullExpression'].includes(node.type);

/** Whether a call or `new` hands its text to the log or to an internal error. */
function forDevelopers(node: EsNode): boolean {
  const callee = node.callee as EsNode | undefined;
  if (node.type === 'CallExpression' && callee?.type === 'MemberExpression') {
    const property = callee.property as EsNode | undefined;
    return property?.type === 'Identifier' && LOG_METHODS.has(String(property.name));
  }
  return (
    node.type === 'NewExpression' && callee?.type === 'Identifier' && INTERNAL_ERRORS.has(String(callee.name))
  );
}

/**
 * String and template literals with three words or more in a row (the shape of an English sentence)
 * that are values a person could be shown: not types, not log lines, not internal errors. Parsed, so
 * a log call's message on the line below its `logger.warn(` is known for what it is.
 */
function sentences(source: string): string[] {
  const found: string[] = [];
  const looksLikeASentence = (literal: string) => /[A-Za-z]{2,} [a-z]{2,} [a-z]{2,}/.test(literal);
  const visit = (node: EsNode): void => {
    if (isType(node) || forDevelopers(node)) return;
    if (node.type === 'ImportDeclaration' || node.type === 'ExportAllDeclaration') return;
    // A Lua script for Redis (its comments are words, not sentences for people).
    if (node.type === 'TemplateLiteral' && source.slice(node.start, node.end).includes('redis.call(')) return;
    if (node.type === 'Literal' && typeof node.value === 'string' && looksLikeASentence(node.value))
      found.push(node.value);
    if (node.type === 'TemplateLiteral') {
      const quasis = (node.quasis as EsNode[]).map((quasi) =>
        String((quasi.value as { cooked?: string }).cooked ?? ''),
      );
      const literal = quasis.join('x');
      if (looksLikeASentence(literal)) found.push(literal);
    }
    for (const value of Object.values(node)) {
      for (const child of Array.isArray(value) ? value : [value]) {
        if (child !== null && typeof child === 'object' && typeof (child as EsNode).type === 'string')
          visit(child as EsNode);
      }
    }
  };
  visit(parseAst(source, { lang: 'ts' }) as unknown as EsNode);
  return found;
}

describe('every sentence a person reads comes from the text catalog (src/text)', () => {
  it('no module of a feature or of the Slack layer writes an English sentence of its own', () => {
    const builders = [...files(join(ROOT, 'src/features')), ...files(join(ROOT, 'src/slack'))].filter(
      (path) => !FOR_OPERATORS.has(relative(ROOT, path)),
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
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the scanned source holds a template literal
    expect(sentences('const reply = `Your ${thing} is done now.`;')).toEqual(['Your x is done now.']);
    expect(sentences("logger.info('not for people to read')")).toEqual([]);
    expect(sentences("deps.logger.warn(\n  { id },\n  'not for people either',\n);")).toEqual([]);
    expect(sentences("throw new Error('an internal slip here');")).toEqual([]);
    expect(sentences("throw new AppError('regdesk_x', 'People read this one.');")).toEqual([
      'People read this one.',
    ]);
    expect(sentences("type Why = 'not an object' | 'not JSON';")).toEqual([]);
  });
});

/**
 * Reads of `text` that run when a module loads or an object is built (module constants, class
 * fields, constructors): they would keep the language of whoever loaded the module, not the one of
 * the person or workspace being answered (src/text/index.ts). TypeScript 7 has no JavaScript API, so
 * the source is parsed by rolldown's parser (Oxc, ESTree-shaped), the one vitest itself runs on.
 */
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
