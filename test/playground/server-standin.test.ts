import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blockKitProblems } from '../../src/playground/block-limits.js';
import {
  MAX_API_BODY_BYTES,
  MAX_UPLOAD_BODY_BYTES,
  SlackStandIn,
} from '../../src/playground/slack-standin.js';
import type { PlaygroundEvent } from '../../src/playground/web/protocol.js';
import { seedWorkspace } from '../../src/playground/workspace.js';

// The stand-in is the playground's Slack and the test suite's: here its Slack rules are checked
// over real HTTP, the way Regdesk's Web API client reaches it.
let slack: SlackStandIn;
const events: PlaygroundEvent[] = [];

async function call(method: string, args: Record<string, unknown>): Promise<Record<string, unknown>> {
  const res = await fetch(`${slack.apiUrl}${method}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer xoxb-test' },
    body: JSON.stringify(args),
  });
  return (await res.json()) as Record<string, unknown>;
}

async function respond(
  url: string,
  body: Record<string, unknown>,
): Promise<{ status: number; json: unknown }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, json: await res.json() };
}

const section = (text: string) => ({ type: 'section', text: { type: 'mrkdwn', text } });

beforeAll(async () => {
  slack = await new SlackStandIn().start();
  seedWorkspace(slack);
  slack.onChange((event) => events.push(event));
});

afterAll(async () => {
  await slack.stop();
});

describe('Slack stand-in', () => {
  it('refuses blocks beyond Block Kit limits the way Slack does, and posts valid ones', async () => {
    const tooMany = await call('chat.postMessage', {
      channel: 'C0GENERAL',
      text: 'x',
      blocks: Array.from({ length: 51 }, (_, i) => section(`row ${i}`)),
    });
    expect(tooMany).toMatchObject({ ok: false, error: 'invalid_blocks' });
    expect(JSON.stringify(tooMany.response_metadata)).toContain('no more than 50 items allowed');

    const longSection = await call('chat.postMessage', {
      channel: 'C0GENERAL',
      text: 'x',
      blocks: [section('y'.repeat(3001))],
    });
    expect(longSection).toMatchObject({ ok: false, error: 'invalid_blocks' });
    expect(JSON.stringify(longSection.errors)).toContain('/blocks/0/text');
    const header = await call('chat.postEphemeral', {
      channel: 'C0GENERAL',
      user: 'U0ADA',
      text: 'x',
      blocks: [{ type: 'header', text: { type: 'plain_text', text: 'h'.repeat(151) } }],
    });
    expect(header).toMatchObject({ ok: false, error: 'invalid_blocks' });

    const home = await call('views.publish', {
      user_id: 'U0ADA',
      view: { type: 'home', blocks: Array.from({ length: 101 }, () => ({ type: 'divider' })) },
    });
    expect(home).toMatchObject({ ok: false, error: 'invalid_arguments' });
    expect(slack.homes.has('U0ADA')).toBe(false);

    const posted = await call('chat.postMessage', {
      channel: 'C0GENERAL',
      text: 'fine',
      blocks: [section('fine')],
    });
    expect(posted).toMatchObject({ ok: true, channel: 'C0GENERAL' });
    expect(events).toContainEqual({
      type: 'message',
      message: expect.objectContaining({ ts: posted.ts, text: 'fine', fromBot: true }),
    });
  });

  it('checks modals: title length, submit with inputs, the three-deep stack, per-user stacks', async () => {
    const modal = (title: string, blocks: unknown[] = [section('hello')]) => ({
      type: 'modal',
      title: { type: 'plain_text', text: title },
      blocks,
    });
    expect(
      await call('views.open', { trigger_id: slack.issueTrigger('U0ADA'), view: modal('t'.repeat(25)) }),
    ).toMatchObject({ ok: false, error: 'invalid_arguments' });
    const input = {
      type: 'input',
      label: { type: 'plain_text', text: 'x' },
      element: { type: 'plain_text_input' },
    };
    expect(
      await call('views.open', { trigger_id: slack.issueTrigger('U0ADA'), view: modal('t', [input]) }),
    ).toMatchObject({ ok: false, error: 'invalid_arguments' });
    expect(blockKitProblems(modal('t', [input]), 'modal')[0]).toContain('submit is required');

    const opened = await call('views.open', { trigger_id: slack.issueTrigger('U0ADA'), view: modal('one') });
    expect(opened.ok).toBe(true);
    await call('views.push', { trigger_id: slack.issueTrigger('U0ADA'), view: modal('two') });
    await call('views.push', { trigger_id: slack.issueTrigger('U0ADA'), view: modal('three') });
    expect(
      await call('views.push', { trigger_id: slack.issueTrigger('U0ADA'), view: modal('four') }),
    ).toMatchObject({
      ok: false,
      error: 'push_limit_reached',
    });
    expect(slack.viewStack('U0ADA')).toHaveLength(3);
    expect(slack.viewStack('U0GRACE')).toHaveLength(0);
    // An expired trigger opens nothing.
    const stale = `${Date.now() - 5_000}.1.abc`;
    expect(await call('views.open', { trigger_id: stale, view: modal('late') })).toMatchObject({
      ok: false,
      error: 'expired_trigger_id',
    });
    slack.clearViews('U0ADA');
    expect(slack.viewStack('U0ADA')).toEqual([]);
    expect(events).toContainEqual({ type: 'views', user: 'U0ADA', stack: [] });
  });

  it('keeps response_url rules: ephemeral by default, replaces the latest command response, five posts', async () => {
    const url = slack.issueResponseUrl({ channel: 'C0OPS', user: 'U0LINUS', latestIsOriginal: true });
    // The bot is not in #ops, yet a response_url still reaches the person there.
    expect((await respond(url, { text: 'working…' })).json).toEqual({ ok: true });
    const first = slack.allMessages().find((message) => message.text === 'working…');
    expect(first).toMatchObject({ channel: 'C0OPS', ephemeralTo: 'U0LINUS', viaResponseUrl: true });
    await respond(url, { replace_original: true, text: 'done' });
    const replaced = slack.allMessages().find((message) => message.ts === first?.ts);
    expect(replaced).toMatchObject({ text: 'done', edited: true });
    await respond(url, { response_type: 'in_channel', text: 'for all' });
    expect(slack.allMessages().find((message) => message.text === 'for all')?.ephemeralTo).toBeUndefined();
    await respond(url, { delete_original: true });
    expect(slack.allMessages().some((message) => message.text === 'for all')).toBe(false);
    await respond(url, { text: 'fifth' });
    expect(await respond(url, { text: 'sixth' })).toEqual({
      status: 404,
      json: { ok: false, error: 'used_url' },
    });
  });

  it('keeps uploads to members, files for download, reactions and people’s messages apart', async () => {
    const upload = await call('files.getUploadURLExternal', { filename: 'cert.pem', length: 5 });
    await fetch(String(upload.upload_url), { method: 'POST', body: 'hello' });
    const files = [{ id: upload.file_id, title: 'Certificate' }];
    expect(await call('files.completeUploadExternal', { channel_id: 'C0OPS', files })).toMatchObject({
      ok: false,
      error: 'not_in_channel',
    });
    expect(
      await call('files.completeUploadExternal', { channel_id: 'C0GENERAL', files: [{ id: 'F9' }] }),
    ).toMatchObject({ ok: false, error: 'file_not_found' });
    expect(await call('files.completeUploadExternal', { channel_id: 'C0GENERAL', files })).toMatchObject({
      ok: true,
    });
    const shared = slack.allMessages().find((message) => message.files.length > 0);
    expect(shared?.files[0]).toMatchObject({ name: 'cert.pem', title: 'Certificate', size: 5 });
    expect(slack.files.get(String(upload.file_id))?.bytes.toString()).toBe('hello');

    const mine = slack.postAsUser('U0ADA', 'C0GENERAL', 'hi all');
    expect(mine.ok).toBe(true);
    const ts = mine.ok ? mine.message.ts : '';
    expect(slack.postAsUser('U0ADA', 'DU0GRACE', 'peek')).toEqual({ ok: false, error: 'not_in_channel' });
    expect(await call('chat.update', { channel: 'C0GENERAL', ts, text: 'edited by bot' })).toMatchObject({
      ok: false,
      error: 'cant_update_message',
    });
    expect(await call('reactions.add', { channel: 'C0GENERAL', timestamp: ts, name: 'eyes' })).toEqual({
      ok: true,
    });
    expect(await call('reactions.add', { channel: 'C0GENERAL', timestamp: ts, name: 'eyes' })).toMatchObject({
      ok: false,
      error: 'already_reacted',
    });
    slack.toggleReaction('U0GRACE', 'C0GENERAL', ts, 'eyes');
    expect(slack.allMessages().find((message) => message.ts === ts)?.reactions).toEqual([
      { name: 'eyes', users: ['UBOT', 'U0GRACE'] },
    ]);
  });
});

/** A raw request, with headers fetch would not send as given (Host). */
function raw(url: string, headers: Record<string, string>, body = ''): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end(body);
  });
}

// docs/requirements.md R42: the stand-in acts as the bot on 127.0.0.1, so it keeps the playground's rules.
describe('Slack stand-in as the playground’s Slack', () => {
  it('refuses browser requests (any Origin) and foreign Host names: nothing is posted', async () => {
    const before = slack.calls.length;
    const form = 'channel=C0GENERAL&text=posted+by+a+web+page';
    const crossSite = await fetch(`${slack.apiUrl}chat.postMessage`, {
      method: 'POST',
      // What a page elsewhere can make the browser send without a preflight.
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'http://evil.example' },
      body: form,
    });
    expect(crossSite.status).toBe(403);
    const responseUrl = slack.issueResponseUrl({ user: 'U0ADA', channel: 'C0GENERAL' });
    const toResponseUrl = await fetch(responseUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'null' },
      body: JSON.stringify({ text: 'posted by a sandboxed frame' }),
    });
    expect(toResponseUrl.status).toBe(403);
    // DNS rebinding: the page's own host name resolves to 127.0.0.1 and its GETs carry no Origin.
    expect(
      await raw(
        `${slack.apiUrl}chat.postMessage`,
        {
          host: `evil.example:${new URL(slack.url).port}`,
          'content-type': 'application/x-www-form-urlencoded',
        },
        form,
      ),
    ).toBe(403);
    expect(slack.calls.length).toBe(before);
    expect(slack.allMessages().some((message) => message.text?.includes('posted by'))).toBe(false);
    // Regdesk's own Web API client sends no Origin: served as before.
    expect(await call('auth.test', {})).toMatchObject({ ok: true });
  });

  it('caps request bodies: 1 MiB for Web API calls, 10 MiB for file uploads, 413 beyond', async () => {
    const post = (url: string, bytes: number, type = 'application/json') =>
      fetch(url, { method: 'POST', headers: { 'content-type': type }, body: Buffer.alloc(bytes, 0x20) });
    expect((await post(`${slack.apiUrl}chat.postMessage`, MAX_API_BODY_BYTES + 1)).status).toBe(413);
    expect((await post(slack.responseUrl('rnone'), MAX_API_BODY_BYTES + 1)).status).toBe(413);
    const upload = (await call('files.getUploadURLExternal', { filename: 'big.bin', length: 1 })) as {
      upload_url: string;
    };
    const octets = 'application/octet-stream';
    expect((await post(upload.upload_url, MAX_UPLOAD_BODY_BYTES + 1, octets)).status).toBe(413);
    expect((await post(upload.upload_url, 2 * MAX_API_BODY_BYTES, octets)).status).toBe(200);
    expect(slack.uploads.get(new URL(upload.upload_url).pathname)?.length).toBe(2 * MAX_API_BODY_BYTES);
  });

  it('answers Web API calls only with the bot token when it has one, as Slack does', async () => {
    const guarded = await new SlackStandIn().start();
    guarded.botToken = 'xoxb-the-bot';
    try {
      const ask = async (authorization?: string) =>
        (await (
          await fetch(`${guarded.apiUrl}auth.test`, {
            method: 'POST',
            headers: authorization === undefined ? {} : { authorization },
          })
        ).json()) as Record<string, unknown>;
      expect(await ask()).toEqual({ ok: false, error: 'not_authed' });
      expect(await ask('Bearer xoxb-someone-else')).toEqual({ ok: false, error: 'invalid_auth' });
      expect(await ask('Bearer xoxb-the-bot')).toMatchObject({ ok: true, user_id: 'UBOT' });
    } finally {
      await guarded.stop();
    }
  });
});
