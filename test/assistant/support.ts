import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadConfig } from '../../src/config.js';
import { type Running, runRegdesk } from '../../src/main.js';
import type { SandboxOptions } from '../../src/sandbox/index.js';
import { type Harness, memoryLogger, startHarness } from '../helpers/app-harness.js';
import { type FakeSlack, newTriggerId, type SlackCall } from '../helpers/fake-slack.js';
import { messageText } from '../helpers/payloads.js';

/** One question as the registrar received it. */
export interface AskedQuestion {
  q: string;
  locale: string | null;
  status: number;
  apiKey: string;
  /** When the registrar received it (ms). */
  at: number;
}

/**
 * Sits between Regdesk and the sandbox registrar and records every assistant question with its
 * query (the sandbox's own call log has paths only): what was asked, in which locale, with which key.
 */
export class RegistrarRecorder {
  readonly asked: AskedQuestion[] = [];
  target = '';
  url = '';
  #server: Server | undefined;
  readonly #holds: { text: string; arrived(): void; open: Promise<void> }[] = [];

  /**
   * Holds the next question containing `text` at the registrar's door: `arrived` resolves once it
   * was sent (Regdesk built it), and it goes on to the registrar only on `release()`.
   */
  hold(text: string): { arrived: Promise<void>; release(): void } {
    let arrived = () => {};
    let release = () => {};
    const reached = new Promise<void>((resolve) => {
      arrived = resolve;
    });
    const open = new Promise<void>((resolve) => {
      release = resolve;
    });
    this.#holds.push({ text, arrived, open });
    return { arrived: reached, release };
  }

  async start(): Promise<this> {
    this.#server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        void (async () => {
          const url = new URL(req.url ?? '/', this.target);
          const headers = Object.fromEntries(
            Object.entries(req.headers).flatMap(([name, value]) =>
              typeof value === 'string' && name !== 'host' && name !== 'content-length'
                ? [[name, value]]
                : [],
            ),
          );
          const q = url.pathname === '/help/search' ? (url.searchParams.get('q') ?? '') : undefined;
          const held = q === undefined ? -1 : this.#holds.findIndex((hold) => q.includes(hold.text));
          const hold = held < 0 ? undefined : this.#holds.splice(held, 1)[0];
          if (hold !== undefined) {
            hold.arrived();
            await hold.open;
          }
          const at = Date.now();
          const body = chunks.length === 0 ? undefined : Buffer.concat(chunks);
          const answer = await fetch(url, {
            method: req.method ?? 'GET',
            headers,
            ...(body ? { body } : {}),
          });
          const text = await answer.text();
          if (url.pathname === '/help/search') {
            this.asked.push({
              q: url.searchParams.get('q') ?? '',
              locale: url.searchParams.get('locale'),
              status: answer.status,
              apiKey: String(req.headers['x-api-key'] ?? ''),
              at,
            });
          }
          res.writeHead(answer.status, {
            'content-type': answer.headers.get('content-type') ?? 'application/json',
          });
          res.end(text);
        })().catch(() => res.writeHead(502).end());
      });
    });
    const server = this.#server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return this;
  }

  /** Questions that reached the registrar whose text contains `text`. */
  about(text: string): AskedQuestion[] {
    return this.asked.filter((asked) => asked.q.includes(text));
  }

  async stop(): Promise<void> {
    this.#server?.closeAllConnections();
    await new Promise<void>((resolve) => this.#server?.close(() => resolve()));
  }
}

export interface AssistantWorld {
  h: Harness;
  registrar: RegistrarRecorder;
  /** A second worker process against the same Redis and registrar. */
  second: Running;
  stop(): Promise<void>;
}

