import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { KEY_IDS } from '../../src/features/keys/ids.js';
import { PUBLISH_IDS } from '../../src/features/publish/ids.js';
import { ORDER_IDS } from '../../src/features/tls/ids.js';
import { type Running, runRegdesk } from '../../src/main.js';
import { isLocalHostHeader, isLoopbackAddress } from '../../src/playground/guard.js';
import type {
  ApiResult,
  PlaygroundEvent,
  PlaygroundMessage,
  PlaygroundSnapshot,
  StateValues,
  ViewSubmissionResult,
} from '../../src/playground/web/protocol.js';
import { inputActionId } from '../../src/slack/modal.js';
import { SHARE_ACTION } from '../../src/slack/share.js';
import { memoryLogger } from '../helpers/app-harness.js';
import { testRedisUrl } from '../helpers/provided-context.js';

const ADA = 'U0ADA';
const GRACE = 'U0GRACE';
const GENERAL = 'C0GENERAL';
const OPS = 'C0OPS';
const WAIT = { timeout: 20_000, interval: 50 };

let running: Running;
let base: string;
let port: number;
const said: string[] = [];
const events: PlaygroundEvent[] = [];
let closeEvents: () => void;
/** The cookie the page sets from the printed URL's token (docs/requirements.md R42). */
let cookie: string;

