import { WebClient } from '@slack/web-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeSlack } from '../helpers/fake-slack.js';

/** The Slack stand-in refuses assistant calls as Slack does, so the tests above cannot pass by accident. */
describe('assistant.threads.* in the Slack stand-in', () => {
  let slack: FakeSlack;
  let client: WebClient;
  const refusal = (call: Promise<unknown>) =>
    call.then(
      () => 'ok',
      (error: { data?: { error?: string } }) => error.data?.error,
    );

  beforeAll(async () => {
    slack = await new FakeSlack().start();
    client = new WebClient('xoxb-standin', { slackApiUrl: slack.apiUrl, retryConfig: { retries: 0 } });
    slack.conversation('DOTHER', { kind: 'im', botMember: false, members: ['U1', 'U2'] });
  });
  afterAll(async () => {
    await slack.stop();
  });

  it('needs an assistant thread in a DM with the bot', async () => {
    const thread = slack.startAssistantThread('U1');
    const status = { channel_id: thread.channel, thread_ts: thread.threadTs, status: 'is looking it up…' };
    expect(await refusal(client.assistant.threads.setStatus(status))).toBe('ok');
    expect(slack.assistantThreads.get(`${thread.channel}:${thread.threadTs}`)?.status).toBe(
      'is looking it up…',
    );
    expect(await refusal(client.assistant.threads.setStatus({ ...status, channel_id: 'C0001' }))).toBe(
      'channel_not_found',
    );
    expect(await refusal(client.assistant.threads.setStatus({ ...status, channel_id: 'DOTHER' }))).toBe(
      'channel_not_found',
    );
    expect(await refusal(client.assistant.threads.setStatus({ ...status, thread_ts: '1.2' }))).toBe(
      'invalid_thread_ts',
    );
    expect(await refusal(client.assistant.threads.setStatus({ ...status, status: 'x'.repeat(101) }))).toBe(
      'invalid_arguments',
    );
  });

  it('takes one to four suggested prompts, and a non-empty title', async () => {
    const thread = slack.startAssistantThread('U2');
    const where = { channel_id: thread.channel, thread_ts: thread.threadTs };
    const prompt = { title: 'DNSSEC', message: 'How do I enable DNSSEC?' };
    expect(await refusal(client.assistant.threads.setSuggestedPrompts({ ...where, prompts: [prompt] }))).toBe(
      'ok',
    );
    expect(
      await refusal(
        client.assistant.threads.setSuggestedPrompts({
          ...where,
          prompts: [prompt, prompt, prompt, prompt, prompt] as never,
        }),
      ),
    ).toBe('invalid_arguments');
    expect(await refusal(client.assistant.threads.setTitle({ ...where, title: ' ' }))).toBe(
      'invalid_arguments',
    );
    expect(await refusal(client.assistant.threads.setTitle({ ...where, title: 'Renewals' }))).toBe('ok');
  });
});
