import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { POLICY_IDS } from '../../src/features/policy/ids.js';
import { WATCH_IDS } from '../../src/features/watches/ids.js';
import { WATCHES_PER_PERSON } from '../../src/features/watches/service.js';
import { type Running, runRegdesk } from '../../src/main.js';
import { createLogger } from '../../src/shared/logger.js';
import { inputActionId } from '../../src/slack/modal.js';
import type { Harness } from '../helpers/app-harness.js';
import { assertWithinBlockKitLimits } from '../helpers/block-kit.js';
import { buttonPress, messageText, viewSubmission } from '../helpers/payloads.js';
import { command, looksDone, posted, startWatching, WS } from './support.js';

/** Security review item 4: watches cannot be used to flood a channel, use up the workspace, or be changed without a trace. */

const ALICE = 'UALICE';
const BOB = 'UBOB';
const CAROL = 'UCAROL';
const ADMIN = 'UADMIN';

const input = (block: string, value: Record<string, unknown>) => ({
  [block]: { [inputActionId(block)]: value },
});
/** The digest settings modal as submitted. */
const settingsForm = (channel: string) => ({
  ...input(WATCH_IDS.channel, { type: 'conversations_select', selected_conversation: channel }),
  ...input(WATCH_IDS.cadence, { type: 'static_select', selected_option: { value: 'daily' } }),
  ...input(WATCH_IDS.hour, { type: 'static_select', selected_option: { value: '9' } }),
  ...input(WATCH_IDS.timeZone, { type: 'plain_text_input', value: 'Europe/Berlin' }),
});
const names = (prefix: string, from: number, count: number) =>
  Array.from({ length: count }, (_, i) => `${prefix}-${from + i}.com`).join(' ');
const readsOf = (h: Harness, domain: string) =>
  h.sandbox.calls.filter((call) => call.operation === 'domains.get' && call.path.endsWith(`/${domain}`));
const watchedIds = async (h: Harness) =>
  (await h.running.services.watches.list(WS)).map((entry) => entry.item.id);

describe('watches hold only what the registrar knows, at most 50 per person (app, sandbox, strict fake Slack)', () => {
  let h: Harness;

  beforeAll(async () => {
    ({ h } = await startWatching());
    h.slack.users.set(ADMIN, { id: ADMIN, is_admin: true });
    for (const prefix of ['mine', 'carol', 'admin'])
      for (let i = 0; i < 60; i++) h.sandbox.state.addDomain(`${prefix}-${i}.com`, Date.now());
  });
  afterAll(async () => {
    await h?.stop();
  });

  it('reads each name first: unknown ones are not watched, and only the adder is told which', async () => {
    const { last } = await command(h, '/domain', 'watch add example.com made-up-1.com made-up-2.com', {
      user: ALICE,
      channel: 'CABUSE',
    });
    const answer = JSON.parse(last) as { response_type: string; text: string };
    expect(answer.response_type).toBe('ephemeral');
    expect(answer.text).toContain('Now watching `example.com`');
    expect(answer.text).toContain(
      "the registrar does not know these domains for this workspace's key: `made-up-1.com`, `made-up-2.com`",
    );
    expect(readsOf(h, 'made-up-1.com').map((call) => call.status)).toEqual([404]);
    expect(await watchedIds(h)).toEqual(['example.com']);
    await looksDone(h);
    // Nothing about the made-up names reaches the channel (they once raised an alert each).
    expect(h.slack.callsTo('chat.postMessage').filter((c) => c.args.channel === 'CABUSE')).toHaveLength(0);

    // A card's Watch button carries a value anyone can forge: it is read too.
    const id = `forged${Date.now()}`;
    await h.driver.interaction(
      buttonPress(WATCH_IDS.watchDomain, 'forged-name.com', {
        user: ALICE,
        responseUrl: h.slack.responseUrl(id),
      }),
    );
    await h.slack.waitFor(() => h.slack.callsTo(`response_url:${id}`).length > 0, 15_000);
    expect(JSON.stringify(h.slack.callsTo(`response_url:${id}`)[0]?.args)).toContain('does not know');
    expect(await watchedIds(h)).toEqual(['example.com']);
  });

  it(`one person adds at most ${WATCHES_PER_PERSON} watches; past that they are refused with how many they have`, async () => {
    // Alice has example.com: 49 more take her to the cap.
    const full = await command(h, '/domain', `watch add ${names('mine', 0, WATCHES_PER_PERSON - 1)}`, {
      user: ALICE,
    });
    expect(full.last).toContain('Now watching');
    const over = await command(h, '/domain', 'watch add mine-49.com', { user: ALICE });
    expect(over.last).toContain(
      `You have added ${WATCHES_PER_PERSON} of the ${WATCHES_PER_PERSON} watches one person may add`,
    );
    expect(over.last).toContain('Nothing was added');
    // At the cap already: refused before any registrar read.
    expect(readsOf(h, 'mine-49.com')).toHaveLength(0);
    expect(await watchedIds(h)).not.toContain('mine-49.com');

    // Below the cap, but the names would pass it: all or nothing, atomically (store.ts).
    await command(h, '/domain', `watch add ${names('carol', 0, 30)}`, { user: CAROL });
    const carol = await command(h, '/domain', `watch add ${names('carol', 30, 25)}`, { user: CAROL });
    expect(carol.last).toContain(`You have added 30 of the ${WATCHES_PER_PERSON} watches`);
    expect(carol.last).toContain('25 more would pass');
    expect((await watchedIds(h)).filter((watched) => watched.startsWith('carol-'))).toHaveLength(30);

    // Someone else is not held by Alice's count; an admin answers for the workspace and has no cap.
    const bob = await command(h, '/domain', 'watch add mine-49.com', { user: BOB });
    expect(bob.last).toContain('Now watching `mine-49.com`');
    const admin = await command(h, '/domain', `watch add ${names('admin', 0, WATCHES_PER_PERSON + 1)}`, {
      user: ADMIN,
    });
    expect(admin.last).toContain('Now watching');
    expect((await watchedIds(h)).filter((watched) => watched.startsWith('admin-'))).toHaveLength(
      WATCHES_PER_PERSON + 1,
    );
    await looksDone(h);
  }, 120_000);
});