/** The page's own requests: JSON, same origin. */
async function api<T = ApiResult>(path: string, body: unknown): Promise<{ status: number; json: T }> {
  const res = await fetch(`${base}/playground/api/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: base, cookie },
    body: JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json()) as T };
}

async function snapshot(): Promise<PlaygroundSnapshot> {
  return (await (
    await fetch(`${base}/playground/api/state`, { headers: { cookie } })
  ).json()) as PlaygroundSnapshot;
}

/** The order modal once Regdesk replaced its loading view with the form. */
async function orderModal(user: string) {
  const callbackId = async () =>
    ((await snapshot()).views[user]?.[0]?.view as { callback_id?: string } | undefined)?.callback_id;
  await expect.poll(callbackId, WAIT).toBe(ORDER_IDS.modal);
  const stack = (await snapshot()).views[user] ?? [];
  expect(stack).toHaveLength(1);
  return stack[0];
}

const textOf = (message: PlaygroundMessage) => JSON.stringify([message.text ?? '', message.blocks ?? []]);

/** Reads the server-sent events stream as the page's EventSource would. */
async function listen(): Promise<() => void> {
  const controller = new AbortController();
  const res = await fetch(`${base}/playground/api/events`, {
    signal: controller.signal,
    headers: { cookie },
  });
  expect(res.headers.get('content-type')).toContain('text/event-stream');
  const reader = res.body?.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  void (async () => {
    try {
      for (;;) {
        const chunk = await reader?.read();
        if (chunk === undefined || chunk.done) return;
        buffer += decoder.decode(chunk.value, { stream: true });
        let end = buffer.indexOf('\n\n');
        while (end >= 0) {
          const frame = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          for (const line of frame.split('\n')) {
            if (line.startsWith('data: ')) events.push(JSON.parse(line.slice(6)) as PlaygroundEvent);
          }
          end = buffer.indexOf('\n\n');
        }
      }
    } catch {
      // aborted at the end of the suite
    }
  })();
  return () => controller.abort();
}

/** A raw request with headers fetch would not let us forge (Host). */
function rawRequest(options: {
  path: string;
  method?: string;
  headers: Record<string, string>;
}): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path: options.path,
        method: options.method ?? 'GET',
        headers: options.headers,
      },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on('error', reject);
    req.end();
  });
}

beforeAll(async () => {
  const env = {
    PORT: '0',
    REDIS_URL: testRedisUrl(),
    REDIS_ALLOW_EPHEMERAL: '1',
    REDIS_KEY_PREFIX: `t${randomBytes(5).toString('hex')}`,
  };
  const config = loadConfig(env);
  expect(config.playground).toBe('no-slack');
  running = await runRegdesk({
    role: 'start',
    config,
    logger: memoryLogger('warn').logger,
    env,
    say: (line) => said.push(line),
  });
  port = running.http?.port ?? 0;
  base = `http://127.0.0.1:${port}`;
  // As the page does: the printed URL's token becomes the cookie.
  const login = await fetch(running.playground?.url ?? '', { redirect: 'manual' });
  cookie = (login.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  closeEvents = await listen();
});

afterAll(async () => {
  closeEvents?.();
  await running?.stop();
});

describe('playground server', () => {
  it('serves a snapshot of the seeded workspace, the commands from manifest.yml and the registrar', async () => {
    const state = await snapshot();
    expect(state.workspace.name).toBe('Playground');
    expect(state.users.map((user) => [user.name, user.isAdmin])).toEqual([
      ['ada', true],
      ['grace', true],
      ['linus', false],
    ]);
    const general = state.channels.find((channel) => channel.name === 'general');
    const ops = state.channels.find((channel) => channel.name === 'ops');
    expect(general).toMatchObject({ id: GENERAL, botMember: true });
    expect(ops).toMatchObject({ id: OPS, botMember: false });
    expect(state.channels.filter((channel) => channel.kind === 'im')).toHaveLength(3);
    expect(state.commands.map((command) => command.command)).toEqual(['/domain', '/dns', '/tls', '/ask']);
    expect(state.commands[0]?.usageHint).toContain('check example.com');
    expect(state.registrar.account.domains.map((domain) => domain.name)).toContain('example.com');
    expect(state.registrar.account.certificates).toContainEqual(
      expect.objectContaining({ id: 'cert-pending', status: 'pending' }),
    );
    expect(said.join('\n')).toContain(`http://localhost:${port}/playground?token=`);
  });

  it('runs a slash command typed in the composer and streams the answer; its button shares the card', async () => {
    const typed = await api('composer', { user: ADA, channel: GENERAL, text: '/domain check example.com' });
    expect(typed.json).toEqual({ ok: true });
    const isAnswer = (message: PlaygroundMessage) =>
      message.channel === GENERAL && message.ephemeralTo === ADA && textOf(message).includes('example.com');
    await expect.poll(async () => (await snapshot()).messages.some(isAnswer), WAIT).toBe(true);
    await expect
      .poll(() => events.some((event) => event.type === 'message' && isAnswer(event.message)), WAIT)
      .toBe(true);

    // The registrar panel saw the check, counted against the availability limit.
    const checked = async () =>
      (await snapshot()).registrar.requests.find((r) => r.path.includes('availability'));
    await expect.poll(checked, WAIT).toMatchObject({ method: 'GET', status: 200, limit: 'availability' });
    await expect.poll(() => events.some((event) => event.type === 'registrar'), WAIT).toBe(true);

    // A lookup card comes with "Share in channel": pressing it shows the card to everyone and
    // removes the private one.
    await api('composer', { user: ADA, channel: GENERAL, text: '/domain info example.com' });
    const isCard = (message: PlaygroundMessage) =>
      isAnswer(message) && textOf(message).includes(SHARE_ACTION);
    await expect.poll(async () => (await snapshot()).messages.some(isCard), WAIT).toBe(true);
    const answer = (await snapshot()).messages.find(isCard);
    // A button that is not on the message is not pressed: Slack would not send it.
    const forged = await api('action', {
      user: ADA,
      source: { kind: 'message', channel: GENERAL, ts: answer?.ts },
      action: { type: 'button', action_id: 'tls.revoke.approve', block_id: '' },
    });
    expect(forged.json).toEqual({ ok: false, error: 'element_gone', notice: { kind: 'elementGone' } });
    // Someone else's ephemeral is not theirs to press.
    const other = await api('action', {
      user: GRACE,
      source: { kind: 'message', channel: GENERAL, ts: answer?.ts },
      action: { type: 'button', action_id: SHARE_ACTION, block_id: '' },
    });
    expect(other.json).toEqual({ ok: false, error: 'message_not_found' });
    const pressed = await api('action', {
      user: ADA,
      source: { kind: 'message', channel: GENERAL, ts: answer?.ts },
      action: { type: 'button', action_id: SHARE_ACTION, block_id: '' },
    });
    expect(pressed.json).toEqual({ ok: true });
    const shared = (message: PlaygroundMessage) =>
      message.channel === GENERAL &&
      message.ephemeralTo === undefined &&
      message.fromBot &&
      textOf(message).includes('example.com');
    await expect.poll(async () => (await snapshot()).messages.some(shared), WAIT).toBe(true);
    await expect
      .poll(() => events.some((event) => event.type === 'message_deleted' && event.ts === answer?.ts), WAIT)
      .toBe(true);
    expect((await snapshot()).messages.some((message) => message.ts === answer?.ts)).toBe(false);
  });

  it('checks DNS against the playground’s own nameservers: the sandbox’s zones as the sandbox has them', async () => {
    await api('composer', { user: ADA, channel: GENERAL, text: '/dns check regdesk-demo.de' });
    const isReport = (message: PlaygroundMessage) =>
      message.channel === GENERAL &&
      message.ephemeralTo === ADA &&
      textOf(message).includes('DNS check of regdesk-demo.de');
    await expect.poll(async () => (await snapshot()).messages.some(isReport), WAIT).toBe(true);
    const report = textOf((await snapshot()).messages.find(isReport) as PlaygroundMessage);
    // Every question was answered (nothing "could not check"), and the demo zone is healthy.
    expect(report).not.toContain('Could not check');
    expect(report).toContain('regdesk-demo.de: no findings');
    // A zone the playground leaves as the sandbox seeds it: its MX host has no address.
    await api('composer', { user: ADA, channel: GENERAL, text: '/dns check xn--mller-kva.de' });
    const isOther = (message: PlaygroundMessage) =>
      message.ephemeralTo === ADA && textOf(message).includes('has no address');
    await expect.poll(async () => (await snapshot()).messages.some(isOther), WAIT).toBe(true);
  });

  it('answers an unknown slash command with Slack’s notice, and bad input with 400', async () => {
    const typed = await api('composer', { user: GRACE, channel: GENERAL, text: '/nope something' });
    // A coded notice, which the page words in the member's language (web/notices.ts).
    expect(typed.json).toEqual({
      ok: false,
      error: 'invalid_command',
      notice: { kind: 'unknownCommand', command: '/nope' },
    });
    expect((await api('composer', { user: GRACE, channel: GENERAL, text: '   ' })).status).toBe(400);
    expect((await api('composer', { user: 'UNOBODY', channel: GENERAL, text: 'hi' })).json).toEqual({
      ok: false,
      error: 'no such member',
    });
    expect((await api('clock', { advanceMs: -5 })).status).toBe(400);
    expect((await api('nothing-here', {})).status).toBe(404);
  });

  it('opens a modal for a command and shows a submission’s errors under the inputs', async () => {
    await api('composer', { user: ADA, channel: GENERAL, text: '/tls order' });
    const view = await orderModal(ADA);
    const values: StateValues = {
      [ORDER_IDS.cn]: { [inputActionId(ORDER_IDS.cn)]: { type: 'plain_text_input', value: 'not a name' } },
      [ORDER_IDS.csr]: { [inputActionId(ORDER_IDS.csr)]: { type: 'plain_text_input', value: 'x' } },
    };
    const submitted = await api<ViewSubmissionResult>('view-submission', {
      user: ADA,
      viewId: view?.id,
      values,
    });
    expect(submitted.json.ok).toBe(true);
    expect(Object.keys(submitted.json.errors ?? {})).toContain(ORDER_IDS.cn);
    const stack = (await snapshot()).views[ADA];
    expect(stack).toHaveLength(1);
    expect(stack?.[0]?.errors?.[ORDER_IDS.cn]).toBeDefined();
    await expect
      .poll(
        () => events.some((event) => event.type === 'views' && event.user === ADA && event.stack[0]?.errors),
        WAIT,
      )
      .toBe(true);
    // Another member cannot submit Ada's modal.
    expect((await api('view-submission', { user: GRACE, viewId: view?.id, values })).json.ok).toBe(false);
    expect((await api('view-closed', { user: ADA, viewId: view?.id })).json).toEqual({ ok: true });
    expect((await snapshot()).views[ADA]).toBeUndefined();
  });

  it('replaces a submitted modal with the view its acknowledgement sends (response_action update)', async () => {
    await api('composer', { user: ADA, channel: GENERAL, text: '/domain key' });
    const modalOf = async () => (await snapshot()).views[ADA]?.[0];
    await expect
      .poll(async () => JSON.stringify((await modalOf())?.view ?? {}), WAIT)
      .toContain(KEY_IDS.keyBlock);
    const form = await modalOf();
    const values: StateValues = {
      [KEY_IDS.keyBlock]: {
        [inputActionId(KEY_IDS.keyBlock)]: { type: 'plain_text_input', value: running.sandbox?.apiKey ?? '' },
      },
    };
    const submitted = await api<ViewSubmissionResult>('view-submission', {
      user: ADA,
      viewId: form?.id,
      values,
    });
    expect(submitted.json).toEqual({ ok: true });
    // The same view (id) now shows the outcome instead of the form: first "checking", then the result.
    await expect
      .poll(async () => {
        const now = await modalOf();
        const text = JSON.stringify(now?.view ?? {});
        return now?.id === form?.id && !text.includes(KEY_IDS.keyBlock) && !text.includes('Checking');
      }, WAIT)
      .toBe(true);
    expect((await api('view-closed', { user: ADA, viewId: form?.id })).json).toEqual({ ok: true });
  });

  it('orders a certificate, and moving the registrar clock gets it issued and told in the thread', async () => {
    await api('composer', { user: GRACE, channel: GENERAL, text: '/tls order' });
    const view = await orderModal(GRACE);
    const pem = execFileSync(
      'openssl',
      [
        'req',
        '-new',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-keyout',
        '/dev/null',
        '-subj',
        '/CN=play.example.com',
      ],
      { stdio: ['ignore', 'pipe', 'ignore'] },
    ).toString();
    const input = (block: string, value: Record<string, unknown>) => ({
      [block]: { [inputActionId(block)]: { ...value } },
    });
    const option = (value: string) => ({ text: { type: 'plain_text' as const, text: value }, value });
    const values = {
      ...input(ORDER_IDS.product, { type: 'static_select', selected_option: option('RapidSSL') }),
      ...input(ORDER_IDS.cn, { type: 'plain_text_input', value: 'play.example.com' }),
      ...input(ORDER_IDS.sans, { type: 'plain_text_input', value: '' }),
      ...input(ORDER_IDS.csr, { type: 'plain_text_input', value: pem }),
      ...input(ORDER_IDS.dcv, { type: 'radio_buttons', selected_option: option('dns-cname-token') }),
    };
    const submitted = await api<ViewSubmissionResult>('view-submission', {
      user: GRACE,
      viewId: view?.id,
      values,
    });
    expect(submitted.json).toEqual({ ok: true });
    const card = (message: PlaygroundMessage) =>
      message.channel === GENERAL && message.fromBot && textOf(message).includes('play.example.com');
    await expect.poll(async () => (await snapshot()).messages.some(card), WAIT).toBe(true);
    const ordered = (await snapshot()).registrar.account.certificates.find(
      (c) => c.commonName === 'play.example.com',
    );
    expect(ordered?.status).toBe('pending');

    // Publishing writes the CNAME at the sandbox, and the playground's nameservers serve it at once.
    const posted = (await snapshot()).messages.find(card);
    const pressed = await api('action', {
      user: GRACE,
      source: { kind: 'message', channel: GENERAL, ts: posted?.ts },
      action: { type: 'button', action_id: PUBLISH_IDS.publish, block_id: '', value: ordered?.id },
    });
    expect(pressed.json).toEqual({ ok: true });
    const published = (message: PlaygroundMessage) =>
      message.threadTs === posted?.ts && textOf(message).includes('are published');
    await expect.poll(async () => (await snapshot()).messages.some(published), WAIT).toBe(true);

    const moved = await api('clock', { advanceMs: 2 * 3_600_000 });
    expect(moved.json).toEqual({ ok: true });
    const state = await snapshot();
    expect(state.registrar.clockOffsetMs).toBe(2 * 3_600_000);
    expect(state.registrar.account.certificates.find((c) => c.id === ordered?.id)?.status).toBe('issued');
    expect(state.registrar.requests.some((r) => r.method === 'POST' && r.path.includes('tls'))).toBe(true);
    const told = (message: PlaygroundMessage) =>
      message.channel === GENERAL &&
      message.threadTs !== undefined &&
      message.threadTs !== message.ts &&
      textOf(message).includes('is issued');
    await expect.poll(async () => (await snapshot()).messages.some(told), WAIT).toBe(true);
    expect(events.some((event) => event.type === 'registrar')).toBe(true);
  }, 60_000);

  it('delivers a mention in a thread as app_mention, and says so when the bot is not in the channel', async () => {
    const asked = await api('composer', {
      user: ADA,
      channel: GENERAL,
      text: '@Regdesk how do I enable DNSSEC?',
    });
    expect(asked.json).toEqual({ ok: true });
    const question = (await snapshot()).messages.find(
      (message) => message.user === ADA && message.text?.startsWith('<@UBOT>'),
    );
    expect(question).toBeDefined();
    const inThread = await api('composer', {
      user: ADA,
      channel: GENERAL,
      text: '@regdesk and for example.com?',
      threadTs: question?.ts,
    });
    expect(inThread.json).toEqual({ ok: true });
    const reply = (await snapshot()).messages.find(
      (message) => message.text === '<@UBOT> and for example.com?',
    );
    expect(reply?.threadTs).toBe(question?.ts);
    // Regdesk took the mention in the thread (it marks the very message it answers, as with any
    // app_mention) and answers there: two answers in the question's thread, one per mention.
    await expect
      .poll(async () => {
        const messages = (await snapshot()).messages;
        return {
          marked: (messages.find((message) => message.ts === reply?.ts)?.reactions.length ?? 0) > 0,
          answers: messages.filter(
            (message) =>
              message.fromBot &&
              message.channel === GENERAL &&
              message.threadTs === question?.ts &&
              textOf(message).includes('here is the answer'),
          ).length,
        };
      }, WAIT)
      .toEqual({ marked: true, answers: 2 });
    // The parent shows it has a thread.
    expect((await snapshot()).messages.find((message) => message.ts === question?.ts)?.threadTs).toBe(
      question?.ts,
    );

    const elsewhere = await api('composer', { user: GRACE, channel: OPS, text: '@Regdesk hello?' });
    expect(elsewhere.json).toEqual({ ok: true, notice: { kind: 'mentionedOutside', channel: 'ops' } });
  }, 40_000);

  it('adds Regdesk to #ops with /invite, as Slack does, and takes it out again with /remove', async () => {
    const ops = async () => (await snapshot()).channels.find((channel) => channel.id === OPS);
    expect((await api('composer', { user: ADA, channel: OPS, text: '/invite' })).json).toEqual({
      ok: false,
      error: 'invalid_arguments',
      notice: { kind: 'membershipUsage', command: '/invite' },
    });
    expect((await api('composer', { user: ADA, channel: OPS, text: '/invite @nobody' })).json.notice).toEqual(
      {
        kind: 'unknownMember',
        handle: 'nobody',
      },
    );
    expect(
      (await api('composer', { user: ADA, channel: 'DU0ADA', text: '/invite @Regdesk' })).json.notice,
    ).toEqual({ kind: 'membershipInDm', command: '/invite' });
    expect((await ops())?.botMember).toBe(false);

    expect((await api('composer', { user: ADA, channel: OPS, text: '/invite @Regdesk' })).json).toEqual({
      ok: true,
    });
    expect((await ops())?.botMember).toBe(true);
    const joined = (await snapshot()).messages.filter((message) => message.channel === OPS && message.system);
    expect(joined.at(-1)?.system).toEqual({ kind: 'joined', member: 'UBOT', by: ADA });
    await expect
      .poll(
        () =>
          events.some(
            (event) => event.type === 'channel' && event.channel.id === OPS && event.channel.botMember,
          ),
        WAIT,
      )
      .toBe(true);
    // The dead end is gone: a mention in #ops reaches Regdesk, and Regdesk can answer there.
    expect((await api('composer', { user: ADA, channel: OPS, text: '@Regdesk are you here?' })).json).toEqual(
      {
        ok: true,
      },
    );
    await expect
      .poll(
        async () => (await snapshot()).messages.some((message) => message.channel === OPS && message.fromBot),
        WAIT,
      )
      .toBe(true);
    expect((await api('composer', { user: ADA, channel: OPS, text: '/invite @Regdesk' })).json).toEqual({
      ok: true,
      notice: { kind: 'alreadyIn', member: 'Regdesk', channel: 'ops' },
    });

    expect((await api('composer', { user: GRACE, channel: OPS, text: '/remove <@UBOT>' })).json).toEqual({
      ok: true,
    });
    expect((await ops())?.botMember).toBe(false);
    const left = (await snapshot()).messages.filter((message) => message.channel === OPS && message.system);
    expect(left.at(-1)?.system).toEqual({ kind: 'left', member: 'UBOT' });
    expect(
      (await api('composer', { user: GRACE, channel: OPS, text: '/remove @Regdesk' })).json.notice,
    ).toEqual({
      kind: 'notIn',
      member: 'Regdesk',
      channel: 'ops',
    });
  }, 40_000);

  it('makes a demo CSR for the order modal’s names, and says where the page offers it', async () => {
    expect((await snapshot()).demoCsr).toEqual({
      callbackId: ORDER_IDS.modal,
      commonName: ORDER_IDS.cn,
      sans: ORDER_IDS.sans,
      csr: ORDER_IDS.csr,
    });
    const made = await api<{ ok: boolean; csr?: string }>('demo-csr', { names: ['shop.example.com'] });
    expect(made.json.ok).toBe(true);
    expect(made.json.csr).toContain('-----BEGIN CERTIFICATE REQUEST-----');
    expect((await api('demo-csr', { names: [] })).status).toBe(400);
  });

  it('opens the App Home tab as Slack does: Regdesk publishes it for that member', async () => {
    expect((await api('home-opened', { user: 'U0LINUS' })).json).toEqual({ ok: true });
    await expect.poll(async () => (await snapshot()).homes.U0LINUS !== undefined, WAIT).toBe(true);
    const home = (await snapshot()).homes.U0LINUS as { type?: string; blocks?: unknown[]; id?: string };
    expect(home.type).toBe('home');
    expect(home.blocks?.length).toBeGreaterThan(0);
    expect(events.some((event) => event.type === 'home' && event.user === 'U0LINUS')).toBe(true);
  });

  it('refuses requests from elsewhere: other hosts, other origins, other addresses', async () => {
    expect(await rawRequest({ path: '/playground/api/state', headers: { host: 'evil.example:80' } })).toBe(
      403,
    );
    expect(await rawRequest({ path: '/playground', headers: { host: `localhost:${port}`, cookie } })).toBe(
      200,
    );
    expect(
      await rawRequest({
        path: '/playground/api/clock',
        method: 'POST',
        headers: {
          host: `127.0.0.1:${port}`,
          origin: 'http://evil.example',
          'content-type': 'application/json',
          cookie,
        },
      }),
    ).toBe(403);
    expect(
      await rawRequest({
        path: '/playground/api/clock',
        method: 'POST',
        headers: { host: `127.0.0.1:${port}`, 'content-type': 'application/json', cookie },
      }),
    ).toBe(403);
    // `/` redirects this machine to the page; elsewhere it is the HTTP front's 404.
    const root = await fetch(`${base}/`, { redirect: 'manual' });
    expect(root.status).toBe(302);
    expect(root.headers.get('location')).toBe('/playground');
    expect(await rawRequest({ path: '/', headers: { host: 'regdesk.example.com' } })).toBe(404);

    expect(isLoopbackAddress('127.0.0.1')).toBe(true);
    expect(isLoopbackAddress('::1')).toBe(true);
    expect(isLoopbackAddress('::ffff:127.0.0.1')).toBe(true);
    expect(isLoopbackAddress('10.0.0.5')).toBe(false);
    expect(isLoopbackAddress('::ffff:192.168.1.2')).toBe(false);
    expect(isLoopbackAddress(undefined)).toBe(false);
    expect(isLocalHostHeader('localhost:3000')).toBe(true);
    expect(isLocalHostHeader('[::1]:3000')).toBe(true);
    expect(isLocalHostHeader('127.0.0.1')).toBe(true);
    expect(isLocalHostHeader('localhost.evil.example')).toBe(false);
    expect(isLocalHostHeader('127.0.0.1.nip.io')).toBe(false);
    expect(isLocalHostHeader(undefined)).toBe(false);
  });

  it('serves the page’s assets by strict name only, and uploaded files for download', async () => {
    expect(
      (await fetch(`${base}/playground/assets/..%2F..%2Fpackage.json`, { headers: { cookie } })).status,
    ).toBe(404);
    expect(
      (await fetch(`${base}/playground/assets/../../package.json`, { headers: { cookie } })).status,
    ).toBe(404);
    expect((await fetch(`${base}/playground/assets/missing.css`, { headers: { cookie } })).status).toBe(404);
    expect((await fetch(`${base}/playground/files/F404`, { headers: { cookie } })).status).toBe(404);
    // The compiled page scripts come from dist/ (built by `npm test` and `npm start`).
    const script = await fetch(`${base}/playground/assets/protocol.js`, { headers: { cookie } });
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toContain('text/javascript');

    await api('composer', { user: ADA, channel: GENERAL, text: '/tls download cert-issued-recent pem' });
    const withFile = async () =>
      (await snapshot()).messages.find((message) => message.channel === GENERAL && message.files.length > 0);
    await expect.poll(async () => (await withFile())?.files.length ?? 0, WAIT).toBeGreaterThan(0);
    const file = (await withFile())?.files[0];
    const download = await fetch(`${base}${file?.url}`, { headers: { cookie } });
    expect(download.status).toBe(200);
    expect(download.headers.get('content-disposition')).toMatch(/^attachment; filename="/);
    expect(await download.text()).toContain('BEGIN CERTIFICATE');
  });
});
