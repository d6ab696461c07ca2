import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DNS_IDS } from '../../src/features/dns/ids.js';
import { SHARE_ACTION } from '../../src/slack/share.js';
import { type Harness, startHarness } from '../helpers/app-harness.js';
import { assertWithinBlockKitLimits } from '../helpers/block-kit.js';
import { buttonPress } from '../helpers/payloads.js';

/** Sends a command and returns every message posted to its response_url, once `done` holds. */
async function run(
  h: Harness,
  command: string,
  text: string,
  done: (bodies: string[]) => boolean = (b) => b.length > 0,
) {
  const id = `r${Math.random().toString(36).slice(2)}`;
  const ack = await h.driver.command(command, text, { responseUrl: h.slack.responseUrl(id) });
  const bodies = () => h.slack.callsTo(`response_url:${id}`).map((c) => JSON.stringify(c.args));
  await h.slack.waitFor(() => done(bodies()), 15_000);
  for (const call of h.slack.callsTo(`response_url:${id}`)) assertWithinBlockKitLimits(call.args, 'message');
  return { ack, bodies: bodies(), last: bodies().at(-1) ?? '', id };
}

describe('look-ups from Slack against the sandbox', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness({
      env: { REGFISH_LIMITS: '{"availability":{"max":4,"windowMs":1000}}' },
      sandbox: { limits: { availability: { max: 4, windowMs: 1000 } } },
    });
    h.sandbox.state.addRecords('example.com', 300);
    const hostile = h.sandbox.state.domains.get('regdesk-demo.de');
    if (hostile !== undefined) hostile.owner = '<!channel> & <@U999|boss>';
  });
  afterAll(async () => {
    await h.stop();
  });

  it('/domain check validates locally, checks within the shared limit (no 429), and summarises', async () => {
    const names =
      'fresh-one.com, example.com co.uk\nwww.example.com müller-neu.de FRESH-ONE.com unreachable-x.com a1.com a2.com a3.com a4.com a5.com';
    const { ack, bodies, last } = await run(h, '/domain', `check ${names}`, (b) =>
      b.some((x) => x.includes('could not be checked')),
    );
    const first = JSON.stringify(ack.json());
    expect(first).toContain('Checking');
    expect(first).toContain('public suffix');
    expect(bodies.length).toBeLessThanOrEqual(4);
    expect(last).toContain('is available');
    expect(last).toContain('is taken');
    expect(last).toContain('could not check');
    expect(last).toContain('müller-neu.de');
    expect(last).toMatch(/7 available, 1 taken, 2 invalid, 1 could not be checked/);
    const checks = h.sandbox.calls.filter((c) => c.operation === 'domains.availability');
    expect(checks).toHaveLength(9); // unique valid names only; the duplicate and invalid ones cost nothing
    expect(checks.some((c) => c.status === 429)).toBe(false);
    expect(checks.find((c) => c.path.includes('unreachable'))?.status).toBe(502);
  });

  it('/domain check judges new top-level domains and private suffixes by the current list', async () => {
    const { last } = await run(
      h,
      '/domain',
      'check example.hotel example.web github.io myproject.github.io',
      (b) => b.some((x) => /\d+ available, \d+ taken/.test(x)),
    );
    expect(last).toContain('example.hotel');
    expect(last).toContain('example.web');
    expect(last).toMatch(/2 available, 1 taken, 1 invalid/);
    expect(last).toContain('did you mean github.io?');
  });

  it('look-ups with the workspace key answer members in good standing, not guests, deactivated people or outsiders', async () => {
    h.slack.users.set('UGONE', { id: 'UGONE', deleted: true });
    h.slack.users.set('UOUTSIDE', { id: 'UOUTSIDE', team_id: 'TOTHER' });
    h.slack.users.set('UGUEST', { id: 'UGUEST', is_restricted: true });
    const reads = () => h.sandbox.calls.filter((c) => c.operation === 'dns.zone').length;
    const before = reads();
    for (const user of ['UGONE', 'UOUTSIDE', 'UGUEST']) {
      const id = `who-${user}`;
      await h.driver.command('/dns', 'zone example.com', { user, responseUrl: h.slack.responseUrl(id) });
      await h.slack.waitFor((calls) => calls.some((c) => c.method === `response_url:${id}`));
      expect(JSON.stringify(h.slack.callsTo(`response_url:${id}`)[0]?.args)).toContain(':lock:');
    }
    expect(reads()).toBe(before);
    const member = await run(h, '/dns', 'zone example.com');
    expect(member.last).not.toContain(':lock:');
    expect(reads()).toBe(before + 1);
  });

  it('/domain check with no names gives usage', async () => {
    const res = await h.driver.command('/domain', 'check');
    expect(JSON.stringify(res.json())).toContain('Usage');
  });

  it('/domain info shows the card with warnings, escaped, with a Share button that reposts it', async () => {
    const soon = await run(h, '/domain', 'info expiring-soon.net');
    // Dates render in each reader's time zone and relative phrases are Slack's, never frozen (R32).
    expect(soon.last).toMatch(/:warning: Expires <!date\^\d+\^\{ago\}\|/);
    expect(soon.last).not.toMatch(/UTC\b(?!>)|in \d+ day/);
    expect(soon.last).toContain('Auto-renew is *off*');
    const hostile = await run(h, '/domain', 'info regdesk-demo.de');
    expect(hostile.last).toContain('&lt;!channel&gt; &amp; &lt;@U999|boss&gt;');
    expect(hostile.last).not.toContain('<!channel>');

    const share = /"action_id":"share.channel","value":"([0-9a-f]+)"/.exec(soon.last)?.[1] ?? '';
    await h.driver.interaction(
      buttonPress(SHARE_ACTION, share, { user: 'U0001', responseUrl: h.slack.responseUrl('share') }),
    );
    // Through the response_url, so it works where the bot is not a member (a DM, a private channel).
    await h.slack.waitFor(() => h.slack.callsTo('response_url:share').length === 2);
    const [shared, removed] = h.slack.callsTo('response_url:share');
    expect(shared?.args).toMatchObject({ response_type: 'in_channel', replace_original: false });
    expect(JSON.stringify(shared?.args)).toContain('Shared by <@U0001>');
    expect(JSON.stringify(shared?.args)).toContain('expiring-soon.net');
    expect(removed?.args).toMatchObject({ delete_original: true });
  });

  it('explains upstream failures in words a user can act on', async () => {
    expect((await run(h, '/domain', 'info not-mine.com')).last).toContain(
      'Not found in this registrar account',
    );
    h.sandbox.faults.inject('domains.get', { status: 500, times: 1 });
    expect((await run(h, '/domain', 'info example.com')).last).toContain('unexpected error');
    h.sandbox.faults.inject('dns.zone', { malformed: true, times: 1 });
    expect((await run(h, '/dns', 'zone example.com')).last).toContain('cannot read');
    await h.running.services.vault.put({ teamId: 'T0001' }, 'registrar-key', 'rf_revoked_key', 'test');
    expect((await run(h, '/dns', 'dnssec example.com')).last).toContain('/domain key');
    await h.running.services.vault.delete({ teamId: 'T0001' }, 'registrar-key');
  });

  it('acks within 500 ms while the registrar hangs', async () => {
    h.sandbox.faults.inject('domains.get', { delayMs: 3_000, times: 1 });
    const res = await h.driver.command('/domain', 'info example.com');
    expect(res.status).toBe(200);
    expect(res.elapsedMs).toBeLessThan(500);
  });

  it('/dns zone and /dns records page a 300-record zone within Block Kit limits', async () => {
    expect((await run(h, '/dns', 'zone example.com')).last).toContain('TXT: 30');
    const page = await run(h, '/dns', 'records example.com');
    expect(page.last).toContain('Page 1 of 8');
    const next = /"action_id":"dns.records.next","value":"((?:[^"\\]|\\.)*)"/.exec(page.last)?.[1] ?? '';
    await h.driver.interaction(
      buttonPress(DNS_IDS.recordsNext, JSON.parse(`"${next}"`), {
        responseUrl: h.slack.responseUrl('page2'),
      }),
    );
    await h.slack.waitFor((calls) => calls.some((c) => c.method === 'response_url:page2'));
    const second = h.slack.callsTo('response_url:page2')[0];
    assertWithinBlockKitLimits(second?.args, 'message');
    expect(JSON.stringify(second?.args)).toContain('Page 2 of 8');
    expect((await run(h, '/dns', 'records example.com MX')).last).toContain('1 MX record');
  });

  it('/dns dnssec, /tls show and /tls org show render their cards', async () => {
    expect((await run(h, '/dns', 'dnssec regdesk-demo.de')).last).toContain('active');
    const pending = await run(h, '/tls', 'show cert-pending');
    expect(pending.last).toContain('validation_pending');
    expect(pending.last).toContain('Waiting for domain control validation');
    expect((await run(h, '/tls', 'org show org-acme')).last).toContain('Erika Mustermann');
  });
});
