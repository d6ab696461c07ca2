import { type Harness, startHarness } from '../helpers/app-harness.js';
import { assertWithinBlockKitLimits } from '../helpers/block-kit.js';
import type { SlackCall } from '../helpers/fake-slack.js';
import { messageText } from '../helpers/payloads.js';

export const WS = { teamId: 'T0001' };
export const DAY = 86_400_000;

/** A harness whose app and registrar share one clock that the test moves. */
export async function startWatching(
  options: { env?: Record<string, string>; prepare?: Parameters<typeof startHarness>[0] } = {},
): Promise<{ h: Harness; clock: { t: number } }> {
  const clock = { t: Date.now() };
  const h = await startHarness({
    ...options.prepare,
    env: { ...options.env },
    now: () => clock.t,
    sandbox: { clock: { now: () => clock.t } },
  });
  return { h, clock };
}

/** Sends a command; resolves with everything posted to its response_url once `done` holds. */
export async function command(
  h: Harness,
  name: string,
  text: string,
  options: { user?: string; channel?: string; done?: (bodies: string[]) => boolean } = {},
) {
  const id = `w${Math.random().toString(36).slice(2)}`;
  const ack = await h.driver.command(name, text, {
    responseUrl: h.slack.responseUrl(id),
    ...(options.user === undefined ? {} : { user: options.user }),
    ...(options.channel === undefined ? {} : { channel: options.channel }),
  });
  const bodies = () => h.slack.callsTo(`response_url:${id}`).map((c) => JSON.stringify(c.args));
  const done = options.done ?? ((b: string[]) => b.length > 0);
  await h.slack.waitFor(() => done(bodies()), 15_000);
  for (const call of h.slack.callsTo(`response_url:${id}`)) assertWithinBlockKitLimits(call.args, 'message');
  return { ack: ack.text, last: bodies().at(-1) ?? '' };
}

/** Messages posted in `channel` whose text contains `needle`. */
export function posted(h: Harness, channel: string, needle: string): SlackCall[] {
  return h.slack
    .callsTo('chat.postMessage')
    .filter((call) => call.args.channel === channel && messageText(call).includes(needle));
}

/**
 * Waits until no look is queued or running (the looks are jobs on the watch queue), and no gathered
 * alert waits to be posted (the outbox's flush jobs, delayed while alerts gather).
 */
export async function looksDone(h: Harness): Promise<void> {
  const queue = h.running.services.watchQueue;
  const deadline = Date.now() + 60_000;
  let quiet = 0;
  while (quiet < 2) {
    const jobs = await queue.getJobs(['waiting', 'active', 'prioritized', 'delayed'], 0, 1_000);
    quiet = jobs.some((job) => job.name === 'check' || job.name === 'alerts') ? 0 : quiet + 1;
    if (Date.now() > deadline) throw new Error('watch looks did not finish');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Moves the clock past the interval (everything is due again), sweeps, and waits for the looks. */
export async function sweepLater(h: Harness, clock: { t: number }, ms = 7 * 3_600_000): Promise<void> {
  clock.t += ms;
  await h.running.services.watches.sweep();
  await looksDone(h);
}
