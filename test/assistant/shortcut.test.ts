import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ASK_SHORTCUT } from '../../src/features/assistant/ids.js';
import { assertWithinBlockKitLimits } from '../helpers/block-kit.js';
import type { SlackCall } from '../helpers/fake-slack.js';
import { messageText } from '../helpers/payloads.js';
import { type AssistantWorld, messageShortcut, outcomesIn, startAssistantWorld } from './support.js';

const LIMIT = { max: 50, windowMs: 60_000 };
const NONE: SlackCall = { method: '', args: {}, at: 0 };

describe('the message shortcut "Ask Regdesk about this", and the asker’s locale', () => {
  let w: AssistantWorld;
  let seq = 0;
  const nextTs = () => `1810000${String(++seq).padStart(3, '0')}.000300`;

  beforeAll(async () => {
    w = await startAssistantWorld({
      env: { REGFISH_LIMITS: JSON.stringify({ assistantKey: LIMIT, assistantAccount: LIMIT }) },
      sandbox: { limits: { assistantKey: LIMIT, assistantAccount: LIMIT } },
    });
    w.h.slack.conversation('CNOBOT', { kind: 'public', botMember: false });
    w.h.slack.users.set('UDE1', { id: 'UDE1', locale: 'de-DE' });
    w.h.slack.users.set('UDE2', { id: 'UDE2', locale: 'de-DE' });
    w.h.slack.users.set('UFR', { id: 'UFR', locale: 'fr-FR' });
  });
  afterAll(async () => {
    await w.stop();
  });

  it('is declared in the manifest with the callback id Regdesk listens to', () => {
    const manifest = parse(readFileSync(new URL('../../manifest.yml', import.meta.url), 'utf8')) as {
      features: { shortcuts: { name: string; type: string; callback_id: string }[] };
    };
    expect(manifest.features.shortcuts).toContainEqual(
      expect.objectContaining({ name: 'Ask Regdesk about this', type: 'message', callback_id: ASK_SHORTCUT }),
    );
  });

  it('in a channel with the bot: asks with the message as context and answers in the message’s thread', async () => {
    const ts = nextTs();
    const text = 'Certificate validation for shop.example failed: the DCV record was not found.';
    const res = await w.h.driver.interaction(
      messageShortcut(ASK_SHORTCUT, {
        user: 'USC1',
        channel: 'CSHORT',
        text,
        ts,
        responseUrl: w.h.slack.responseUrl('sc1'),
      }),
    );
    expect(res.status).toBe(200);
    await w.h.slack.waitFor(() => outcomesIn(w.h.slack.calls, 'CSHORT', ts).length === 1, 15_000);
    const answer = outcomesIn(w.h.slack.calls, 'CSHORT', ts)[0] ?? NONE;
    expect(String(answer.args.text)).toMatch(/^<@USC1> /);
    assertWithinBlockKitLimits(answer.args, 'message');
    expect(
      w.h.slack
        .succeeded('chat.postMessage')
        .some((c) => c.args.thread_ts === ts && c.args.text === '<@USC1> asked Regdesk about this message.'),
    ).toBe(true);
    const asked = w.registrar.about('DCV record was not found');
    expect(asked).toHaveLength(1);
    expect(asked[0]?.q).toContain('About this Slack message:');
    expect(asked[0]?.q).toContain('What does this message mean');
  });

  it('in a channel without the bot: answered privately, in the asker’s DM with the bot; nothing posted in the channel', async () => {
    const ts = nextTs();
    const text = 'Why is the transfer of example.org still pending?';
    await w.h.driver.interaction(
      messageShortcut(ASK_SHORTCUT, {
        user: 'USC2',
        channel: 'CNOBOT',
        text,
        ts,
        responseUrl: w.h.slack.responseUrl('sc2'),
      }),
    );
    await w.h.slack.waitFor(
      () =>
        w.h.slack.calls.some(
          (c) => c.args.channel === 'DUSC2' && messageText(c).includes('here is the answer'),
        ),
      15_000,
    );
    const intro = w.h.slack
      .succeeded('chat.postMessage')
      .find(
        (c) =>
          c.args.channel === 'DUSC2' && messageText(c).includes('You asked about a message in <#CNOBOT>'),
      );
    expect(String(intro?.args.text)).toContain('\n> Why is the transfer of example.org still pending?');
    const introTs = String((intro?.result as { ts?: string } | undefined)?.ts);
    expect(outcomesIn(w.h.slack.calls, 'DUSC2', introTs)).toHaveLength(1);
    // The refused post in the channel was the only attempt there.
    expect(w.h.slack.succeeded('chat.postMessage').filter((c) => c.args.channel === 'CNOBOT')).toEqual([]);
    expect(w.h.slack.callsTo('chat.postMessage').filter((c) => c.args.channel === 'CNOBOT')).toHaveLength(1);
    expect(w.registrar.about('transfer of example.org')).toHaveLength(1);
  });

  it('a message without text: told at once, privately, nothing asked', async () => {
    const before = w.registrar.asked.length;
    await w.h.driver.interaction(
      messageShortcut(ASK_SHORTCUT, {
        user: 'USC3',
        channel: 'CSHORT',
        text: '',
        ts: nextTs(),
        responseUrl: w.h.slack.responseUrl('sc3'),
      }),
    );
    await w.h.slack.waitFor((calls) => calls.some((c) => c.method === 'response_url:sc3'), 15_000);
    expect(messageText(w.h.slack.callsTo('response_url:sc3')[0] ?? NONE)).toContain('no text to ask about');
    expect(w.registrar.asked.length).toBe(before);
  });

  it('a German message is asked about in German, in a German locale', async () => {
    const ts = nextTs();
    const text = 'Die Verlängerung der Domain ist fehlgeschlagen, bitte prüfen.';
    await w.h.driver.interaction(
      messageShortcut(ASK_SHORTCUT, {
        user: 'USC4',
        channel: 'CSHORT',
        text,
        ts,
        responseUrl: w.h.slack.responseUrl('sc4'),
      }),
    );
    await w.h.slack.waitFor(() => outcomesIn(w.h.slack.calls, 'CSHORT', ts).length === 1, 15_000);
    const asked = w.registrar.about('Verlängerung der Domain');
    expect(asked[0]?.q).toContain('Was bedeutet diese Nachricht');
    expect(asked[0]?.locale).toBe('de-DE');
  });

  it('the locale follows the asker’s Slack locale, unless the question is clearly in the other language', async () => {
    const ask = async (user: string, question: string) => {
      await w.h.driver.command('/ask', question, { user, channel: `C${user}` });
      await w.h.slack.waitFor(() => w.registrar.about(question).length === 1, 15_000);
      return w.registrar.about(question)[0]?.locale;
    };
    expect(await ask('UDE1', 'DNSSEC für example.de?')).toBe('de-DE');
    expect(await ask('UDE2', 'How do I enable DNSSEC for my domain?')).toBe('en-US');
    expect(await ask('UFR', 'DNSSEC ?')).toBe('fr-FR');
    expect(await ask('UEN', 'Wie funktioniert die Verlängerung meiner Domains?')).toBe('de-DE');
    // users.info was asked with include_locale for the asker.
    expect(
      w.h.slack
        .callsTo('users.info')
        .some((c) => c.args.user === 'UDE1' && String(c.args.include_locale) === 'true'),
    ).toBe(true);
  });
});
