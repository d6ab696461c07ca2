import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APPROVAL_IDS } from '../../src/features/approvals/ids.js';
import { POLICY_IDS } from '../../src/features/policy/ids.js';
import { inputActionId } from '../../src/slack/modal.js';
import { texts } from '../../src/text/index.js';
import { ask, dmsTo, WS } from '../approvals/support.js';
import { type Harness, startHarness } from '../helpers/app-harness.js';
import type { SlackCall } from '../helpers/fake-slack.js';
import { buttonPress, messageText, viewSubmission } from '../helpers/payloads.js';

const de = texts('de');
const POLICY = POLICY_IDS.field;
const en = texts('en');

/** Two members of one workspace: Slack set to German and to English. */
const GERMAN = 'U0DE';
const ENGLISH = 'U0EN';
const ADMIN_DE = 'U0ADMDE';
const ADMIN_EN = 'U0ADMEN';

/** Everything the response_url of a command carried (the command's replies to the person). */
function repliesIn(h: Harness, since: number): string[] {
  return h.slack.calls
    .slice(since)
    .filter((c) => c.method.startsWith('response_url:'))
    .map((c) => JSON.stringify(c.args));
}

/** The words a catalog sentence starts with, up to its first parameter (or 24 characters). */
function opening(sentence: string): string {
  return sentence.slice(0, 24).replace(/[*_`<].*$/, '');
}

/** The JSON of what a matcher found, once it has been found. */
async function firstCall(h: Harness, matches: (c: SlackCall) => boolean): Promise<SlackCall> {
  await h.slack.waitFor((calls) => calls.some(matches), 10_000);
  const call = h.slack.calls.find(matches);
  if (call === undefined) throw new Error('not found');
  return call;
}

describe('each person in their Slack language, channels in the workspace’s (contract §3 "Language")', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness();
    h.slack.users.set(GERMAN, { id: GERMAN, locale: 'de-DE' });
    h.slack.users.set(ENGLISH, { id: ENGLISH, locale: 'en-GB' });
    h.slack.users.set(ADMIN_DE, { id: ADMIN_DE, is_admin: true, locale: 'de-AT' });
    h.slack.users.set(ADMIN_EN, { id: ADMIN_EN, is_admin: true, locale: 'en-US' });
  });
  afterAll(async () => {
    await h.stop();
  });

  it('answers /domain help in German to a German member and in English to an English one, in one channel', async () => {
    const german = (await h.driver.command('/domain', 'help', { user: GERMAN, channel: 'C0LANG1' })).text;
    expect(german).toContain(de.slack.helpSummary);
    expect(german).not.toContain(en.slack.helpSummary);
    const english = (await h.driver.command('/domain', 'help', { user: ENGLISH, channel: 'C0LANG1' })).text;
    expect(english).toContain(en.slack.helpSummary);
    expect(english).not.toContain(de.slack.helpSummary);
  });

  it('shows a German member a German card and an English member an English one, in one channel', async () => {
    const cardFor = async (user: string) => {
      // Read from this command's own response_url only: another command's card, still being edited
      // after its last progress update already showed every name, is not this one's (issue #47).
      const id = `lang-card-${user}`;
      const replies = () => h.slack.callsTo(`response_url:${id}`).map((c) => JSON.stringify(c.args));
      await h.driver.command('/domain', 'check regdesk-demo.de regdesk-free-name.de', {
        user,
        channel: 'C0LANG8',
        responseUrl: h.slack.responseUrl(id),
      });
      // The card is edited in place as each name is answered: the last word is the finished card.
      await h.slack.waitFor(() => replies().some((reply) => reply.includes('regdesk-free-name.de')));
      await expect.poll(() => replies().at(-1) ?? '').not.toContain(':hourglass');
      return replies().at(-1) ?? '';
    };
    const german = await cardFor(GERMAN);
    expect(german).toContain(de.domains.checkTitle({ count: 2 }));
    expect(german).not.toContain(en.domains.checkTitle({ count: 2 }));
    const english = await cardFor(ENGLISH);
    expect(english).toContain(en.domains.checkTitle({ count: 2 }));
    expect(english).not.toContain(de.domains.checkTitle({ count: 2 }));
  });

  it('does not hold the acknowledgement for a slow users.info: that reply in the workspace’s language, the next in theirs', async () => {
    const slowGerman = 'U0DESLOW';
    h.slack.users.set(slowGerman, { id: slowGerman, locale: 'de-DE' });
    // Far longer than the lookup's budget: waiting for it would answer in German.
    h.slack.slowNext('users.info', 5_000);
    const first = (await h.driver.command('/domain', 'help', { user: slowGerman, channel: 'C0LANG7' })).text;
    expect(first).toContain(en.slack.helpSummary);
    // The lookup went on and was kept: once it has landed, the person is answered in German.
    await expect
      .poll(
        async () =>
          (await h.driver.command('/domain', 'help', { user: slowGerman, channel: 'C0LANG7' })).text,
        { timeout: 20_000, interval: 500 },
      )
      .toContain(de.slack.helpSummary);
    // The requests meanwhile shared the one lookup that was out.
    expect(h.slack.callsTo('users.info').filter((c) => c.args.user === slowGerman)).toHaveLength(1);
  });

  it('tells a German guest why in German, and logs the refusal in English for the operator', async () => {
    const guest = 'U0DEGAST';
    h.slack.users.set(guest, { id: guest, is_restricted: true, locale: 'de-DE' });
    // Known first: the refusal below is then said in German, not in the workspace's language.
    await h.driver.command('/domain', 'help', { user: guest, channel: 'C0LANG8' });
    await expect
      .poll(async () => (await h.driver.command('/domain', 'help', { user: guest, channel: 'C0LANG8' })).text)
      .toContain(de.slack.helpSummary);
    const logsBefore = h.logs.length;
    await h.driver.command('/ask', 'Wie stelle ich DNSSEC ein?', {
      user: guest,
      channel: 'C0LANG8',
      responseUrl: h.slack.responseUrl('ask-de-guest'),
    });
    await h.slack.waitFor((calls) => calls.some((c) => c.method === 'response_url:ask-de-guest'), 15_000);
    const told = JSON.stringify(h.slack.callsTo('response_url:ask-de-guest')[0]?.args);
    const inGerman = de.approvals.outsiderCannot({ who: de.approvals.outsiderGuests, act: '' }).split(' ')[0];
    expect(told).toContain(inGerman);
    const refusalLines = h.logs
      .slice(logsBefore)
      .filter((line) => line.includes('regdesk_permission_refused'));
    expect(refusalLines.length).toBeGreaterThan(0);
    for (const line of refusalLines) {
      expect(line).toContain(
        en.approvals.outsiderCannot({ who: en.approvals.outsiderGuests, act: '' }).split(' ')[0],
      );
      expect(line).not.toContain(inGerman);
    }
  });

  it('opens modals in the person’s language: the policy modal’s title', async () => {
    const before = h.slack.callsTo('views.open').length;
    await h.driver.command('/domain', 'policy', { user: ADMIN_DE, channel: 'C0LANG2' });
    await h.slack.waitFor(() => h.slack.callsTo('views.open').length > before, 10_000);
    const germanView = JSON.stringify(h.slack.callsTo('views.open').at(-1)?.args);
    expect(germanView).toContain(de.policy.policyTitle);

    const next = h.slack.callsTo('views.open').length;
    await h.driver.command('/domain', 'policy', { user: ADMIN_EN, channel: 'C0LANG2' });
    await h.slack.waitFor(() => h.slack.callsTo('views.open').length > next, 10_000);
    const englishView = JSON.stringify(h.slack.callsTo('views.open').at(-1)?.args);
    expect(englishView).toContain(en.policy.policyTitle);
    expect(englishView).not.toContain(de.policy.policyTitle);
  });

  it('posts a German member’s approval request in the workspace’s language (English while each has their own), tells them in German', async () => {
    const since = h.slack.calls.length;
    const { id } = await ask(h, '/domain', 'authcode regdesk-demo.de', { user: GERMAN, channel: 'C0LANG3' });
    const request = h.slack
      .succeeded('chat.postMessage')
      .find((c) => c.args.channel === 'C0LANG3' && messageText(c).includes(id));
    const shown = request === undefined ? '' : messageText(request);
    expect(shown).toContain(`"text":"${en.approvals.approveButton}"`);
    expect(shown).not.toContain(de.approvals.approveButton);
    await h.slack.waitFor(() => repliesIn(h, since).some((reply) => reply.includes(id)));
    const told = repliesIn(h, since).find((reply) => reply.includes(id)) ?? '';
    expect(told).toContain(opening(de.approvals.requested({ channel: 'C0LANG3', id })));
    // The admins' copies by DM are each in that admin's language.
    const copyTo = (admin: string) => dmsTo(h, admin).find((dm) => dm.includes(id)) ?? '';
    await h.slack.waitFor(() => copyTo(ADMIN_DE) !== '' && copyTo(ADMIN_EN) !== '');
    expect(copyTo(ADMIN_DE)).toContain(`"text":"${de.approvals.approveButton}"`);
    expect(copyTo(ADMIN_EN)).toContain(`"text":"${en.approvals.approveButton}"`);

    // An English approver denies: the channel's message stays English; the German requester hears
    // of it in German, by DM.
    await deny(id, ADMIN_EN, 'C0LANG3', 'not now');
    await h.slack.waitFor(() => dmsTo(h, GERMAN).some((dm) => dm.includes('not now')), 10_000);
    const dm = dmsTo(h, GERMAN).find((text) => text.includes('not now')) ?? '';
    expect(dm).toContain(opening(de.approvals.requestDenied({ summary: '', user: ADMIN_EN, reason: '' })));
    // The requester is told first; the channel's message follows at the channel's pace.
    const update = await firstCall(
      h,
      (c) => c.method === 'chat.update' && c.args.channel === 'C0LANG3' && messageText(c).includes('not now'),
    );
    expect(messageText(update)).not.toContain(de.approvals.denyReasonPlaceholder);
    expect(messageText(update)).not.toContain(`"text":"${de.approvals.approveButton}"`);
  });

  it('tells an English requester in English when a German approver denies, in a German modal', async () => {
    const { id } = await ask(h, '/domain', 'authcode regdesk-demo.de', { user: ENGLISH, channel: 'C0LANG5' });
    const modal = await deny(id, ADMIN_DE, 'C0LANG5', 'nicht jetzt');
    expect(modal).toContain(de.approvals.denyReasonPlaceholder);
    await h.slack.waitFor(() => dmsTo(h, ENGLISH).some((dm) => dm.includes('nicht jetzt')), 10_000);
    const dm = dmsTo(h, ENGLISH).find((text) => text.includes('nicht jetzt')) ?? '';
    expect(dm).toContain(opening(en.approvals.requestDenied({ summary: '', user: ADMIN_DE, reason: '' })));
  });

  /** Deny pressed by `approver`, the reason given in the modal; returns the modal as opened. */
  async function deny(id: string, approver: string, channel: string, reason: string): Promise<string> {
    const before = h.slack.callsTo('views.open').length;
    await h.driver.interaction(buttonPress(APPROVAL_IDS.deny, id, { user: approver, channel }));
    await h.slack.waitFor(() => h.slack.callsTo('views.open').length > before, 10_000);
    const opened = h.slack.callsTo('views.open').at(-1)?.args.view as
      | { private_metadata?: string }
      | undefined;
    await h.driver.interaction(
      viewSubmission(
        APPROVAL_IDS.denyModal,
        {
          [APPROVAL_IDS.denyReasonBlock]: {
            [inputActionId(APPROVAL_IDS.denyReasonBlock)]: { type: 'plain_text_input', value: reason },
          },
        },
        { user: approver, privateMetadata: opened?.private_metadata ?? '' },
      ),
    );
    return JSON.stringify(opened);
  }

  it('with the policy’s language set to German, every channel message and every person is German', async () => {
    const current = await h.running.services.policies.get(WS);
    // Set as an admin sets it: the policy modal's Language select.
    const saved = await h.driver.interaction(
      viewSubmission(
        POLICY_IDS.modal,
        {
          [POLICY.language]: {
            [inputActionId(POLICY.language)]: { type: 'static_select', selected_option: { value: 'de' } },
          },
        },
        { user: ADMIN_EN },
      ),
    );
    expect(saved.status).toBe(200);
    await expect.poll(async () => (await h.running.services.policies.get(WS)).language).toBe('de');
    try {
      const since = h.slack.calls.length;
      const { id } = await ask(h, '/domain', 'authcode regdesk-demo.de', {
        user: ENGLISH,
        channel: 'C0LANG4',
      });
      const request = h.slack
        .succeeded('chat.postMessage')
        .find((c) => c.args.channel === 'C0LANG4' && messageText(c).includes(id));
      expect(request === undefined ? '' : messageText(request)).toContain(
        `"text":"${de.approvals.approveButton}"`,
      );
      // The English member's own reply is German too: the workspace fixed one language.
      await h.slack.waitFor(() => repliesIn(h, since).some((reply) => reply.includes(id)));
      expect(repliesIn(h, since).find((reply) => reply.includes(id))).toContain(
        opening(de.approvals.requested({ channel: 'C0LANG4', id })),
      );
      await h.driver.interaction(
        buttonPress(APPROVAL_IDS.withdraw, id, { user: ENGLISH, channel: 'C0LANG4' }),
      );
      const update = await firstCall(
        h,
        (c) => c.method === 'chat.update' && c.args.channel === 'C0LANG4' && messageText(c).includes(id),
      );
      expect(messageText(update)).not.toContain(`"text":"${en.approvals.approveButton}"`);

      // Approved: the execution runs in a worker, and its outcome in the channel is German too.
      const approved = await ask(h, '/domain', 'authcode regdesk-demo.de', {
        user: ENGLISH,
        channel: 'C0LANG6',
      });
      await h.driver.interaction(
        buttonPress(APPROVAL_IDS.approve, approved.id, { user: ADMIN_EN, channel: 'C0LANG6' }),
      );
      const done = await firstCall(
        h,
        (c) =>
          c.method === 'chat.update' &&
          c.args.channel === 'C0LANG6' &&
          messageText(c).includes(':white_check_mark: Erledigt.'),
      );
      expect(messageText(done)).toContain(approved.id);
    } finally {
      await h.running.services.policies.set(WS, { ...current, language: 'auto' });
    }
  });
});
