import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../helpers/app-harness.js';
import { messageText } from '../helpers/payloads.js';

const LIMIT = { max: 200, windowMs: 60_000 };
const REFUSAL = 'You already have 3 questions waiting';

/** docs/requirements.md R34: one asker's flood of questions cannot starve the others. */
describe('questions waiting per asker', () => {
  let h: Harness;

  const asked = (user: string) =>
    h.slack.succeeded('chat.postMessage').filter((c) => String(c.args.text).startsWith(`<@${user}> asked:`));
  const answersTo = (user: string) =>
    h.slack
      .succeeded('chat.postMessage')
      .filter((c) => String(c.args.text).startsWith(`<@${user}> here is the answer`));
  const refusalsIn = (prefix: string) =>
    h.slack.calls.filter(
      (c) => c.method.startsWith(`response_url:${prefix}`) && messageText(c).includes(REFUSAL),
    );
  /** Every question of `user` ever queued, answered or not. */
  const jobsOf = async (user: string) =>
    (
      await h.running.services.assistantQueue.getJobs(['waiting', 'delayed', 'active', 'completed', 'failed'])
    ).filter((job) => job.data.user === user);

  beforeAll(async () => {
    h = await startHarness({
      env: { REGFISH_LIMITS: JSON.stringify({ assistantKey: LIMIT, assistantAccount: LIMIT }) },
      // Slow enough that the flood is still waiting when the other asker's question arrives.
      sandbox: {
        delays: { assistantAnswerMs: 2_000 },
        limits: { assistantKey: LIMIT, assistantAccount: LIMIT },
      },
    });
  });
  afterAll(async () => {
    await h.stop();
  });

  it('one asker’s 100 questions: 3 are queued, 97 refused at once with nothing posted; another asker is answered meanwhile', async () => {
    const flood = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        h.driver.command('/ask', `How do renewals work? (${i})`, {
          user: 'UFLOOD',
          channel: 'CFLOOD',
          responseUrl: h.slack.responseUrl(`flood-${i}`),
        }),
      ),
    );
    expect(flood.every((res) => res.status === 200)).toBe(true);
    // A budget, not a speed: 97 replies through response_urls take long on a machine under load
    // (two CPU burners beside the suite once needed more than 15 s).
    await h.slack.waitFor(() => refusalsIn('flood-').length === 97, 60_000);

    // A mention beyond the cap is refused the same way, before the bot reacts to it.
    await h.driver.event(
      {
        type: 'app_mention',
        user: 'UFLOOD',
        text: '<@UBOT> and transfers?',
        channel: 'CFLOOD',
        ts: '1700000300.000100',
      },
      { eventId: 'EvFlood101' },
    );
    const refusedMention = () =>
      h.slack
        .succeeded('chat.postEphemeral')
        .find((c) => c.args.user === 'UFLOOD' && messageText(c).includes(REFUSAL));
    await h.slack.waitFor(() => refusedMention() !== undefined, 15_000);
    expect(h.slack.callsTo('reactions.add').filter((c) => c.args.timestamp === '1700000300.000100')).toEqual(
      [],
    );

    await h.driver.command('/ask', 'How do I enable DNSSEC?', { user: 'UOTHER', channel: 'COTHER' });
    // The other asker does not wait behind the flood's refused questions (nor, being paced per
    // channel, behind the posting of its admitted ones).
    await h.slack.waitFor(() => answersTo('UOTHER').length === 1, 30_000);
    // The /ask refusals went through their response_urls; the only ephemeral there is the mention's.
    expect(
      h.slack.calls.filter((c) => c.args.channel === 'CFLOOD' && c.method === 'chat.postEphemeral'),
    ).toHaveLength(1);

    // Answered questions give their places back.
    await h.slack.waitFor(() => answersTo('UFLOOD').length === 3, 40_000);
    // Nothing of a refused question was posted or queued.
    expect(asked('UFLOOD')).toHaveLength(3);
    expect(await jobsOf('UFLOOD')).toHaveLength(3);
    await h.driver.command('/ask', 'And transfers?', { user: 'UFLOOD', channel: 'CFLOOD' });
    await h.slack.waitFor(() => answersTo('UFLOOD').length === 4, 20_000);
    expect(asked('UFLOOD')).toHaveLength(4);
  }, 150_000);
});
