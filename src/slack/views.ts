import type { View } from '@slack/types';
import { WebClient } from '@slack/web-api';
import { slackRefusal } from './platform-errors.js';

/**
 * A trigger_id is good for 3 seconds (docs/requirements.md R2). A WebClient that met a 429 pauses
 * every queued call until Retry-After has passed, which would let the trigger die behind unrelated
 * work; modals therefore open through a client of their own that neither waits nor retries.
 */
const triggerClients = new Map<string, WebClient>();

function triggerClient(client: WebClient): WebClient {
  const key = `${client.slackApiUrl}|${client.token ?? ''}`;
  let dedicated = triggerClients.get(key);
  if (dedicated === undefined) {
    dedicated = new WebClient(client.token, {
      slackApiUrl: client.slackApiUrl,
      timeout: 2_500,
      retryConfig: { retries: 0 },
      rejectRateLimitedCalls: true,
    });
    triggerClients.set(key, dedicated);
  }
  return dedicated;
}

/** Opens a modal from a listener, within the trigger's 3 seconds; returns the view's id and hash. */
export async function openModal(
  client: WebClient,
  triggerId: string,
  view: View,
): Promise<{ id: string; hash: string }> {
  const result = await triggerClient(client).views.open({ trigger_id: triggerId, view });
  return { id: result.view?.id ?? '', hash: result.view?.hash ?? '' };
}

/** Pushes a modal onto the stack, likewise within the trigger's 3 seconds. */
export async function pushModal(client: WebClient, triggerId: string, view: View): Promise<void> {
  await triggerClient(client).views.push({ trigger_id: triggerId, view });
}

/**
 * Replaces an open modal. With the hash Slack gave, a stale update cannot overwrite a newer one; a
 * view the user has closed meanwhile is not an error (false: nobody is looking).
 */
export async function updateModal(
  client: WebClient,
  target: { id: string; hash?: string },
  view: View,
): Promise<boolean> {
  try {
    await client.views.update({
      view_id: target.id,
      ...(target.hash === undefined ? {} : { hash: target.hash }),
      view,
    });
    return true;
  } catch (error) {
    if (isClosedView(error)) return false;
    throw error;
  }
}

function isClosedView(error: unknown): boolean {
  if (slackRefusal(error) !== undefined) return false;
  const data = (error as { data?: { error?: unknown } }).data;
  return data?.error === 'not_found' || data?.error === 'hash_conflict';
}