describe('alerts of one sweep with one cause reach a channel as one message, across two processes', () => {
  let h: Harness;
  let clock: { t: number };
  let second: Running | undefined;
  const COUNT = 12;

  beforeAll(async () => {
    ({ h, clock } = await startWatching());
    for (let i = 0; i < COUNT; i++) h.sandbox.state.addDomain(`fail-${i}.com`, clock.t);
    // A second worker process on the same Redis: looks and alert batches are jobs either may take.
    second = await runRegdesk({
      role: 'worker',
      config: loadConfig(h.env),
      logger: createLogger({ level: 'silent' }),
      env: h.env,
      say: () => {},
      now: () => clock.t,
    });
  });
  afterAll(async () => {
    await second?.stop();
    await h?.stop();
  });

  const sweepBoth = async () => {
    clock.t += 7 * 3_600_000;
    await Promise.all([h.running.services.watches.sweep(), second?.services.watches.sweep()]);
    await looksDone(h);
  };

  it(`a refused key: "${COUNT} domains could not be checked", once, instead of ${COUNT} messages`, async () => {
    const { last } = await command(h, '/domain', `watch add ${names('fail', 0, COUNT)}`, {
      user: ALICE,
      channel: 'CKEY',
    });
    expect(last).toContain('Now watching');
    await looksDone(h);
    const inChannel = () => h.slack.callsTo('chat.postMessage').filter((c) => c.args.channel === 'CKEY');
    expect(inChannel()).toHaveLength(0);

    h.sandbox.faults.inject('domains.get', { status: 401 });
    try {
      await sweepBoth();
      await sweepBoth();
      expect(inChannel()).toHaveLength(0);
      await sweepBoth();
      await h.slack.waitFor(() => inChannel().length > 0, 15_000);
      // Later sweeps of the same streak raise nothing again (the marks, set once across processes).
      await sweepBoth();
      await sweepBoth();
    } finally {
      h.sandbox.faults.clear();
    }
    expect(inChannel()).toHaveLength(1);
    const [message] = inChannel();
    assertWithinBlockKitLimits(message?.args, 'message');
    const text = messageText(message ?? { method: '', args: {}, at: 0 });
    expect(text).toContain(`${COUNT} domains could not be checked 3 times in a row`);
    expect(text).toContain("The registrar rejected this workspace's API key");
    for (let i = 0; i < COUNT; i++) expect(text).toContain(`fail-${i}.com`);
  }, 120_000);
});

