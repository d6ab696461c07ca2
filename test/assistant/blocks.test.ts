import { describe, expect, it } from 'vitest';
import { privateReply, threadReply } from '../../src/features/assistant/blocks.js';
import type { Outcome } from '../../src/features/assistant/outcome.js';
import { assertWithinBlockKitLimits } from '../helpers/block-kit.js';

/** The largest answer a registrar could send: far more than one message, many sources, truncated. */
const huge: Outcome = {
  ok: true,
  answer: {
    answer: `## Renewals\n\nSee [Domains](/my/domains).\n\n${'Renewal details follow. '.repeat(12_000)}`,
    truncated: true,
    sources: Array.from({ length: 20 }, (_, i) => ({ title: `Source ${i}`, url: `/my/help/${i}` })),
    dashboard_url: 'https://dash.regfish.example',
  },
};

describe('assistant replies', () => {
  it('an oversized answer fits one message in the thread and privately, links absolute', () => {
    const inThread = threadReply(huge, 'U0001');
    const alone = privateReply(huge, 'How do renewals work?');
    for (const message of [inThread, alone]) {
      assertWithinBlockKitLimits(message, 'message');
      expect(JSON.stringify(message.blocks)).toContain('<https://dash.regfish.example/my/domains|Domains>');
      expect(JSON.stringify(message.blocks)).toContain('The registrar shortened this answer.');
    }
    // The reply in the thread mentions the asker (edits notify nobody); the private one needs not.
    expect(inThread.text).toMatch(/^<@U0001> /);
    expect(JSON.stringify(inThread.blocks[0])).toContain('<@U0001>');
    expect(alone.text).not.toContain('<@');
  });

  it('a failure names the asker and keeps the reason and question inert', () => {
    const failed: Outcome = { ok: false, reason: 'busy <!channel>' };
    expect(threadReply(failed, 'U0002').text).toBe('<@U0002> :x: No answer: busy &lt;!channel&gt;');
    expect(privateReply(failed, 'why <@U9>?').text).toContain('“why &lt;@U9&gt;?”');
  });
});
