// The Markdown scanner's character classes and one-pass lookup tables: pure, linear-time helpers.

const SPACE = /\s/;
const PUNCT = /[\p{P}\p{S}]/u;
/** `\s`, ASCII first (hot path); past the end of the text is not whitespace. */
export function isSpace(c: string | undefined): boolean {
  const code = c === undefined ? 0 : c.charCodeAt(0);
  return code === 32 || (code >= 9 && code <= 13) || (code > 127 && SPACE.test(c ?? ''));
}

const ASCII_PUNCT = '!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~';
export const isPunct = (c: string): boolean => (c < '\x80' ? ASCII_PUNCT.includes(c) : PUNCT.test(c));

export function skipSpaces(text: string, from: number): number {
  let i = from;
  while (isSpace(text[i])) i++;
  return i;
}

/** For each backtick run, where the next run of the same length starts (the code span's end). */
export function codeClosers(text: string): Map<number, number> {
  const closers = new Map<number, number>();
  const nextOfLength = new Map<number, number>();
  for (let end = text.lastIndexOf('`') + 1; end > 0; ) {
    let start = end - 1;
    while (text[start - 1] === '`') start--;
    const closer = nextOfLength.get(end - start);
    if (closer !== undefined) closers.set(start, closer);
    nextOfLength.set(end - start, start);
    end = start > 0 ? text.lastIndexOf('`', start - 1) + 1 : 0;
  }
  return closers;
}

/**
 * `(dest)` or `(dest "title")` at a `(`; the destination may hold balanced parentheses. Tables built
 * once per line make each attempt O(1), however many fail; the scans left (spaces, a quoted title)
 * are each reached by at most one attempt.
 */
export function destinations(text: string): (paren: number) => { href: string; end: number } | undefined {
  const n = text.length;
  const closeParen = new Int32Array(n).fill(-1); // for a `(`: its matching `)`
  const nextSpace = new Int32Array(n + 1).fill(n);
  const balanced = new Uint8Array(n); // 1 where text[i…nextSpace[i]) has balanced parentheses
  const open: number[] = [];
  for (let i = 0; i < n; i++) {
    if (text[i] === '(') open.push(i);
    else if (text[i] === ')' && open.length > 0) closeParen[open.pop() ?? 0] = i;
  }
  for (let i = n - 1, depth = 0, broken = false; i >= 0; i--) {
    const space = isSpace(text[i]);
    nextSpace[i] = space ? i : (nextSpace[i + 1] ?? n);
    // Right to left, a `(` without its `)` further right spoils every destination starting before it.
    depth = space ? 0 : depth + (text[i] === ')' ? 1 : text[i] === '(' ? -1 : 0);
    broken = !space && (broken || depth < 0);
    balanced[i] = !space && !broken && depth === 0 ? 1 : 0;
  }
  return (paren) => {
    const start = skipSpaces(text, paren + 1);
    const close = closeParen[paren] ?? -1;
    const space = nextSpace[start] ?? n;
    if (close >= start && space > close) return { href: text.slice(start, close), end: close + 1 };
    if (space === start || balanced[start] !== 1) return undefined;
    let after = skipSpaces(text, space);
    const quote = text[after];
    if (quote === '"' || quote === "'") {
      const closing = text.indexOf(quote, after + 1);
      if (closing < 0) return undefined;
      after = skipSpaces(text, closing + 1);
    }
    return text[after] === ')' ? { href: text.slice(start, space), end: after + 1 } : undefined;
  };
}