/** The whole app, a second worker process, and the registrar behind a recorder. */
export async function startAssistantWorld(
  options: { env?: Record<string, string>; sandbox?: SandboxOptions } = {},
): Promise<AssistantWorld> {
  const registrar = await new RegistrarRecorder().start();
  const h = await startHarness({
    env: {
      // Several processes share secrets only with a shared master key.
      VAULT_MASTER_KEY: Buffer.alloc(32, 7).toString('base64'),
      REGFISH_API_URL: registrar.url,
      ...options.env,
    },
    ...(options.sandbox === undefined ? {} : { sandbox: options.sandbox }),
  });
  registrar.target = h.sandbox.url;
  const second = await runRegdesk({
    role: 'worker',
    config: loadConfig(h.env),
    logger: memoryLogger().logger,
    env: h.env,
    say: () => {},
  });
  return {
    h,
    registrar,
    second,
    stop: async () => {
      await second.stop();
      await h.stop();
      await registrar.stop();
    },
  };
}

/**
 * `app_home_opened` as Slack sends it to an agent app (manifest `features.agent_view`) when a person
 * opens its Messages tab, their DM with the bot (docs.slack.dev "Migrating to the Agent messaging
 * experience": it replaces `assistant_thread_started`).
 */
export function messagesTabOpened(user: string) {
  return {
    type: 'app_home_opened',
    user,
    channel: `D${user}`,
    tab: 'messages',
    event_ts: `${Date.now() / 1000}`,
  };
}

/**
 * A person writes to the bot in its Messages tab, at the top or in a thread: Slack keeps the message
 * (the strict fake then knows the thread a status or title names), then sends it as `message.im`.
 */
export function writeToBot(slack: FakeSlack, user: string, text: string, threadTs?: string) {
  const posted = slack.postAsUser(user, `D${user}`, text, threadTs);
  if (!posted.ok) throw new Error(`the fake refused the message: ${posted.error}`);
  return { ts: posted.message.ts, event: dmMessage(user, text, posted.message.ts, threadTs) };
}

/** A person's message in their DM with the bot (`message.im`), in a thread or not. */
export function dmMessage(user: string, text: string, ts: string, threadTs?: string) {
  return {
    type: 'message',
    channel: `D${user}`,
    channel_type: 'im',
    user,
    text,
    ts,
    ...(threadTs === undefined ? {} : { thread_ts: threadTs }),
    event_ts: ts,
  };
}

/** The message shortcut's payload (`message_action`), as Slack posts it. */
export function messageShortcut(
  callbackId: string,
  options: {
    user: string;
    channel: string;
    text: string;
    ts: string;
    threadTs?: string;
    responseUrl: string;
  },
): Record<string, unknown> {
  return {
    type: 'message_action',
    callback_id: callbackId,
    trigger_id: newTriggerId(),
    action_ts: `${Date.now() / 1000}`,
    response_url: options.responseUrl,
    team: { id: 'T0001', domain: 'acme' },
    user: { id: options.user, name: options.user, team_id: 'T0001' },
    channel: { id: options.channel, name: 'ops' },
    message_ts: options.ts,
    message: {
      type: 'message',
      user: 'U0OTHER',
      ts: options.ts,
      text: options.text,
      ...(options.threadTs === undefined ? {} : { thread_ts: options.threadTs }),
    },
    token: 'deprecated',
    is_enterprise_install: false,
    enterprise: null,
  };
}

/** New replies in a thread that carry an outcome (answer or "No answer"). */
export function outcomesIn(calls: SlackCall[], channel: string, threadTs: string): SlackCall[] {
  return calls.filter(
    (c) =>
      c.method === 'chat.postMessage' &&
      (c.result as { ok?: boolean } | undefined)?.ok === true &&
      c.args.channel === channel &&
      c.args.thread_ts === threadTs &&
      /here is the answer|No answer/.test(messageText(c)),
  );
}

/** Statuses set on one thread (`assistant.threads.setStatus`), in order. */
export function statusesOf(calls: SlackCall[], channel: string, threadTs: string): string[] {
  return calls
    .filter(
      (c) =>
        c.method === 'assistant.threads.setStatus' &&
        (c.result as { ok?: boolean } | undefined)?.ok === true &&
        c.args.channel_id === channel &&
        c.args.thread_ts === threadTs,
    )
    .map((c) => String(c.args.status));
}
