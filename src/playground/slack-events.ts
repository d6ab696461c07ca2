import { createHmac, randomBytes } from 'node:crypto';
import { BOT_USER, WORKSPACE } from './slack-standin.js';

/** Slack gives an app 3 seconds to acknowledge a request. */
const ACK_TIMEOUT_MS = 3_000;
const APP_ID = 'A0PLAYGROUND';

/** Slack's answer-in-3-seconds contract, as the playground observed it. */
export type Delivery =
  | { ok: true; status: number; body: string; contentType: string }
  | { ok: false; error: 'dispatch_failed' | 'operation_timeout'; status?: number };

/**
 * Posts to Regdesk's `/slack/events` exactly as Slack does: a v0 signature over the raw body with the
 * signing secret, and Slack's content types (forms for commands and interactions, JSON for events).
 */
export class SlackEventSender {
  #seq = 0;

  constructor(
    private readonly target: () => string,
    private readonly signingSecret: string,
  ) {}

  /** A slash command, form-encoded with Slack's field names. */
  command(fields: {
    command: string;
    text: string;
    user: { id: string; name: string };
    channel: { id: string; name: string };
    responseUrl: string;
    triggerId: string;
    teamName: string;
  }): Promise<Delivery> {
    const form = new URLSearchParams({
      token: 'playground-verification-token',
      team_id: WORKSPACE,
      team_domain: fields.teamName.toLowerCase(),
      channel_id: fields.channel.id,
      channel_name: fields.channel.name,
      user_id: fields.user.id,
      user_name: fields.user.name,
      command: fields.command,
      text: fields.text,
      api_app_id: APP_ID,
      is_enterprise_install: 'false',
      response_url: fields.responseUrl,
      trigger_id: fields.triggerId,
    });
    return this.#send(form.toString(), 'application/x-www-form-urlencoded');
  }

  /** An interactivity payload (block_actions, view_submission, view_closed). */
  interaction(payload: Record<string, unknown>): Promise<Delivery> {
    const body = new URLSearchParams({
      payload: JSON.stringify({ api_app_id: APP_ID, token: 'playground-verification-token', ...payload }),
    });
    return this.#send(body.toString(), 'application/x-www-form-urlencoded');
  }

  /** An Events API delivery in its `event_callback` envelope. */
  event(event: Record<string, unknown>): Promise<Delivery> {
    const now = Date.now();
    const body = JSON.stringify({
      token: 'playground-verification-token',
      team_id: WORKSPACE,
      api_app_id: APP_ID,
      type: 'event_callback',
      event_id: `Ev${now.toString(36).toUpperCase()}${++this.#seq}`,
      event_time: Math.floor(now / 1000),
      authorizations: [{ team_id: WORKSPACE, user_id: BOT_USER, is_bot: true, is_enterprise_install: false }],
      is_ext_shared_channel: false,
      event: { event_ts: eventTs(now), ...event },
    });
    return this.#send(body, 'application/json');
  }

  async #send(body: string, contentType: string): Promise<Delivery> {
    const timestamp = Math.floor(Date.now() / 1000);
    const signature = `v0=${createHmac('sha256', this.signingSecret).update(`v0:${timestamp}:${body}`).digest('hex')}`;
    try {
      const res = await fetch(`${this.target()}/slack/events`, {
        method: 'POST',
        headers: {
          'content-type': contentType,
          'x-slack-request-timestamp': String(timestamp),
          'x-slack-signature': signature,
          'user-agent': 'Slackbot 1.0 (+https://api.slack.com/robots)',
        },
        body,
        signal: AbortSignal.timeout(ACK_TIMEOUT_MS),
      });
      const text = await res.text();
      if (res.status !== 200) return { ok: false, error: 'dispatch_failed', status: res.status };
      return { ok: true, status: res.status, body: text, contentType: res.headers.get('content-type') ?? '' };
    } catch (error) {
      const timedOut =
        error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
      return { ok: false, error: timedOut ? 'operation_timeout' : 'dispatch_failed' };
    }
  }
}

/** A Slack-style `ts`/`event_ts` for an event raised now. */
export function eventTs(now = Date.now()): string {
  return `${Math.floor(now / 1000)}.${String(now % 1000).padStart(3, '0')}${randomBytes(2).readUInt16BE() % 1000}`;
}

/** The acknowledgement body as JSON, when it is JSON; Slack treats anything else as plain text. */
export function ackJson(delivery: Delivery & { ok: true }): Record<string, unknown> | undefined {
  if (delivery.body.trim() === '') return undefined;
  if (!delivery.contentType.includes('json')) return { text: delivery.body };
  try {
    const parsed = JSON.parse(delivery.body) as unknown;
    return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : undefined;
  } catch {
    return { text: delivery.body };
  }
}
