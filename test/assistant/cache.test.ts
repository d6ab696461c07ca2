import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AnswerCache, normaliseQuestion } from '../../src/features/assistant/cache.js';
import { createRedis, KeySpace } from '../../src/shared/redis.js';
import { assertWithinBlockKitLimits } from '../helpers/block-kit.js';
import type { SlackCall } from '../helpers/fake-slack.js';
import { messageText } from '../helpers/payloads.js';
import { testRedisUrl } from '../helpers/provided-context.js';
import { type AssistantWorld, outcomesIn, startAssistantWorld } from './support.js';

const LIMIT = { max: 50, windowMs: 60_000 };
const NONE: SlackCall = { method: '', args: {}, at: 0 };

describe('the answer cache', () => {
  let w: AssistantWorld;

  /** Asks with `/ask` and returns the outcome reply in the question's thread. */
  const ask = async (question: string, options: { user: string; team?: string; channel?: string }) => {
    const channel = options.channel ?? `C${options.user}`;
    const posted = () =>
      w.h.slack
        .succeeded('chat.postMessage')
        .filter((c) => c.args.channel === channel && c.args.thread_ts === undefined);
    const before = posted().length;
    await w.h.driver.command('/ask', question, {
      user: options.user,
      channel,
      ...(options.team === undefined ? {} : { team: options.team }),
    });
    await w.h.slack.waitFor(() => posted().length > before, 15_000);
    const threadTs = String((posted()[before]?.result as { ts?: string } | undefined)?.ts);
    await w.h.slack.waitFor(() => outcomesIn(w.h.slack.calls, channel, threadTs).length === 1, 15_000);
    return outcomesIn(w.h.slack.calls, channel, threadTs)[0] ?? NONE;
  };

  beforeAll(async () => {
    w = await startAssistantWorld({
      env: { REGFISH_LIMITS: JSON.stringify({ assistantKey: LIMIT, assistantAccount: LIMIT }) },
      sandbox: { limits: { assistantKey: LIMIT, assistantAccount: LIMIT } },
    });
  });
  afterAll(async () => {
    await w.stop();
  });

  it('answers a repeat (case, spacing, punctuation aside) at once from the cache, without a registrar call, and says so', async () => {
    const first = await ask('How does auto-renew work for a renewal?', { user: 'UC1' });
    expect(messageText(first)).not.toContain('answer cache');
    const { assistant } = w.h.running.services;
    const perKey = assistant.redisKeys.perKey(await assistant.accountOf({ teamId: 'T0001' }));
    const spent = await w.h.running.services.redis.zcard(perKey);
    const repeat = await ask('  how does AUTO-RENEW work for a   renewal ', { user: 'UC2' });
    // No quota spent: the per-key window holds no new call.
    expect(await w.h.running.services.redis.zcard(perKey)).toBe(spent);
    expect(messageText(repeat)).toContain('From the answer cache');
    expect(messageText(repeat)).toContain('less than a minute ago');
    expect(messageText(repeat)).toContain('Renewals');
    assertWithinBlockKitLimits(repeat.args, 'message');
    expect(w.registrar.about('auto-renew')).toHaveLength(1);
    // No placeholder for the cached one: nothing waited.
    expect(
      w.h.slack.calls.filter(
        (c) => c.args.channel === 'CUC2' && messageText(c).includes('Asking the registrar'),
      ),
    ).toEqual([]);
  });

  it('never answers from another workspace’s cache', async () => {
    // Members of that workspace, as its users.info says (anyone else is an outsider there: R33).
    for (const id of ['UW2', 'UW3']) w.h.slack.users.set(id, { id, team_id: 'T0002' });
    await ask('Where are my billing invoices?', { user: 'UW1' });
    await ask('Where are my billing invoices?', { user: 'UW2', team: 'T0002' });
    expect(w.registrar.about('billing invoices')).toHaveLength(2);
    // Each workspace then has its own cached answer.
    expect(messageText(await ask('where are my billing invoices', { user: 'UW3', team: 'T0002' }))).toContain(
      'From the answer cache',
    );
    expect(w.registrar.about('billing invoices')).toHaveLength(2);
  });

  it('never answers with another key’s answer: a new key asks the registrar again', async () => {
    for (const id of ['UK1', 'UK2']) w.h.slack.users.set(id, { id, team_id: 'T0005' });
    w.h.sandbox.addKey('cache-key-one', ['assistant', 'domain:read'], 'acct-one');
    w.h.sandbox.addKey('cache-key-two', ['assistant', 'domain:read'], 'acct-two');
    await w.h.running.services.vault.put({ teamId: 'T0005' }, 'registrar-key', 'cache-key-one', 'test');
    await ask('How do vanity nameservers work?', { user: 'UK1', team: 'T0005' });
    await w.h.running.services.vault.put({ teamId: 'T0005' }, 'registrar-key', 'cache-key-two', 'test');
    const fresh = await ask('How do vanity nameservers work?', { user: 'UK2', team: 'T0005' });
    expect(messageText(fresh)).not.toContain('answer cache');
    expect(w.registrar.about('vanity nameservers').map((a) => a.apiKey)).toEqual([
      'cache-key-one',
      'cache-key-two',
    ]);
  });

  it('keeps no failed outcome: a question the registrar refused is asked again', async () => {
    w.h.sandbox.faults.inject('assistant.search', { status: 400, times: 1 });
    expect(messageText(await ask('What is a DNS record TTL?', { user: 'UF1' }))).toContain('No answer');
    expect(messageText(await ask('What is a DNS record TTL?', { user: 'UF2' }))).not.toContain(
      'answer cache',
    );
    expect(w.registrar.about('DNS record TTL')).toHaveLength(2);
  });
});

describe('AnswerCache', () => {
  const redis = createRedis(testRedisUrl(), 'worker');
  const keys = new KeySpace(`t${randomBytes(5).toString('hex')}`);
  const answer = { answer: 'Yes.', truncated: false, sources: [] };
  const query = { workspace: { teamId: 'T1' }, account: 'fp1', locale: 'en-US', question: 'Is it on?' };
  afterAll(async () => {
    await redis.quit();
  });

  it('separates locales and keys, and expires after its TTL', async () => {
    const cache = new AnswerCache(redis, keys, 300);
    await cache.put(query, answer);
    expect((await cache.get({ ...query, question: 'is it on' }))?.answer.answer).toBe('Yes.');
    expect(await cache.get({ ...query, locale: 'de-DE' })).toBeUndefined();
    expect(await cache.get({ ...query, locale: undefined })).toBeUndefined();
    expect(await cache.get({ ...query, account: 'fp2' })).toBeUndefined();
    expect(await cache.get({ ...query, workspace: { teamId: 'T1', enterpriseId: 'E1' } })).toBeUndefined();
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(await cache.get(query)).toBeUndefined();
  });

  it('`0` turns it off: nothing is kept', async () => {
    const cache = new AnswerCache(redis, keys, 0);
    await cache.put(query, answer);
    expect(cache.enabled).toBe(false);
    expect(await cache.get(query)).toBeUndefined();
    expect(await redis.keys(`${keys.prefix}*cache*`)).toEqual([]);
  });

  it('normalises case, whitespace and trailing punctuation only', () => {
    expect(normaliseQuestion('  How do I Renew?! ')).toBe('how do i renew');
    expect(normaliseQuestion('How do I renew…')).toBe('how do i renew');
    expect(normaliseQuestion('How do I renew example.com?')).toBe('how do i renew example.com');
    expect(normaliseQuestion('renew a.com')).not.toBe(normaliseQuestion('renew b.com'));
  });
});
