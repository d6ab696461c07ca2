import { createHmac } from 'node:crypto';
import { request } from 'node:http';

export const FORM = 'application/x-www-form-urlencoded';
export const JSON_TYPE = 'application/json';

/** Slack's request signature: `v0=` + HMAC-SHA256 over `v0:{timestamp}:{raw body}`. */
export function signSlackRequest(secret: string, timestamp: number, body: string): string {
  return `v0=${createHmac('sha256', secret).update(`v0:${timestamp}:${body}`).digest('hex')}`;
}

export interface Answer {
  /** 0 when there was no answer (refused connection, timeout). */
  status: number;
  /** From the first byte sent to the end of the response, in milliseconds. */
  ms: number;
}

/**
 * POSTs one signed request to `/slack/events` on loopback, as Slack would. A fresh connection each
 * time (`agent: false`): Slack's deliveries are not pipelined on one socket, and both servers compared
 * pay the same. Signing happens before the clock starts; it is the sender's cost, not the server's.
 */
export function postSigned(
  port: number,
  secret: string,
  body: string,
  contentType: string,
  timeoutMs = 10_000,
): Promise<Answer> {
  const timestamp = Math.floor(Date.now() / 1000);
  const headers = {
    'content-type': contentType,
    'content-length': String(Buffer.byteLength(body)),
    'x-slack-request-timestamp': String(timestamp),
    'x-slack-signature': signSlackRequest(secret, timestamp, body),
  };
  return new Promise((resolve) => {
    let done = false;
    const started = performance.now();
    const finish = (status: number) => {
      if (done) return;
      done = true;
      resolve({ status, ms: performance.now() - started });
    };
    const req = request(
      { host: '127.0.0.1', port, method: 'POST', path: '/slack/events', headers, agent: false },
      (res) => {
        res.resume();
        res.on('end', () => finish(res.statusCode ?? 0));
        res.on('error', () => finish(0));
      },
    );
    req.setTimeout(timeoutMs, () => req.destroy(new Error('timeout')));
    req.on('error', () => finish(0));
    req.end(body);
  });
}

export interface CommandFields {
  team: string;
  command: string;
  text: string;
  user: string;
  channel: string;
  responseUrl: string;
}

/** A slash command as Slack posts it (form-encoded). */
export function slashCommand(f: CommandFields): string {
  return new URLSearchParams({
    token: 'deprecated',
    team_id: f.team,
    team_domain: 'bench',
    channel_id: f.channel,
    channel_name: 'bench',
    user_id: f.user,
    user_name: f.user.toLowerCase(),
    command: f.command,
    text: f.text,
    api_app_id: 'ABENCH',
    is_enterprise_install: 'false',
    response_url: f.responseUrl,
    trigger_id: `${Date.now()}.1.bench`,
  }).toString();
}

/** An `app_mention` delivery of the Events API (JSON), from a member of the workspace. */
export function mentionEvent(f: {
  team: string;
  channel: string;
  user: string;
  text: string;
  ts: string;
  eventId: string;
  botUser: string;
}): string {
  return JSON.stringify({
    token: 'deprecated',
    team_id: f.team,
    api_app_id: 'ABENCH',
    type: 'event_callback',
    event_id: f.eventId,
    event_time: Math.floor(Date.now() / 1000),
    authorizations: [{ team_id: f.team, user_id: f.botUser, is_bot: true }],
    event: {
      type: 'app_mention',
      user: f.user,
      user_team: f.team,
      text: f.text,
      ts: f.ts,
      event_ts: f.ts,
      channel: f.channel,
    },
  });
}

/** A modal's `view_submission` interaction (form field `payload`). */
export function viewSubmission(f: {
  team: string;
  user: string;
  callbackId: string;
  values: Record<string, Record<string, unknown>>;
  privateMetadata: string;
}): string {
  const payload = {
    type: 'view_submission',
    api_app_id: 'ABENCH',
    token: 'deprecated',
    trigger_id: `${Date.now()}.2.bench`,
    user: { id: f.user, username: 'bench', name: 'bench', team_id: f.team },
    team: { id: f.team, domain: 'bench' },
    enterprise: null,
    is_enterprise_install: false,
    view: {
      id: 'VBENCH',
      team_id: f.team,
      type: 'modal',
      callback_id: f.callbackId,
      private_metadata: f.privateMetadata,
      hash: 'h',
      state: { values: f.values },
      blocks: [],
      title: { type: 'plain_text', text: 'bench' },
    },
    response_urls: [],
  };
  return new URLSearchParams({ payload: JSON.stringify(payload) }).toString();
}

/** A button press on a message (`block_actions`, form field `payload`), as Slack posts it. */
export function buttonPress(f: {
  team: string;
  user: string;
  channel: string;
  messageTs: string;
  actionId: string;
  value: string;
  responseUrl: string;
}): string {
  const payload = {
    type: 'block_actions',
    api_app_id: 'ABENCH',
    token: 'deprecated',
    trigger_id: `${Date.now()}.3.bench`,
    user: { id: f.user, username: 'bench', name: 'bench', team_id: f.team },
    team: { id: f.team, domain: 'bench' },
    enterprise: null,
    is_enterprise_install: false,
    container: { type: 'message', message_ts: f.messageTs, channel_id: f.channel, is_ephemeral: false },
    channel: { id: f.channel, name: 'bench' },
    message: { type: 'message', ts: f.messageTs, text: '', blocks: [] },
    response_url: f.responseUrl,
    actions: [
      {
        action_id: f.actionId,
        block_id: 'bench',
        value: f.value,
        type: 'button',
        action_ts: `${Date.now() / 1000}`,
        text: { type: 'plain_text', text: 'Approve' },
      },
    ],
  };
  return new URLSearchParams({ payload: JSON.stringify(payload) }).toString();
}
