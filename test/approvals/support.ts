import { expect } from 'vitest';
import { APPROVAL_IDS } from '../../src/features/approvals/ids.js';
import type { Redis } from '../../src/shared/redis.js';
import type { Harness } from '../helpers/app-harness.js';
import type { SlackCall } from '../helpers/fake-slack.js';
import { buttonPress, messageText } from '../helpers/payloads.js';

/** The workspace every signed request of the harness comes from. */
export const WS = { teamId: 'T0001' };

/**
 * Asks for a sensitive action in `channel` (each test its own: posts are paced per channel, R7);
 * returns the request id and the `ts` of its public message.
 */
export async function ask(
  h: Harness,
  command: string,
  text: string,
  options: { user: string; channel: string },
): Promise<{ id: string; ts: string }> {
  const isRequest = (c: SlackCall) =>
    c.method === 'chat.postMessage' &&
    c.args.channel === options.channel &&
    messageText(c).includes(APPROVAL_IDS.withdraw) &&
    (c.result as { ok?: boolean } | undefined)?.ok === true;
  const before = h.slack.calls.filter(isRequest).length;
  await h.driver.command(command, text, options);
  await h.slack.waitFor((calls) => calls.filter(isRequest).length > before, 10_000);
  const posted = h.slack.calls.filter(isRequest).at(-1);
  const id = new RegExp(`"action_id":"${APPROVAL_IDS.approve}","value":"(apr_[0-9a-f]+)"`).exec(
    JSON.stringify(posted?.args.blocks),
  )?.[1];
  const ts = (posted?.result as { ts?: string } | undefined)?.ts;
  if (id === undefined || ts === undefined) throw new Error('no approval request was posted');
  // Regdesk records the message as the request's own right after Slack answers the post. Polled by
  // hand: `ask` also runs in hooks, where `expect.poll` cannot.
  for (const deadline = Date.now() + 5_000; ; await new Promise((resolve) => setTimeout(resolve, 20))) {
    if ((await h.running.services.approvalStore.get(WS, id))?.messageTs === ts) break;
    if (Date.now() > deadline) throw new Error(`approval request ${id} was not recorded as shown`);
  }
  return { id, ts };
}

export function press(h: Harness, action: string, id: string, user: string, channel: string) {
  return h.driver.interaction(buttonPress(action, id, { user, channel }));
}

/** Messages the bot posted in its DM with `user` (the fake names that DM `D<user>`). */
export function dmsTo(h: Harness, user: string): string[] {
  return h.slack
    .succeeded('chat.postMessage')
    .filter((c) => c.args.channel === `D${user}`)
    .map(messageText);
}

/** What `user` was told privately (ephemerals in any conversation and DMs). */
export function toldTo(h: Harness, user: string): string[] {
  const ephemerals = h.slack
    .callsTo('chat.postEphemeral')
    .filter((c) => c.args.user === user)
    .map(messageText);
  return [...ephemerals, ...dmsTo(h, user)];
}

export async function waitForDm(
  h: Harness,
  user: string,
  words: string,
  timeoutMs = 10_000,
): Promise<string> {
  await h.slack.waitFor(() => dmsTo(h, user).some((text) => text.includes(words)), timeoutMs);
  return dmsTo(h, user).find((text) => text.includes(words)) ?? '';
}

/** Keys under the harness's prefix that match `pattern` (after the prefix). */
export async function keysMatching(redis: Redis, h: Harness, pattern: string): Promise<string[]> {
  const found: string[] = [];
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${h.keyPrefix}:${pattern}`, 'COUNT', 500);
    cursor = next;
    found.push(...keys);
  } while (cursor !== '0');
  return found;
}

/** Nothing of any approval request is stored: no request, nothing pending, no `request` audit entry, no job. */
export async function expectNoRequestStored(redis: Redis, h: Harness): Promise<void> {
  const { approvalStore, audit, approvalQueue } = h.running.services;
  expect(await keysMatching(redis, h, '{ws:-:T0001}:approval:*')).toEqual([]);
  expect(await approvalStore.pending(WS)).toEqual([]);
  expect((await audit.latest(WS, { limit: 100 })).filter((entry) => entry.action === 'request')).toEqual([]);
  expect(await approvalQueue.getJobCountByTypes('delayed', 'waiting', 'active')).toBe(0);
}
