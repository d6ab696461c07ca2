import type { MasterFileError } from './master-file-errors.js';

/**
 * The lexical layer of RFC 1035 §5.1 master files: the text cut into entries (one record or
 * directive each), each a list of tokens with the line it sits on.
 *
 * - An entry ends at a line end outside parentheses; `(` … `)` continue it over lines. Nested
 *   parentheses are refused, as BIND refuses them.
 * - `;` starts a comment to the line's end, except inside quotes or escaped (`\;`).
 * - `"…"` is one token that may hold blanks, `;` and parentheses; a line end inside one is an error
 *   (BIND's "unbalanced quotes"), so an unclosed quote costs one line, not the rest of the file.
 * - `\X` and `\DDD` are kept raw in the token: what they mean depends on where they stand (in a name
 *   `\.` is a dot inside a label; in a TXT string `\DDD` is one byte), see `decodeBytes`.
 * - An entry whose line starts with a blank has no owner: it takes the previous one.
 * At the end, the way back for the writer: text as quoted character-strings.
 */
export interface Token {
  /** The token as written, escapes kept, without its quotes. */
  readonly raw: string;
  readonly quoted: boolean;
  readonly line: number;
}

export interface Entry {
  /** The line the entry starts on. */
  readonly line: number;
  /** The first line starts with a blank: the owner is the previous entry's. */
  readonly blankOwner: boolean;
  readonly tokens: readonly Token[];
}

const BLANK = /[ \t\r\f\v]/;

export function tokenize(source: string): { entries: Entry[]; errors: MasterFileError[] } {
  const text = source.replace(/^\uFEFF/, '');
  const entries: Entry[] = [];
  const errors: MasterFileError[] = [];

  let line = 1;
  let tokens: Token[] = [];
  let entryLine = 1;
  let blankOwner = false;
  let broken = false; // the entry holds an error: dropped at its end
  let openParen: number | undefined; // the line of the open `(`
  let word = '';
  let wordLine = 1;
  let atLineStart = true;

  const endWord = () => {
    if (word !== '') tokens.push({ raw: word, quoted: false, line: wordLine });
    word = '';
  };
  const endEntry = () => {
    endWord();
    if (!broken && tokens.length > 0) entries.push({ line: entryLine, blankOwner, tokens });
    tokens = [];
    broken = false;
  };
  // One error an entry: what follows a first slip in the same entry is mostly its echo.
  const fail = (error: MasterFileError) => {
    if (!broken) errors.push(error);
    broken = true;
  };

  let i = 0;
  while (i < text.length) {
    const char = text[i] ?? '';
    if (atLineStart && openParen === undefined) {
      // A new entry starts here, unless the line holds nothing but blanks and a comment.
      entryLine = line;
      blankOwner = BLANK.test(char);
    }
    atLineStart = false;

    if (char === '\n') {
      endWord();
      line += 1;
      atLineStart = true;
      if (openParen === undefined) endEntry();
      i += 1;
    } else if (char === ';') {
      endWord();
      while (i < text.length && text[i] !== '\n') i += 1;
    } else if (BLANK.test(char)) {
      endWord();
      i += 1;
    } else if (char === '(') {
      endWord();
      if (openParen !== undefined) fail({ line, code: 'unbalanced_paren' });
      else openParen = line;
      i += 1;
    } else if (char === ')') {
      endWord();
      if (openParen === undefined) fail({ line, code: 'unbalanced_paren' });
      openParen = undefined;
      i += 1;
    } else if (char === '"') {
      endWord();
      const start = line;
      let raw = '';
      i += 1;
      while (i < text.length && text[i] !== '"' && text[i] !== '\n') {
        // An escaped quote or backslash does not end the string (an escaped line end does not run on).
        if (text[i] === '\\' && i + 1 < text.length && text[i + 1] !== '\n') {
          raw += text.slice(i, i + 2);
          i += 2;
        } else {
          raw += text[i];
          i += 1;
        }
      }
      if (text[i] === '"') {
        tokens.push({ raw, quoted: true, line: start });
        i += 1;
      } else {
        // The line ends (or the text does) inside the quotes: the entry is lost, the next line is not.
        fail({ line: start, code: 'unterminated_quote' });
        openParen = undefined;
      }
    } else if (char === '\\') {
      if (word === '') wordLine = line;
      if (i + 1 >= text.length || text[i + 1] === '\n') {
        fail({ line, code: 'bad_escape', value: '\\' });
        i += 1;
      } else {
        word += text.slice(i, i + 2);
        i += 2;
      }
    } else {
      if (word === '') wordLine = line;
      word += char;
      i += 1;
    }
  }
  if (openParen !== undefined) {
    // Never closed: the entry ran to the end of the text.
    fail({ line: openParen, code: 'unbalanced_paren' });
  }
  endEntry();
  return { entries, errors };
}

/**
 * The bytes a token stands for (RFC 1035 §5.1): `\DDD` is the byte DDD (decimal, ≤ 255), `\X` is X
 * itself, any other character its UTF-8 bytes; the faulty escape when DDD > 255.
 */
export function decodeBytes(raw: string): { bytes: Buffer } | { badEscape: string } {
  const parts: Buffer[] = [];
  let plain = '';
  const flush = () => {
    if (plain !== '') parts.push(Buffer.from(plain, 'utf8'));
    plain = '';
  };
  for (let i = 0; i < raw.length; i += 1) {
    const char = raw[i] ?? '';
    if (char !== '\\') {
      plain += char;
      continue;
    }
    const digits = /^\d{3}/.exec(raw.slice(i + 1, i + 4))?.[0];
    if (digits !== undefined) {
      const value = Number(digits);
      if (value > 255) return { badEscape: `\\${digits}` };
      flush();
      parts.push(Buffer.of(value));
      i += 3;
    } else {
      // `\X`: the character after the backslash, whole (a surrogate pair is one character).
      const next = String.fromCodePoint(raw.codePointAt(i + 1) ?? 0x5c);
      plain += next;
      i += next.length;
    }
  }
  flush();
  return { bytes: Buffer.concat(parts) };
}

/** Bytes as UTF-8 text, or undefined when they are not (a leading BOM is kept: it is part of the text). */
export function utf8(bytes: Uint8Array): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/** The other way, for writing: a character-string holds 255 bytes at most (RFC 1035 §3.3). */
const MAX_STRING = 255;

/** A character inside a quoted string: printable as it is, else `\DDD` per UTF-8 byte. */
export function quotedChar(char: string): string {
  if (char === '"' || char === '\\') return `\\${char}`;
  if (char === ' ' || !/[\p{C}\p{Z}]/u.test(char)) return char;
  return [...Buffer.from(char, 'utf8')].map((byte) => `\\${String(byte).padStart(3, '0')}`).join('');
}

/** A TXT's text as quoted strings of at most 255 bytes each; an empty text is one empty string. */
export function txtStrings(text: string): string[] {
  const strings: string[] = [];
  let current = '';
  let bytes = 0;
  for (const char of text) {
    const size = Buffer.byteLength(char, 'utf8');
    if (bytes + size > MAX_STRING) {
      strings.push(current);
      current = '';
      bytes = 0;
    }
    current += quotedChar(char);
    bytes += size;
  }
  if (current !== '' || strings.length === 0) strings.push(current);
  return strings.map((string) => `"${string}"`);
}
