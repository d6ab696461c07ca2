import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Outcome } from '../../src/features/assistant/answer.js';
import { privateReply, type Reply, threadReply } from '../../src/features/assistant/blocks.js';
import { assertWithinBlockKitLimits } from '../helpers/block-kit.js';
import { anyHref, anyText } from './arbitraries.js';

const DASHBOARD = 'https://dash.regfish.example';
const HOSTS = ['docs.example.org'];

/** The largest answer a registrar could send: far more than one message, many sources, truncated. */
const huge: Outcome = {
  ok: true,
  answer: {
    answer: `## Renewals\n\nSee [Domains](/my/domains).\n\n${'Renewal details follow. '.repeat(12_000)}`,
    truncated: true,
    sources: Array.from({ length: 20 }, (_, i) => ({ title: `Source ${i}`, url: `/my/help/${i}` })),
    dashboard_url: DASHBOARD,
  },
};

/** Every string of a reply, as Slack would read it (text, section and context texts). */
function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (typeof value !== 'object' || value === null) return [];
  return Object.values(value).flatMap(strings);
}

const replies = (outcome: Outcome): Reply[] => [
  threadReply(outcome, 'UASKER', HOSTS),
  privateReply(outcome, 'How do renewals work?', 'policy', HOSTS),
  privateReply(outcome, 'How do renewals work?', 'gone', HOSTS),
];

describe('assistant replies', () => {
  it('an oversized answer fits one message in the thread and privately, links absolute', () => {
    for (const message of replies(huge)) {
      assertWithinBlockKitLimits(message, 'message');
      expect(JSON.stringify(message.blocks)).toContain('<https://dash.regfish.example/my/domains|Domains>');
      expect(JSON.stringify(message.blocks)).toContain('The registrar shortened this answer.');
    }
    const [inThread, alone, gone] = replies(huge);
    // The reply in the thread mentions the asker (edits notify nobody); the private ones need not.
    expect(inThread?.text).toMatch(/^<@UASKER> /);
    expect(JSON.stringify(inThread?.blocks[0])).toContain('<@UASKER>');
    expect(alone?.text).not.toContain('<@');
    expect(alone?.text).toContain('answered only to you');
    expect(gone?.text).toContain('could not be answered in its thread');
  });

  it('a failure names the asker and keeps the reason and question inert', () => {
    const failed: Outcome = { ok: false, reason: 'busy <!channel>' };
    expect(threadReply(failed, 'U0002', HOSTS).text).toBe('<@U0002> :x: No answer: busy &lt;!channel&gt;');
    expect(privateReply(failed, 'why <@U9>?', 'policy', HOSTS).text).toContain('“why &lt;@U9&gt;?”');
  });

  it('shows the answer verbatim, so Slack links nothing the converter left as text', () => {
    const [inThread] = replies({
      ok: true,
      answer: { answer: 'See https://evil.example/login #general', truncated: false, sources: [] },
    });
    expect(inThread?.blocks[1]).toEqual({
      type: 'section',
      text: { type: 'mrkdwn', text: 'See https://evil.example/login #general', verbatim: true },
    });
    // Notifications repeat nothing of the answer.
    expect(inThread?.text).toBe('<@UASKER> here is the answer to your question:');
  });

  it('lets no registrar string mention, ping or link anywhere but allowed hosts', () => {
    const answer = fc.record({
      answer: anyText,
      truncated: fc.boolean(),
      sources: fc.array(fc.record({ title: anyText, url: anyHref }, { requiredKeys: ['title'] }), {
        maxLength: 10,
      }),
      dashboard_url: fc.option(fc.oneof(fc.constant(DASHBOARD), anyHref), { nil: undefined }),
    });
    fc.assert(
      fc.property(answer, ({ dashboard_url, ...rest }) => {
        const outcome: Outcome = {
          ok: true,
          answer: dashboard_url === undefined ? rest : { ...rest, dashboard_url },
        };
        const allowed = new Set([...HOSTS, ...hostOf(dashboard_url)]);
        for (const reply of replies(outcome)) {
          for (const text of strings(reply)) {
            expect(text.replaceAll('<@UASKER>', '')).not.toMatch(/<[!@#]/);
            for (const [, url] of text.matchAll(/<([^|>]*)\|/g))
              expect(allowed).toContain(new URL(url ?? '').hostname);
          }
        }
      }),
      { numRuns: 400 },
    );
  });
});

function hostOf(url: string | undefined): string[] {
  return url !== undefined && URL.canParse(url) ? [new URL(url).hostname] : [];
}
