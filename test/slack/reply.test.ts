import { randomBytes } from 'node:crypto';
import { WebClient } from '@slack/web-api';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/shared/logger.js';
import { KeySpace } from '../../src/shared/redis.js';
import { replyForError } from '../../src/slack/error-reply.js';
import { CannotPostHere, notifyByDm, postPublicly, replyPrivately } from '../../src/slack/reply.js';
import { SlackDirectory } from '../../src/slack/users.js';
import { openModal, updateModal } from '../../src/slack/views.js';
import { FakeSlack, newTriggerId } from '../helpers/fake-slack.js';
import { testRedisUrl } from '../helpers/provided-context.js';

const logger = createLogger({ level: 'silent' });

describe('where replies go, against a Slack that refuses what Slack refuses', () => {
  let slack: FakeSlack;
  let client: WebClient;

  beforeAll(async () => {
    slack = await new FakeSlack().start();
    client = new WebClient('xoxb-reply-test', { slackApiUrl: slack.apiUrl, retryConfig: { retries: 0 } });
    slack.conversation('CPUBLIC', { kind: 'public', botMember: false });
    slack.conversation('GPRIVATE', { kind: 'private', botMember: false, members: ['U1'] });
    slack.conversation('CARCHIVED', { kind: 'public', botMember: true, archived: true });
  });
  afterAll(async () => {
    await slack.stop();
  });

  it('a public post where the bot is not a member becomes advice, not "something went wrong"', async () => {
    for (const channel of ['CPUBLIC', 'GPRIVATE', 'CARCHIVED']) {
      const attempt = postPublicly(() => client.chat.postMessage({ channel, text: 'x' }));
      await expect(attempt).rejects.toBeInstanceOf(CannotPostHere);
      const text = replyForError(await attempt.catch((error: unknown) => error), logger).text;
      expect(text).not.toContain('Something went wrong');
      expect(text).toMatch(/invite it with `\/invite @Regdesk`|archived/);
    }
  });

  it('a private reply uses the response_url first, and the DM with the bot when that fails', async () => {
    const viaUrl: unknown[] = [];
    expect(
      await replyPrivately(
        { user: 'U1', client, respond: async (message) => viaUrl.push(message) },
        { text: 'one' },
        logger,
      ),
    ).toBe(true);
    expect(viaUrl).toHaveLength(1);
    expect(slack.callsTo('conversations.open')).toHaveLength(0);

    const failing = async () => {
      throw new Error('response_url expired');
    };
    expect(await replyPrivately({ user: 'U1', client, respond: failing }, { text: 'two' }, logger)).toBe(
      true,
    );
    const dm = slack.succeeded('chat.postMessage').at(-1);
    expect(dm?.args).toMatchObject({ channel: 'DU1', text: 'two' });
  });

  it('a DM to a deactivated user is reported as not delivered', async () => {
    slack.users.set('UGONE', { id: 'UGONE', deleted: true });
    expect(await notifyByDm(client, 'UGONE', { text: 'hello' }, logger)).toBe(false);
  });

  it('modals open within the trigger window only, and updating a closed modal is not an error', async () => {
    const opened = await openModal(client, newTriggerId(), {
      type: 'modal',
      title: { type: 'plain_text', text: 't' },
      blocks: [],
    });
    expect(opened.id).not.toBe('');
    await expect(
      openModal(client, newTriggerId(Date.now() - 4_000), {
        type: 'modal',
        title: { type: 'plain_text', text: 't' },
        blocks: [],
      }),
    ).rejects.toMatchObject({ data: { error: 'expired_trigger_id' } });
    const view = { type: 'modal' as const, title: { type: 'plain_text' as const, text: 't' }, blocks: [] };
    expect(await updateModal(client, opened, view)).toBe(true);
    slack.closeView(opened.id);
    expect(await updateModal(client, opened, view)).toBe(false);
  });

  it('a modal opens at once while other calls of the same client wait out a 429', async () => {
    slack.failNext('chat.postMessage', 'ratelimited', 5);
    const paced = new WebClient('xoxb-reply-test', { slackApiUrl: slack.apiUrl });
    const waiting = paced.chat.postMessage({ channel: 'C1', text: 'queued behind Retry-After' });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const started = Date.now();
    await openModal(paced, newTriggerId(), {
      type: 'modal',
      title: { type: 'plain_text', text: 't' },
      blocks: [],
    });
    expect(Date.now() - started).toBeLessThan(1_000);
    await waiting;
  }, 20_000);
});

describe('Slack directory cache', () => {
  let slack: FakeSlack;
  let redis: Redis;

  beforeAll(async () => {
    slack = await new FakeSlack().start();
    redis = new Redis(testRedisUrl());
  });
  afterAll(async () => {
    redis.disconnect();
    await slack.stop();
  });

  it('asks Slack once per user within a minute, across directories (processes) sharing Redis', async () => {
    const keys = new KeySpace(`t${randomBytes(4).toString('hex')}`);
    const client = new WebClient('xoxb-dir', { slackApiUrl: slack.apiUrl });
    slack.users.set('UGUEST', { id: 'UGUEST', is_restricted: true, tz: 'America/New_York' });
    const first = new SlackDirectory(redis, keys);
    const second = new SlackDirectory(redis, keys);
    const workspace = { teamId: 'T0001' };
    expect(await first.user(client, workspace, 'UGUEST')).toMatchObject({
      isGuest: true,
      tz: 'America/New_York',
    });
    expect(await second.user(client, workspace, 'UGUEST')).toMatchObject({ isGuest: true });
    expect(slack.callsTo('users.info')).toHaveLength(1);
    expect(await redis.ttl(keys.key('ws:-:T0001', 'slack-user', 'UGUEST'))).toBeLessThanOrEqual(60);
  });
});
