import { describe, expect, it } from 'vitest';
import {
  type ChainSource,
  entryHash,
  GENESIS,
  type Link,
  parseLink,
  verifyChain,
} from '../../src/features/audit/chain.js';
import { parseSince, verifyReport } from '../../src/features/audit/cli.js';
import { backoffDelay } from '../../src/features/audit/delivery.js';
import { syslogMessage } from '../../src/features/audit/syslog.js';

type Row = { id: string; fields: Record<string, string> };

/** A chain of `count` entries from `after`, as the append script stores them. */
function chain(count: number, after: Link = { position: 0, hash: GENESIS }): Row[] {
  const rows: Row[] = [];
  let prev = after;
  for (let i = 1; i <= count; i++) {
    const content = { action: 'approve', actor: `U${i}` };
    const place = { position: prev.position + 1, prev: prev.hash, at: 1_700_000_000_000 + i };
    const hash = entryHash(place, content);
    rows.push({
      id: `${place.at}-${i}`,
      fields: {
        seq: String(i),
        ...content,
        at: String(place.at),
        position: String(place.position),
        prev: place.prev,
        hash,
      },
    });
    prev = { position: place.position, hash };
  }
  return rows;
}

const headOf = (rows: Row[]): Link | undefined => {
  const last = rows.at(-1);
  return last === undefined
    ? undefined
    : { position: Number(last.fields.position), hash: last.fields.hash ?? '' };
};

function source(rows: Row[], more: Partial<ChainSource> = {}): ChainSource {
  return {
    anchor: undefined,
    head: headOf(rows),
    rows: (async function* () {
      yield* rows;
    })(),
    currentAnchor: async () => undefined,
    ...more,
  };
}

describe('verifyChain', () => {
  it('accepts an intact chain and counts older unchained entries before it', async () => {
    const legacy = [{ id: '1-0', fields: { action: 'key_set', actor: 'U0' } }];
    expect(await verifyChain(source([...legacy, ...chain(4)]))).toEqual({ checked: 4, legacy: 1 });
    expect(await verifyChain(source([]))).toEqual({ checked: 0, legacy: 0 });
  });

  it('checks the oldest kept entry against the anchor', async () => {
    const all = chain(6);
    const anchor = headOf(all.slice(0, 2));
    expect(await verifyChain(source(all.slice(2), { anchor }))).toEqual({ checked: 4, legacy: 0 });
    // Without the anchor, the oldest kept entry follows nothing known.
    expect((await verifyChain(source(all.slice(2)))).problem).toMatchObject({
      kind: 'missing_before',
      position: 3,
      after: 0,
    });
  });

  it('accepts entries trimmed while it read, when the anchor now explains the gap', async () => {
    const all = chain(8);
    const read = [...all.slice(0, 2), ...all.slice(5)];
    const moved = headOf(all.slice(0, 5));
    expect(await verifyChain(source(read, { currentAnchor: async () => moved }))).toEqual({
      checked: 5,
      legacy: 0,
    });
  });

  it('names a changed entry, a replaced newest one, and a missing head', async () => {
    const changed = chain(3);
    changed[1] = { id: changed[1]?.id ?? '', fields: { ...changed[1]?.fields, actor: 'UEVIL' } };
    expect((await verifyChain(source(changed))).problem).toEqual({ kind: 'changed', id: changed[1]?.id });

    const rows = chain(3);
    const forged = chain(3)[2];
    const head = { position: 3, hash: 'f'.repeat(64) };
    expect((await verifyChain(source(rows, { head }))).problem).toEqual({
      kind: 'replaced',
      id: forged?.id,
      position: 3,
    });
    expect((await verifyChain(source(rows, { head: undefined }))).problem).toEqual({
      kind: 'head_missing',
      id: rows[2]?.id,
    });
  });

  it('reads heads and anchors only in their own form', () => {
    expect(parseLink(`12:${'a'.repeat(64)}`)).toEqual({ position: 12, hash: 'a'.repeat(64) });
    expect(parseLink('12:xyz')).toBeUndefined();
    expect(parseLink(null)).toBeUndefined();
  });
});

describe('regdesk audit verify and export: words and times', () => {
  it('says how many entries were checked, and which entry is wrong and how', () => {
    const ok = verifyReport(
      { teamId: 'T1' },
      { trail: { checked: 5, legacy: 2 }, refusals: { checked: 1, legacy: 0 } },
    );
    expect(ok.ok).toBe(true);
    expect(ok.lines[0]).toBe(
      'Audit trail of T1 verified: 6 entries (5 in the trail, 1 refusals), each linked to the one before it.',
    );
    expect(ok.lines[1]).toContain('2 older entries precede the chain');
    const none = { checked: 0, legacy: 0 };
    expect(verifyReport({ teamId: 'T2' }, { trail: none, refusals: none }).lines).toEqual([
      'Audit trail of T2 has no entries: nothing to verify.',
    ]);
    const bad = verifyReport(
      { teamId: 'T1', enterpriseId: 'E1' },
      {
        trail: {
          checked: 2,
          legacy: 0,
          problem: { kind: 'out_of_order', id: '9-9', position: 4, before: 3 },
        },
        refusals: { checked: 0, legacy: 0 },
      },
    );
    expect(bad).toEqual({
      ok: false,
      lines: [
        'audit trail of E1/T1, entry 9-9: out of order: position 4 is stored before position 3, written before it',
      ],
    });
  });

  it('reads --since as an ISO 8601 date, or a date and time with its offset', () => {
    expect(parseSince('2025-01-31')).toBe(Date.UTC(2025, 0, 31));
    expect(parseSince('2025-01-31T09:00+01:00')).toBe(Date.UTC(2025, 0, 31, 8));
    expect(parseSince('2025-01-31T08:00:00.250Z')).toBe(Date.UTC(2025, 0, 31, 8, 0, 0, 250));
    for (const bad of ['2025-02-30', '2025-01-31T08:00', '31.01.2025', 'now', '2025-01-31T25:00Z'])
      expect(() => parseSince(bad), bad).toThrow('not an ISO 8601 time');
  });
});

describe('sink formats', () => {
  it('writes an RFC 5424 line: local0.info, version 1, the entry time, app regdesk, MSGID audit, ASCII JSON', () => {
    const line = syslogMessage(
      { teamId: 'T1' },
      { id: '5-7', at: Date.UTC(2025, 0, 31, 8), action: 'policy_change', actor: 'U1', detail: 'ä → ö' },
      'host name',
      42,
    );
    expect(line).toBe(
      '<134>1 2025-01-31T08:00:00.000Z hostname regdesk 42 audit - ' +
        '{"team":"T1","time":"2025-01-31T08:00:00.000Z","id":"5-7","at":1738310400000,"action":"policy_change","actor":"U1","detail":"\\u00e4 \\u2192 \\u00f6"}',
    );
    expect(JSON.parse(line.slice(line.indexOf('{'))).detail).toBe('ä → ö');
  });

  it('backs off from the first wait to the cap, with jitter within each step', () => {
    const backoff = { firstMs: 1_000, maxMs: 300_000 };
    for (let attempt = 0; attempt < 40; attempt++) {
      const full = Math.min(300_000, 1_000 * 2 ** attempt);
      const wait = backoffDelay(attempt, backoff);
      expect(wait).toBeGreaterThanOrEqual(full / 2);
      expect(wait).toBeLessThanOrEqual(full);
    }
  });
});
