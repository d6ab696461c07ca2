import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Feature } from '../../src/slack/app.js';
import { type Harness, startHarness } from '../helpers/app-harness.js';

/**
 * Under a burst, a handler's work after its ack waits until every request received has had its
 * answer (src/slack/receiver.ts): the acks of the burst are not slowed by the follow-up work of the
 * requests before them. Times are all taken in this process (the harness runs the app in-process).
 */
describe('acks first: follow-up work waits for the burst to be answered', () => {
  let h: Harness;
  const ackedAt: number[] = [];
  const workAt: number[] = [];
  const probe: Feature = (_app, deps) => {
    deps.router.add('/dns', {
      name: 'probe',
      usage: 'probe',
      summary: 'acks, then works',
      run: async ({ ack, respond }) => {
        ackedAt.push(Date.now());
        await ack();
        workAt.push(Date.now());
        await respond({ response_type: 'ephemeral', text: 'probed' });
      },
    });
  };

  beforeAll(async () => {
    h = await startHarness({ features: [probe] });
  });
  afterAll(async () => {
    await h.stop();
  });

  it('starts no follow-up work of a burst before the last ack of that burst went out', async () => {
    const burst = 20;
    const answers = await Promise.all(
      Array.from({ length: burst }, (_, i) => h.driver.command('/dns', 'probe', { user: `UBURST${i}` })),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(burst).fill(200));
    await h.slack.waitFor(
      (calls) => calls.filter((call) => call.args.text === 'probed').length >= burst,
      15_000,
    );
    expect(workAt).toHaveLength(burst);
    expect(Math.min(...workAt)).toBeGreaterThanOrEqual(Math.max(...ackedAt));
  });

  it('a single command still gets its follow-up (nothing waits forever)', async () => {
    const before = workAt.length;
    const answer = await h.driver.command('/dns', 'probe', { user: 'ULONE' });
    expect(answer.status).toBe(200);
    await h.slack.waitFor(
      (calls) => calls.filter((call) => call.args.text === 'probed').length >= before + 1,
      15_000,
    );
    expect(workAt).toHaveLength(before + 1);
  });
});
