import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blockKitProblems } from '../../src/playground/block-limits.js';
import { SlackStandIn } from '../../src/playground/slack-standin.js';
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
