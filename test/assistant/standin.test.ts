import { WebClient } from '@slack/web-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeSlack } from '../helpers/fake-slack.js';

/**
 * The Slack stand-in answers `assistant.threads.*` as Slack documents them for an agent app (manifest
 * `features.agent_view`), so the tests above cannot pass by accident: suggested prompts are pinned to
 * a Messages tab (a DM with the bot) without a thread; a status or title names a thread by the ts of
 * its root message in a conversation the bot is in.
 */
describe('assistant.threads.* in the Slack stand-in (agent messaging)', () => {
  let slack: FakeSlack;
  let client: WebClient;
  const refusal = (call: Promise<unknown>) =>
    call.then(
      () => 'ok',
      (error: { data?: { error?: string } }) => error.data?.error,
    );
  const prompt = { title: 'DNSSEC', message: 'How do I enable DNSSEC?' };

  beforeAll(async () => {
    slack = await new FakeSlack().start();
    client = new WebClient('xoxb-standin', { slackApiUrl: slack.apiUrl, retryConfig: { retries: 0 } });
    slack.conversation('DOTHER', { kind: 'im', botMember: false, members: ['U1', 'U2'] });
    slack.conversation('CWITHOUT', { kind: 'public', botMember: false });
  });
  afterAll(async () => {
    await slack.stop();
  });

  it('a status needs the root of a thread in a conversation the bot is in', async () => {
    const posted = slack.postAsUser('U1', 'DU1', 'How do I renew?');
    if (!posted.ok) throw new Error(posted.error);
    const root = posted.message.ts;
    const status = { channel_id: 'DU1', thread_ts: root, status: 'is looking it up…' };
    expect(await refusal(client.assistant.threads.setStatus(status))).toBe('ok');
    expect(slack.assistantThreads.get(`DU1:${root}`)?.status).toBe('is looking it up…');
    // Slack's loading state works in channels too (changelog 2026-03-05), on a message there.
    const inChannel = slack.postAsUser('U1', 'C0001', 'renewal?');
    if (!inChannel.ok) throw new Error(inChannel.error);
    expect(
      await refusal(
        client.assistant.threads.setStatus({
          ...status,
          channel_id: 'C0001',
          thread_ts: inChannel.message.ts,
        }),
      ),
    ).toBe('ok');
    expect(await refusal(client.assistant.threads.setStatus({ ...status, channel_id: 'C0001' }))).toBe(
      'invalid_thread_ts',
    );
    expect(await refusal(client.assistant.threads.setStatus({ ...status, channel_id: 'CWITHOUT' }))).toBe(
      'channel_not_found',
    );
    expect(await refusal(client.assistant.threads.setStatus({ ...status, channel_id: 'DOTHER' }))).toBe(
      'channel_not_found',
    );
    expect(await refusal(client.assistant.threads.setStatus({ ...status, thread_ts: '1.2' }))).toBe(
      'invalid_thread_ts',
    );
    // A reply is not a thread: its root is.
    const reply = slack.postAsUser('U1', 'DU1', 'and DNSSEC?', root);
    if (!reply.ok) throw new Error(reply.error);
    expect(
      await refusal(client.assistant.threads.setStatus({ ...status, thread_ts: reply.message.ts })),
    ).toBe('invalid_thread_ts');
    expect(await refusal(client.assistant.threads.setStatus({ ...status, status: 'x'.repeat(101) }))).toBe(
      'invalid_arguments',
    );
    expect(
      await refusal(
        client.assistant.threads.setStatus({
          ...status,
          loading_messages: Array.from({ length: 11 }, () => 'wait'),
        }),
      ),
    ).toBe('invalid_arguments');
  });

  it('suggested prompts: one to four, pinned to a Messages tab; with a thread_ts nothing is shown', async () => {
    const pin = (args: Record<string, unknown>) =>
      refusal(client.assistant.threads.setSuggestedPrompts(args as never));
    expect(await pin({ channel_id: 'DU2', title: 'Ask me', prompts: [prompt] })).toBe('ok');
    expect(slack.suggestedPrompts.get('DU2')).toEqual({ title: 'Ask me', prompts: [prompt] });
    expect(await pin({ channel_id: 'DU2', prompts: [prompt, prompt, prompt, prompt, prompt] })).toBe(
      'invalid_arguments',
    );
    expect(await pin({ channel_id: 'DU2', prompts: [] })).toBe('invalid_arguments');
    expect(await pin({ channel_id: 'DU2', prompts: [{ title: 'DNSSEC', message: '' }] })).toBe(
      'invalid_arguments',
    );
    expect(await pin({ channel_id: 'C0001', prompts: [prompt] })).toBe('channel_not_found');
    expect(await pin({ channel_id: 'DOTHER', prompts: [prompt] })).toBe('channel_not_found');
    // Slack's reference: "Including it in a call for an agent app will cause the call to silently fail."
    expect(await pin({ channel_id: 'DU3', thread_ts: '1.2', prompts: [prompt] })).toBe('ok');
    expect(slack.suggestedPrompts.get('DU3')).toBeUndefined();
  });

  it('a title: a non-empty one, on the root of a thread in a DM with the bot', async () => {
    const posted = slack.postAsUser('U2', 'DU2', 'Renewals');
    if (!posted.ok) throw new Error(posted.error);
    const where = { channel_id: 'DU2', thread_ts: posted.message.ts };
    expect(await refusal(client.assistant.threads.setTitle({ ...where, title: ' ' }))).toBe(
      'invalid_arguments',
    );
    expect(await refusal(client.assistant.threads.setTitle({ ...where, title: 'Renewals' }))).toBe('ok');
    expect(slack.assistantThreads.get(`DU2:${posted.message.ts}`)?.title).toBe('Renewals');
    const inChannel = slack.postAsUser('U2', 'C0001', 'Renewals');
    if (!inChannel.ok) throw new Error(inChannel.error);
    expect(
      await refusal(
        client.assistant.threads.setTitle({
          channel_id: 'C0001',
          thread_ts: inChannel.message.ts,
          title: 'x',
        }),
      ),
    ).toBe('channel_not_found');
  });
});
