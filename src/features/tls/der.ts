// Just enough DER reading to slice a CSR's signed bytes: byte-level parsing kept apart from CSR checks.

/** One DER element: where its header starts, where its contents start, and where it ends. */
export interface Tlv {
  tag: number;
  start: number;
  contents: number;
  end: number;
}

/**
 * Reads the DER element at `at`. Only what a CSR's outer layers need: single-byte tags and definite lengths
 * (indefinite lengths are BER, never DER). Throws when the element runs past `limit`.
 */
export function readTlv(der: Uint8Array, at: number, limit: number): Tlv {
  const tag = der[at];
  const lengthByte = der[at + 1];
  if (tag === undefined || lengthByte === undefined || (tag & 0x1f) === 0x1f) throw new Error('bad DER tag');
  let contents = at + 2;
  let length = lengthByte;
  if (lengthByte & 0x80) {
    // Long form: the low bits say how many big-endian length bytes follow; 4 is plenty for a CSR.
    const count = lengthByte & 0x7f;
    if (count === 0 || count > 4) throw new Error('bad DER length');
    length = 0;
    for (let i = 0; i < count; i++) {
      const byte = der[contents++];
      if (byte === undefined) throw new Error('truncated DER');
      length = length * 256 + byte;
    }
  }
  const end = contents + length;
  if (end > limit) throw new Error('truncated DER');
  return { tag, start: at, contents, end };
}

/** The children of a constructed element, in order. */
export function children(der: Uint8Array, parent: Tlv): Tlv[] {
  const out: Tlv[] = [];
  for (let at = parent.contents; at < parent.end; ) {
    const child = readTlv(der, at, parent.end);
    out.push(child);
    at = child.end;
  }
  return out;
}
