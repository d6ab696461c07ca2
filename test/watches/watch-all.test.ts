import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Harness } from '../helpers/app-harness.js';
import { command, looksDone, startWatching, WS } from './support.js';

const ADMIN = 'UADMIN';
const watched = async (h: Harness) =>
  new Set((await h.running.services.watches.list(WS)).map((entry) => `${entry.item.kind}:${entry.item.id}`));

describe('/domain watch all: every zone and certificate the registrar lists, new ones picked up', () => {
  let h: Harness;
  let clock: { t: number };

  beforeAll(async () => {
    ({ h, clock } = await startWatching());
    h.slack.users.set(ADMIN, { id: ADMIN, is_admin: true });
  });
  afterAll(async () => {
    await h?.stop();
  });

  it('is for admins only; anyone else is told why and nothing is added', async () => {
    const { last } = await command(h, '/domain', 'watch all', { user: 'U0001' });
    expect(last).toContain('Only admins');
    expect((await watched(h)).size).toBe(0);
  });

  it('says so, and adds nothing, where the registrar cannot list zones', async () => {
    h.sandbox.faults.inject('dns.zones', { status: 404, times: 1 });
    const { last } = await command(h, '/domain', 'watch all', { user: ADMIN });
    expect(last).toContain('not available with this registrar');
    expect((await watched(h)).size).toBe(0);
  });

  it('watches every listed zone and live certificate, names those Regdesk did not order, and the digest does too', async () => {
    const { last } = await command(h, '/domain', 'watch all', { user: ADMIN, channel: 'CALL' });
    expect(last).toContain('Now watching everything');
    const account = h.sandbox.account();
    const now = await watched(h);
    for (const domain of account.domains) expect(now.has(`domain:${domain.name}`)).toBe(true);
    const live = account.certificates.filter((c) => c.status === 'pending' || c.status === 'issued');
    expect(live.length).toBeGreaterThan(0);
    for (const certificate of live) expect(now.has(`certificate:${certificate.id}`)).toBe(true);
    for (const certificate of account.certificates.filter((c) => !live.includes(c)))
      expect(now.has(`certificate:${certificate.id}`)).toBe(false);
    // None of the seeded certificates was ordered through Regdesk.
    expect(last).toContain('Not ordered through Regdesk');
    expect(last).toContain(live[0]?.id ?? '-');
    await looksDone(h);

    await command(h, '/domain', 'watch digest', { user: ADMIN, channel: 'CALL' });
    const digests = h.slack
      .callsTo('chat.postMessage')
      .filter(
        (call) =>
          call.args.channel === 'CALL' &&
          JSON.stringify(call.args).includes('Certificates not ordered through Regdesk'),
      );
    expect(digests).toHaveLength(1);
    expect(JSON.stringify(digests[0]?.args)).toContain(live[0]?.id ?? '-');
  });

  it('picks up a zone added later, at the sweep after the hour, without anyone asking', async () => {
    h.sandbox.state.addDomain('added-later.de', clock.t);
    const before = await watched(h);
    expect(before.has('domain:added-later.de')).toBe(false);
    clock.t += 2 * 3_600_000;
    await h.running.services.watchQueue.add('sweep', { type: 'sweep' }, { removeOnComplete: true });
    const deadline = Date.now() + 30_000;
    while (!(await watched(h)).has('domain:added-later.de')) {
      if (Date.now() > deadline) throw new Error('the new zone was not picked up');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    // Where the first listing asked alerts to go.
    const item = await h.running.services.watchStore.item(WS, 'domain', 'added-later.de');
    expect(item).toMatchObject({ channel: 'CALL', addedBy: ADMIN });
  });
});
