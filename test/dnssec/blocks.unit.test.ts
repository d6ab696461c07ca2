import { describe, expect, it } from 'vitest';
import { dnssecCard } from '../../src/features/dnssec/blocks.js';
import type { DnssecState } from '../../src/registrar/index.js';
import { slackDate } from '../../src/slack/blocks.js';

const SETTLE = Date.UTC(2026, 10, 22, 12, 5);
const pending = (job: Record<string, unknown>): DnssecState => ({
  dnssec_state: 'pending',
  desired_records: [],
  live_records: [],
  pending_job: job,
});

describe('the DNSSEC card shows times as <!date^…> (docs/requirements.md R32)', () => {
  it('a pending job’s time fields, in seconds, milliseconds or ISO text; other fields as they come', () => {
    for (const settleAt of [SETTLE / 1000, SETTLE, new Date(SETTLE).toISOString()]) {
      const text = JSON.stringify(
        dnssecCard('example.com', pending({ id: 'job-1', settle_at: settleAt })).blocks,
      );
      expect(text).toContain(`settle_at: ${slackDate(SETTLE)}`);
      expect(text).toContain('id: job-1');
    }
    // A number that is not named as a time stays a number.
    expect(JSON.stringify(dnssecCard('example.com', pending({ attempts: 1_700_000_000 })).blocks)).toContain(
      'attempts: 1700000000',
    );
  });
});
