import { describe, expect, it } from 'vitest';
import { isLarge, planChanges } from '../../src/features/changesets/plan.js';
import type { DnsRecord } from '../../src/registrar/index.js';

const ZONE = 'example.com';
let next = 1;
const record = (name: string, type: string, data: string, extra: Partial<DnsRecord> = {}): DnsRecord => ({
  id: next++,
  name: `${name}${name === '' ? '' : '.'}${ZONE}.`,
  type,
  data,
  ttl: 3600,
  ...extra,
});
const value = (
  name: string,
  type: 'A' | 'TXT' | 'NS' | 'MX',
  data: string,
  ttl = 3600,
  priority?: number,
) => ({
  name: `${name}${name === '' ? '' : '.'}${ZONE}.`,
  type,
  data,
  ttl,
  ...(priority === undefined ? {} : { priority }),
});

describe('a change set plan', () => {
  const zone = [
    record('', 'NS', 'ns1.regfish.de.', { auto: true }),
    record('', 'NS', 'ns2.example.net.'),
    record('www', 'A', '192.0.2.1'),
    record('www', 'A', '192.0.2.2'),
    record('', 'TXT', 'v=spf1 -all'),
    record('', 'MX', '10 mail.example.com.'),
    record('auto', 'A', '192.0.2.9', { auto: true }),
  ];

  it('keeps equal records, pairs the rest as changes, creates what is new; merge never deletes', () => {
    const plan = planChanges(
      ZONE,
      zone,
      [value('www', 'A', '192.0.2.1'), value('www', 'A', '192.0.2.3'), value('api', 'A', '192.0.2.4')],
      'merge',
    );
    expect(plan.steps.map((step) => step.kind)).toEqual(['edit', 'add']);
    expect(plan.steps[0]).toMatchObject({
      kind: 'edit',
      before: { data: '192.0.2.2' },
      after: { data: '192.0.2.3' },
    });
    // Unchanged: www 192.0.2.1, and in merge the TXT and MX the text does not name.
    expect(plan.unchanged).toBe(3);
  });

  it('deletes in replace, and never touches auto records or the apex NS set', () => {
    const plan = planChanges(
      ZONE,
      zone,
      [value('', 'NS', 'ns9.example.org.'), value('www', 'A', '192.0.2.1')],
      'replace',
    );
    const touched = plan.steps.map((step) => (step.kind === 'add' ? step.after : step.before));
    expect(touched.some((found) => found.type === 'NS')).toBe(false);
    expect(touched.some((found) => found.name.startsWith('auto.'))).toBe(false);
    expect(plan.steps.filter((step) => step.kind === 'delete')).toHaveLength(3);
    // Deletes come first, in a fixed order: a plan read twice is the same plan.
    expect(planChanges(ZONE, zone, [value('www', 'A', '192.0.2.1')], 'replace')).toEqual(
      planChanges(ZONE, [...zone].reverse(), [value('www', 'A', '192.0.2.1')], 'replace'),
    );
  });

  it('reads a priority written in front of MX data as the record’s priority', () => {
    const plan = planChanges(ZONE, zone, [value('', 'MX', 'mail.example.com.', 3600, 10)], 'merge');
    expect(plan.steps).toEqual([]);
  });

  it('is large above 30 % of a zone of 10 records or more, never below 10', () => {
    const big = Array.from({ length: 10 }, (_, i) => record(`r${i}`, 'A', `192.0.2.${i}`));
    const wanted = big.slice(3).map((found) => value(found.name.split('.')[0] ?? '', 'A', found.data ?? ''));
    expect(isLarge(planChanges(ZONE, big, wanted, 'replace'))).toBe(false); // 3 of 10
    expect(isLarge(planChanges(ZONE, big, wanted.slice(1), 'replace'))).toBe(true); // 4 of 10
    const small = big.slice(0, 9);
    expect(isLarge(planChanges(ZONE, small, [], 'replace'))).toBe(false);
  });
});