describe('removing watches and changing the digest settings follow the policy, and every change is audited', () => {
  let h: Harness;

  beforeAll(async () => {
    ({ h } = await startWatching());
    h.slack.users.set(ADMIN, { id: ADMIN, is_admin: true });
  });
  afterAll(async () => {
    await h?.stop();
  });

  const saveSettings = async (user: string, channel: string) => {
    const before = posted(h, `D${user}`, '').length;
    await h.driver.interaction(viewSubmission(WATCH_IDS.settingsModal, settingsForm(channel), { user }));
    await h.slack.waitFor(() => posted(h, `D${user}`, '').length > before, 15_000);
    return messageText(posted(h, `D${user}`, '').at(-1) ?? { method: '', args: {}, at: 0 });
  };
  const digestChannel = async () => (await h.running.services.watches.settings(WS))?.channel;

  it('by default only whoever added a watch, and admins, remove it; anyone else is told why', async () => {
    await command(h, '/domain', 'watch add example.com regdesk-demo.de', { user: ALICE });
    const bob = await command(h, '/domain', 'watch remove example.com', { user: BOB });
    expect(bob.last).toContain(`Not removed: \`example.com\` (added by <@${ALICE}>)`);
    expect(bob.last).toContain('only the person who added a watch and admins');
    expect(await watchedIds(h)).toContain('example.com');

    const alice = await command(h, '/domain', 'watch remove regdesk-demo.de', { user: ALICE });
    expect(alice.last).toContain('No longer watching `regdesk-demo.de`');
    const admin = await command(h, '/domain', 'watch remove example.com', { user: ADMIN });
    expect(admin.last).toContain('No longer watching `example.com`');
    expect(await watchedIds(h)).toEqual([]);
  });

  it('by default only whoever saved the digest settings, and admins, change them; anyone else is told why', async () => {
    expect(await saveSettings(ALICE, 'C0DIGEST')).toContain('settings saved');
    expect(await digestChannel()).toBe('C0DIGEST');

    const refused = await saveSettings(BOB, 'CBOB');
    expect(refused).toContain(`only <@${ALICE}>, who saved them, and admins`);
    expect(refused).toContain('Nothing was changed');
    expect(await digestChannel()).toBe('C0DIGEST');
    // The command says so before the modal is filled in.
    const opened = h.slack.callsTo('views.open').length;
    const command_ = await command(h, '/domain', 'watch settings', { user: BOB });
    expect(command_.last).toContain('may change the watch settings');
    expect(h.slack.callsTo('views.open')).toHaveLength(opened);

    expect(await saveSettings(ADMIN, 'CADMIN')).toContain('settings saved');
    expect(await digestChannel()).toBe('CADMIN');
  });

  it('with `/domain policy` set to let anyone manage watches, any member removes and changes them', async () => {
    const P = POLICY_IDS.field;
    await h.driver.interaction(
      viewSubmission(
        POLICY_IDS.modal,
        input(P.watchManagers, { type: 'static_select', selected_option: { value: 'anyone' } }),
        { user: ADMIN },
      ),
    );
    await expect
      .poll(async () => (await h.running.services.policies.get(WS)).watchManagers, { timeout: 15_000 })
      .toBe('anyone');

    await command(h, '/domain', 'watch add shop-example.org', { user: ALICE });
    const bob = await command(h, '/domain', 'watch remove shop-example.org', { user: BOB });
    expect(bob.last).toContain('No longer watching `shop-example.org`');
    expect(await saveSettings(BOB, 'CBOB')).toContain('settings saved');
    expect(await digestChannel()).toBe('CBOB');
  });

  it('every add, removal and settings change is in the audit trail, refusals included', async () => {
    const entries = await h.running.services.audit.latest(WS, { limit: 100 });
    const has = (fields: Record<string, string>) =>
      expect(entries).toContainEqual(expect.objectContaining(fields));
    has({ action: 'watch_add', actor: ALICE, target: 'example.com' });
    has({ action: 'watch_remove', actor: ALICE, target: 'regdesk-demo.de' });
    has({ action: 'watch_remove', actor: ADMIN, target: 'example.com' });
    has({ action: 'refuse', actor: BOB, operation: 'domain watch remove', target: 'example.com' });
    has({ action: 'watch_remove', actor: BOB, target: 'shop-example.org' });
    has({ action: 'refuse', actor: BOB, operation: 'watch settings' });
    for (const actor of [ALICE, ADMIN, BOB]) has({ action: 'watch_settings', actor });
    const settings = entries.find((entry) => entry.action === 'watch_settings' && entry.actor === ADMIN);
    expect(settings?.outcome).toContain('channel CADMIN');
    expect(settings?.outcome).toContain('was channel C0DIGEST');

    const trail = await h.driver.command('/domain', 'audit example.com');
    expect(trail.text).toContain('added a watch');
    expect(trail.text).toContain('removed the watch');
  });
});
