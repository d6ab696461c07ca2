import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { texts } from '../../src/text/index.js';
import { type Harness, startHarness } from '../helpers/app-harness.js';

const de = texts('de');
const en = texts('en');

/** Pairs of members, one German and one English, whose requests all arrive at once. */
const PAIRS = 40;
/** Room for every pair's check at once, at the registrar and in Regdesk's own window. */
const ROOMY = { max: 1_000, windowMs: 60_000 };

const german = (i: number) => `U0RACEDE${String(i).padStart(2, '0')}`;
const english = (i: number) => `U0RACEEN${String(i).padStart(2, '0')}`;

/** The words that give each language away, in the three things a member is answered with here. */
const WORDS = {
  de: {
    help: de.slack.helpSummary,
    card: de.domains.checkTitle({ count: 1 }),
    owner: de.domains.ownerField({ owner: '' }).split('\n')[0] ?? '',
  },
  en: {
    help: en.slack.helpSummary,
    card: en.domains.checkTitle({ count: 1 }),
    owner: en.domains.ownerField({ owner: '' }).split('\n')[0] ?? '',
  },
};

/**
 * Issue #47 "The wrong language under load": an English member once got the German member's
 * `/domain check` card. Here 40 pairs of members, one German and one English, send their commands
 * all at once, many times over, each over real signed HTTP with a response_url of its own, and every
 * answer is read only from that member's own response_url: each must be in its member's language and
 * carry no word of the other's. Nothing here depends on how fast the machine is: every member's
 * language is known before the burst (a first request may fairly be answered in the workspace's
 * language while Slack is slow to say), and every wait is for a condition.
 */
describe('each member in their own language while many requests interleave (issue #47)', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness({
      env: { REGFISH_LIMITS: JSON.stringify({ availability: ROOMY }) },
      sandbox: { limits: { availability: ROOMY } },
    });
    for (let i = 0; i < PAIRS; i++) {
      h.slack.users.set(german(i), { id: german(i), locale: 'de-DE' });
      h.slack.users.set(english(i), { id: english(i), locale: 'en-US' });
    }
  });
  afterAll(async () => {
    await h?.stop();
  });

  /** The last thing said to one response_url, once it is a finished answer (no hourglass left). */
  async function finalReply(id: string, contains: (reply: string) => boolean): Promise<string> {
    const replies = () => h.slack.callsTo(`response_url:${id}`).map((c) => JSON.stringify(c.args));
    await h.slack.waitFor(() => replies().some(contains), 60_000);
    await expect.poll(() => replies().at(-1) ?? '', { timeout: 30_000 }).not.toContain(':hourglass');
    return replies().at(-1) ?? '';
  }

  it('answers help, the check card and the domain card of 40 interleaved pairs each in the member’s language', async () => {
    // Each German member's locale learnt first, as a person's first command would.
    await Promise.all(
      Array.from({ length: PAIRS }, (_, i) =>
        expect
          .poll(
            async () =>
              (await h.driver.command('/domain', 'help', { user: german(i), channel: 'C0RACE' })).text,
            { timeout: 30_000, interval: 250 },
          )
          .toContain(de.slack.helpSummary),
      ),
    );

    type Answer = { user: string; speaks: 'de' | 'en'; help: string; card: string; owner: string };
    const ask = async (i: number, speaks: 'de' | 'en', round: number): Promise<Answer> => {
      const user = speaks === 'de' ? german(i) : english(i);
      const url = (what: string) => `race-${round}-${what}-${user}`;
      const [help] = await Promise.all([
        h.driver.command('/domain', 'help', { user, channel: 'C0RACE' }),
        h.driver.command('/domain', 'check regdesk-free-name.de', {
          user,
          channel: 'C0RACE',
          responseUrl: h.slack.responseUrl(url('check')),
        }),
        h.driver.command('/domain', 'info regdesk-demo.de', {
          user,
          channel: 'C0RACE',
          responseUrl: h.slack.responseUrl(url('info')),
        }),
      ]);
      const [card, owner] = await Promise.all([
        finalReply(url('check'), (reply) => reply.includes('regdesk-free-name.de')),
        finalReply(url('info'), (reply) => reply.includes('regdesk-demo.de')),
      ]);
      return { user, speaks, help: help.text, card, owner };
    };

    for (let round = 0; round < 2; round++) {
      // German and English requests alternate on the wire: de 0, en 0, de 1, en 1 …
      const answers = await Promise.all(
        Array.from({ length: PAIRS }, (_, i) => [ask(i, 'de', round), ask(i, 'en', round)]).flat(),
      );
      const wrong = answers.filter((answer) => {
        const own = WORDS[answer.speaks];
        const other = WORDS[answer.speaks === 'de' ? 'en' : 'de'];
        return (
          !answer.help.includes(own.help) ||
          answer.help.includes(other.help) ||
          !answer.card.includes(own.card) ||
          answer.card.includes(other.card) ||
          !answer.owner.includes(own.owner) ||
          answer.owner.includes(other.owner)
        );
      });
      expect(wrong.map((answer) => `${answer.user} (${answer.speaks})`)).toEqual([]);
      expect(answers).toHaveLength(2 * PAIRS);
    }
  }, 240_000);
});
