import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ASK_SHORTCUT } from '../../src/features/assistant/ids.js';
import { SUGGESTED_PROMPTS } from '../../src/features/assistant/panel.js';
import type { Running } from '../../src/main.js';
import type { ApiResult, PlaygroundMessage, PlaygroundSnapshot } from '../../src/playground/web/protocol.js';
import { startPlaygroundProcess } from '../helpers/playground.js';

const ADA = 'U0ADA';
const LINUS = 'U0LINUS';
const GENERAL = 'C0GENERAL';
const WAIT = { timeout: 20_000, interval: 50 };

let running: Running;
let base: string;
let cookie: string;

async function api(path: string, body: unknown): Promise<{ status: number; json: ApiResult }> {
  const res = await fetch(`${base}/playground/api/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: base, cookie },
    body: JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json()) as ApiResult };
}

async function snapshot(): Promise<PlaygroundSnapshot> {
  return (await (
    await fetch(`${base}/playground/api/state`, { headers: { cookie } })
  ).json()) as PlaygroundSnapshot;
}

const textOf = (message: PlaygroundMessage) => JSON.stringify([message.text ?? '', message.blocks ?? []]);
const inThread = async (channel: string, ts: string) =>
  (await snapshot()).messages.filter((m) => m.channel === channel && m.threadTs === ts && m.ts !== ts);

/**
 * Slack's agent messaging in the playground, end to end through its API as the page calls it: the
 * Messages tab opening, a DM there, and the message shortcut, against the real Regdesk and the
 * playground's strict Slack.
 */
describe('the playground’s agent messaging', () => {
  beforeAll(async () => {
    running = await startPlaygroundProcess();
    base = `http://127.0.0.1:${running.http?.port ?? 0}`;
    const login = await fetch(running.playground?.url ?? '', { redirect: 'manual' });
    cookie = (login.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  });
  afterAll(async () => {
    await running?.stop();
  });

  it('opening the Messages tab sends app_home_opened (tab: messages); Regdesk pins prompts in the member’s language', async () => {
    expect((await api('home-opened', { user: ADA, tab: 'messages' })).json).toEqual({ ok: true });
    expect((await api('home-opened', { user: LINUS, tab: 'messages' })).json).toEqual({ ok: true });
    await expect
      .poll(async () => (await snapshot()).suggestedPrompts[`D${ADA}`]?.prompts, WAIT)
      .toEqual(SUGGESTED_PROMPTS.en.prompts);
    // Linus's Slack locale is de-DE.
    await expect
      .poll(async () => (await snapshot()).suggestedPrompts[`D${LINUS}`]?.title, WAIT)
      .toBe(SUGGESTED_PROMPTS.de.title);
    expect((await api('home-opened', { user: ADA, tab: 'elsewhere' })).status).toBe(400);
  });

  it('a message in the Messages tab is delivered as message.im and answered in its thread, its status shown meanwhile', async () => {
    const asked = await api('composer', {
      user: ADA,
      channel: `D${ADA}`,
      text: 'How do I enable DNSSEC for my domain?',
    });
    expect(asked.json).toEqual({ ok: true });
    const question = (await snapshot()).messages.find(
      (m) => m.channel === `D${ADA}` && m.user === ADA && textOf(m).includes('enable DNSSEC'),
    );
    expect(question).toBeDefined();
    const ts = question?.ts ?? '';
    await expect
      .poll(
        async () =>
          (await inThread(`D${ADA}`, ts)).some((m) => m.fromBot && textOf(m).includes('Enabling DNSSEC')),
        WAIT,
      )
      .toBe(true);
    // The status was set on the thread and cleared with the answer.
    const slack = running.playground?.slack;
    expect(
      slack
        ?.succeeded('assistant.threads.setStatus')
        .some((c) => c.args.thread_ts === ts && c.args.status !== ''),
    ).toBe(true);
    await expect.poll(async () => (await snapshot()).threadStatuses[`D${ADA}:${ts}`] ?? '', WAIT).toBe('');
  });

  it('the message shortcut "Ask Regdesk about this" from a message’s menu is answered in that message’s thread', async () => {
    const shortcut = (await snapshot()).messageShortcuts.find((s) => s.callbackId === ASK_SHORTCUT);
    expect(shortcut?.name).toBe('Ask Regdesk about this');
    await api('composer', {
      user: ADA,
      channel: GENERAL,
      text: 'The renewal of example.org failed, card declined.',
    });
    const message = (await snapshot()).messages.find(
      (m) => m.channel === GENERAL && textOf(m).includes('card declined'),
    );
    const ts = message?.ts ?? '';
    expect(
      (await api('shortcut', { user: ADA, channel: GENERAL, ts, callbackId: ASK_SHORTCUT })).json,
    ).toEqual({ ok: true });
    await expect
      .poll(
        async () => (await inThread(GENERAL, ts)).some((m) => textOf(m).includes(`<@${ADA}> asked Regdesk`)),
        WAIT,
      )
      .toBe(true);
    await expect
      .poll(
        async () =>
          (await inThread(GENERAL, ts)).some(
            (m) => m.fromBot && /here is the answer|No answer/.test(textOf(m)),
          ),
        WAIT,
      )
      .toBe(true);
    // What Slack's client would not offer: an unknown shortcut, or a message one cannot see.
    expect((await api('shortcut', { user: ADA, channel: GENERAL, ts, callbackId: 'nope' })).json.ok).toBe(
      false,
    );
    expect(
      (await api('shortcut', { user: ADA, channel: GENERAL, ts: '1.000001', callbackId: ASK_SHORTCUT })).json,
    ).toEqual({
      ok: false,
      error: 'message_not_found',
    });
  });
});
