import { describe, expect, it } from 'vitest';
import {
  answeredPrivately,
  panelStatus,
  privateReply,
  retryingMessage,
  threadReply,
  waitingMessage,
} from '../../src/features/assistant/blocks.js';
import { SUGGESTED_PROMPTS } from '../../src/features/assistant/panel.js';
import { inLanguage, LOCALES, type Locale } from '../../src/text/index.js';
import { checkBuilders, type Entry } from '../helpers/builder-checks.js';
import { HOSTILE, NOW, REGISTRAR_SAID } from '../helpers/builder-fixtures.js';

/**
 * Every builder of the assistant's messages, and its words that Block Kit does not carry. Each is rendered in
 * every language at the largest its inputs realistically get and checked by test/helpers/builder-checks.ts
 * (Block Kit limits, no outside markup, German differs, dates as tokens). A builder added later is one line
 * of `BUILDERS` here.
 */

const HOSTS = ['docs.example.org'];
/** The largest answer: far more than one message, 20 sources, truncated by the registrar, from the cache. */
const huge = {
  ok: true as const,
  answer: {
    answer: `## Renewals\n\n${HOSTILE}\n\nSee [Domains](/my/domains).\n\n${'Renewal details follow. '.repeat(12_000)}`,
    truncated: true,
    sources: Array.from({ length: 20 }, (_, i) => ({
      title: `Source ${i} ${'t'.repeat(80)}`,
      url: `/my/help/${i}`,
    })),
    dashboard_url: 'https://dash.regfish.example',
  },
  cachedAt: NOW - 3_600_000,
};
const QUESTION = 'Why does my domain not resolve after I changed the nameservers? '
  .repeat(16)
  .slice(0, 1_000);
const failed = { ok: false as const, reason: REGISTRAR_SAID };

const BUILDERS: Entry[] = [
  ['assistant: waiting, asking now', 'message', () => waitingMessage(0)],
  ['assistant: waiting in the queue', 'message', () => waitingMessage(99, 3 * 3_600_000)],
  ['assistant: waiting, time unknown', 'message', () => waitingMessage(99)],
  ['assistant: retrying', 'message', () => retryingMessage(REGISTRAR_SAID)],
  ['assistant: answered privately', 'message', () => answeredPrivately('U0ASKER')],
  ['assistant: answer in the thread', 'message', () => threadReply(huge, 'U0ASKER', HOSTS, NOW)],
  ['assistant: no answer in the thread', 'message', () => threadReply(failed, 'U0ASKER', HOSTS, NOW)],
  ['assistant: private answer (policy)', 'message', () => privateReply(huge, QUESTION, 'policy', HOSTS)],
  ['assistant: private answer (thread gone)', 'message', () => privateReply(huge, QUESTION, 'gone', HOSTS)],
  ['assistant: private failure (policy)', 'message', () => privateReply(failed, QUESTION, 'policy', HOSTS)],
  [
    'assistant: private failure (thread gone)',
    'message',
    () => privateReply(failed, QUESTION, 'gone', HOSTS),
  ],
];

checkBuilders('assistant', BUILDERS);

describe('the assistant’s words outside Block Kit', () => {
  it('thread statuses follow the language', () => {
    const said = (locale: Locale) =>
      inLanguage(locale, () => [
        panelStatus.waiting(0, 90_000),
        panelStatus.waiting(12, 90_000),
        panelStatus.working(),
        panelStatus.retrying(),
      ]);
    const english = said('en');
    expect(said('de').filter((line, i) => line === english[i])).toEqual([]);
  });

  it('suggested prompts exist in each language, at most four (assistant.threads.setSuggestedPrompts)', () => {
    for (const locale of LOCALES) expect(SUGGESTED_PROMPTS[locale].prompts.length).toBeLessThanOrEqual(4);
    expect(SUGGESTED_PROMPTS.de).not.toEqual(SUGGESTED_PROMPTS.en);
  });
});
