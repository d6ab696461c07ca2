import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEY_IDS } from '../../src/features/keys/ids.js';
import { inputActionId } from '../../src/slack/modal.js';
import { addLabDomains } from '../diagnostics/support.js';
import type { Harness } from '../helpers/app-harness.js';
import { type DnsLab, startDnsLab } from '../helpers/dns-lab/index.js';
import { englishWords, textsOf } from '../helpers/english-words.js';
import { LAB_RANGE } from '../helpers/live-check.js';
import { viewSubmission } from '../helpers/payloads.js';
import { command, startWatching } from '../watches/support.js';

const GERMAN = 'U0DEWORDS';
const GERMAN_ADMIN = 'U0DEADMIN';

describe('a German member reads German everywhere: /dns check and App Home (issue #47)', () => {
  let lab: DnsLab;
  let h: Harness;

  beforeAll(async () => {
    lab = await startDnsLab();
    ({ h } = await startWatching({
      env: { DNS_RESOLVERS: lab.resolver, LIVE_CHECK_ALLOW: LAB_RANGE, DNSSEC_TRUST_ANCHOR: lab.trustAnchor },
    }));
    addLabDomains(h.sandbox, lab);
    h.slack.users.set(GERMAN, { id: GERMAN, locale: 'de-DE' });
    h.slack.users.set(GERMAN_ADMIN, { id: GERMAN_ADMIN, locale: 'de-DE', is_admin: true });
  }, 120_000);
  afterAll(async () => {
    await h?.stop();
    await lab?.stop();
  });

  it('finds English words where they are, and not in German or in code', () => {
    expect(englishWords('Soll disabled, Ist disabled')).toEqual(['disabled', 'disabled']);
    expect(englishWords('2 removed (issued)')).toEqual(['removed', 'issued']);
    expect(
      englishWords('Die Zone `the record is pending` auf <@U1> :white_check_mark: ns1.healthy.de'),
    ).toEqual([]);
  });

  it.each([
    ['healthy', 'healthy'],
    ['a DS that matches no key', 'badDs'],
    ['lame delegation', 'lame'],
    ['a CAA record', 'caa'],
  ] as const)('/dns check of a zone with %s is German', async (_, zone) => {
    const { last } = await command(h, '/dns', `check ${lab.zones[zone]}`, { user: GERMAN });
    const words = textsOf(JSON.parse(last)).flatMap(englishWords);
    expect(words, last).toEqual([]);
  });

  it.each([
    ['/dns', 'dnssec'],
    ['/domain', 'info'],
    ['/dns', 'records'],
  ])('%s %s of a lab zone is German', async (name, sub) => {
    const { last } = await command(h, name, `${sub} ${lab.zones.healthy}`, { user: GERMAN });
    const words = textsOf(JSON.parse(last)).flatMap(englishWords);
    expect(words, last).toEqual([]);
  });

  it('App Home is German, with pending approvals, running work and recent activity', async () => {
    await h.driver.command('/domain', `authcode ${lab.zones.healthy}`, { user: GERMAN, channel: 'C0001' });
    await h.driver.command('/tls', 'revoke cert-issued-recent superseded', {
      user: 'U0OTHER',
      channel: 'C0001',
    });
    await h.slack.waitFor(
      (calls) => calls.filter((c) => c.method === 'chat.postMessage').length >= 2,
      20_000,
    );
    await h.driver.event({ type: 'app_home_opened', user: GERMAN, channel: 'D0DE', tab: 'home' });
    await h.slack.waitFor(
      () => h.slack.callsTo('views.publish').some((c) => c.args.user_id === GERMAN),
      15_000,
    );
    const view = h.slack.callsTo('views.publish').findLast((c) => c.args.user_id === GERMAN)?.args.view;
    const words = textsOf(view).flatMap(englishWords);
    expect(words, JSON.stringify(view)).toEqual([]);
  });

  it('the key modal answers a German admin in German when the registrar rejects or accepts a key', async () => {
    const submit = (key: string, viewId: string) =>
      h.driver.interaction(
        viewSubmission(
          KEY_IDS.modal,
          {
            [KEY_IDS.keyBlock]: {
              [inputActionId(KEY_IDS.keyBlock)]: { type: 'plain_text_input', value: key },
            },
          },
          { user: GERMAN_ADMIN, viewId },
        ),
      );
    const shown = async (viewId: string) => {
      await h.slack.waitFor(
        () => h.slack.callsTo('views.update').some((c) => c.args.view_id === viewId),
        15_000,
      );
      return h.slack.callsTo('views.update').findLast((c) => c.args.view_id === viewId)?.args.view;
    };
    await submit('rf_not_a_key_the_sandbox_knows', 'VDEKEY1');
    const rejected = await shown('VDEKEY1');
    expect(textsOf(rejected).flatMap(englishWords), JSON.stringify(rejected)).toEqual([]);
    await submit(h.sandbox.apiKey, 'VDEKEY2');
    const accepted = await shown('VDEKEY2');
    expect(textsOf(accepted).flatMap(englishWords), JSON.stringify(accepted)).toEqual([]);
  });
});
