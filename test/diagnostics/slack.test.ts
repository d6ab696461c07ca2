import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ORDER_IDS } from '../../src/features/tls/ids.js';
import type { Harness } from '../helpers/app-harness.js';
import { assertWithinBlockKitLimits } from '../helpers/block-kit.js';
import { type DnsLab, queryDns, startDnsLab } from '../helpers/dns-lab/index.js';
import { LAB_RANGE } from '../helpers/live-check.js';
import { orderModalValues } from '../helpers/order-form.js';
import { messageText, viewSubmission } from '../helpers/payloads.js';
import { command, looksDone, posted, startWatching, sweepLater } from '../watches/support.js';
import { addLabDomains } from './support.js';

describe('/dns check, the order modal’s CAA check and watches, from Slack, against real DNS servers', () => {
  let lab: DnsLab;
  let h: Harness;
  let clock: { t: number };

  beforeAll(async () => {
    lab = await startDnsLab();
    ({ h, clock } = await startWatching({
      env: {
        DNS_RESOLVERS: lab.resolver,
        LIVE_CHECK_ALLOW: LAB_RANGE,
        DNSSEC_TRUST_ANCHOR: lab.trustAnchor,
      },
    }));
    addLabDomains(h.sandbox, lab);
  }, 120_000);
  afterAll(async () => {
    await h?.stop();
    await lab?.stop();
  });

  it('answers a healthy domain with no findings and the facts it saw', async () => {
    const { last } = await command(h, '/dns', `check ${lab.zones.healthy}`);
    expect(last).toContain('no findings');
    expect(last).toContain('secure, validated by Regdesk from the root');
    expect(last).toContain(`ns1.${lab.zones.healthy}`);
    expect(last).not.toContain('Could not check');
  });

  it('ranks what is broken first and says exactly what to set and where', async () => {
    const { last } = await command(h, '/dns', `check ${lab.zones.badDs}`);
    expect(last).toContain('matches no key');
    expect(last).toContain(' DS ');
    expect(last).toContain('at the registrar, which sends it to the registry');
    // Resolvers refuse a bogus zone: its mail records could not be checked, and the card says so.
    expect(last).toContain('Could not check');
    expect(last).toContain('answered SERVFAIL');

    const caa = await command(h, '/dns', `check ${lab.zones.caa}`);
    expect(caa.last).toContain('letsencrypt.org');
    expect(caa.last).toMatch(/0 issue \\+"digicert\.com\\+"/);
  });

  it('refuses a person’s eleventh check within a minute at the ack, saying when to retry', async () => {
    const user = 'U0MANYCHECKS';
    for (let i = 0; i < 10; i++) {
      const { last } = await command(h, '/dns', `check ${lab.zones.healthy}`, { user });
      expect(last).toContain('no findings');
    }
    const before = h.sandbox.calls.length;
    const refused = await command(h, '/dns', `check ${lab.zones.healthy}`, { user, done: () => true });
    expect(refused.ack).toMatch(/You ran 10 DNS checks within a minute: try again in \d+ seconds\./);
    expect(h.sandbox.calls.length).toBe(before);
    // Someone else checks meanwhile: the limit is per person.
    const other = await command(h, '/dns', `check ${lab.zones.healthy}`, { user: 'U0OTHERCHECKER' });
    expect(other.last).toContain('no findings');
  });

  it('runs one check per person at a time: a second while the first runs is refused at the ack', async () => {
    const user = 'U0ONEATATIME';
    // The registrar takes its time with the first check's read: the check holds its person's lock.
    h.sandbox.faults.inject('domains.get', { delayMs: 5_000, times: 1 });
    const firstUrl = 'w-first-of-two';
    // The first check's lock is taken before its ack: once acked, it is running.
    await h.driver.command('/dns', `check ${lab.zones.healthy}`, {
      user,
      responseUrl: h.slack.responseUrl(firstUrl),
    });
    try {
      const second = await command(h, '/dns', `check ${lab.zones.healthy}`, { user, done: () => true });
      expect(second.ack).toContain('Your previous DNS check is still running');
      await h.slack.waitFor(() => h.slack.callsTo(`response_url:${firstUrl}`).length > 0, 15_000);
      expect(JSON.stringify(h.slack.callsTo(`response_url:${firstUrl}`)[0]?.args)).toContain('no findings');
    } finally {
      h.sandbox.faults.clear();
    }
    // Once it has answered, the person checks again.
    const third = await command(h, '/dns', `check ${lab.zones.healthy}`, { user });
    expect(third.last).toContain('no findings');
  });

  it('answers bad input with the usage, and nothing is looked up', async () => {
    const before = h.sandbox.calls.length;
    const { ack } = await command(h, '/dns', 'check not_a_domain!', { done: () => true });
    expect(ack).toContain('/dns check DOMAIN');
    expect(h.sandbox.calls.length).toBe(before);
  });

  it('the order modal refuses a name CAA forbids, on the field, and orders when submitted again', async () => {
    const orders = () => h.sandbox.calls.filter((call) => call.operation === 'tls.order').length;
    const before = orders();
    const submit = (viewId: string, cn: string) =>
      h.driver.interaction(
        viewSubmission(ORDER_IDS.modal, orderModalValues(cn), {
          privateMetadata: '{"channel":"C0001"}',
          viewId,
        }),
      );
    const refused = await submit('VCAA1', `www.${lab.zones.caa}`);
    expect(refused.json()).toMatchObject({
      response_action: 'errors',
      errors: { [ORDER_IDS.cn]: expect.stringContaining(`${lab.zones.caa}. CAA 0 issue "digicert.com"`) },
    });
    expect(orders()).toBe(before);

    // A name CAA allows goes straight through.
    const allowed = await submit('VCAA2', `www.${lab.zones.healthy}`);
    expect(allowed.text).not.toContain('errors');
    // The same names again from the same modal: the person has seen the warning; it orders.
    const again = await submit('VCAA1', `www.${lab.zones.caa}`);
    expect(again.text).not.toContain('errors');
    await h.slack.waitFor(() => orders() === before + 2);
  });

  it('the order modal refuses a name whose CAA allows the CA only by http-01 (RFC 8657), with the record to set', async () => {
    const orders = () => h.sandbox.calls.filter((call) => call.operation === 'tls.order').length;
    const before = orders();
    const zone = lab.zones.healthy;
    await lab.setRecord(zone, `http.${zone}`, 'CAA', '0 issue "digicert.com; validationmethods=http-01"');
    await lab.setRecord(zone, `dns.${zone}`, 'CAA', '0 issue "digicert.com ; validationmethods = dns-01"');
    await lab.setRecord(zone, `critical.${zone}`, 'CAA', '128 tbs "Unknown"');
    const submit = (viewId: string, cn: string) =>
      h.driver.interaction(
        viewSubmission(ORDER_IDS.modal, orderModalValues(cn), {
          privateMetadata: '{"channel":"C0001"}',
          viewId,
        }),
      );
    try {
      const refused = await submit('VCAAM1', `http.${zone}`);
      expect(refused.json()).toMatchObject({
        response_action: 'errors',
        errors: {
          [ORDER_IDS.cn]: expect.stringContaining(
            `only by http-01, not through DNS: set "http.${zone}. CAA 0 issue "digicert.com; validationmethods=http-01,dns-01""`,
          ),
        },
      });
      const critical = await submit('VCAAM2', `critical.${zone}`);
      expect(critical.json()).toMatchObject({
        response_action: 'errors',
        errors: {
          [ORDER_IDS.cn]: expect.stringContaining(`remove "critical.${zone}. CAA 128 tbs "Unknown""`),
        },
      });
      expect(orders()).toBe(before);
      // dns-01 among the methods (whitespace around ";" and "=" is allowed): the order goes through.
      const allowed = await submit('VCAAM3', `dns.${zone}`);
      expect(allowed.text).not.toContain('errors');
      await h.slack.waitFor(() => orders() === before + 1);
    } finally {
      await lab.removeRecord(zone, `http.${zone}`, 'CAA');
      await lab.removeRecord(zone, `dns.${zone}`, 'CAA');
      await lab.removeRecord(zone, `critical.${zone}`, 'CAA');
    }
  });

  it('a watched domain raises its new DNS findings once, in the channel, and not again', async () => {
    await command(h, '/domain', `watch add ${lab.zones.spf}`, { channel: 'CWATCHDNS' });
    await looksDone(h);
    const first = posted(h, 'CWATCHDNS', 'SPF records');
    expect(first).toHaveLength(1);
    assertWithinBlockKitLimits(first[0]?.args, 'message');
    expect(messageText(first[0] ?? { method: '', args: {}, at: 0 })).toContain(`/dns check ${lab.zones.spf}`);

    await sweepLater(h, clock);
    expect(posted(h, 'CWATCHDNS', 'SPF records')).toHaveLength(1);

    // Fixed (one SPF record left): nothing more is said, and the finding is no longer held.
    await lab.setRecord(lab.zones.spf, '@', 'TXT', 'v=spf1 mx -all');
    // The resolver may hold the old set for its cache's two seconds: look once it serves the new one.
    for (let tries = 0; ; tries++) {
      const served = await queryDns(lab.resolver, lab.zones.spf, 'TXT', { dnssec: false });
      if (served.answers.length === 1) break;
      if (tries > 150) throw new Error('the resolver kept the old SPF records');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await sweepLater(h, clock);
    expect(posted(h, 'CWATCHDNS', 'SPF records')).toHaveLength(1);
    const state = await h.running.services.watchStore.state({ teamId: 'T0001' }, 'domain', lab.zones.spf);
    expect(state.dnsFindings).toEqual([]);
  });
});
