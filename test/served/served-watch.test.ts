import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SandboxCertificate } from '../../src/sandbox/state.js';
import type { Harness } from '../helpers/app-harness.js';
import { assertWithinBlockKitLimits } from '../helpers/block-kit.js';
import { messageText } from '../helpers/payloads.js';
import { command, DAY, looksDone, posted, startWatching, sweepLater, WS } from '../watches/support.js';
import { makeCertificate } from './certificates.js';
import { SERVED_RANGE, type ServedWorld, startServedWorld } from './world.js';

const CHANNEL = 'C0001';
const now = Date.now();
/** The certificate the registrar issued two days ago, and what servers may still hold instead. */
const NEW = makeCertificate({
  names: ['www.served.test', 'api.served.test'],
  notBefore: new Date(now - 2 * DAY),
  notAfter: new Date(now + 45 * DAY),
});
const OLD = makeCertificate({
  names: ['www.served.test', 'api.served.test'],
  notBefore: new Date(now - 300 * DAY),
  notAfter: new Date(now + 65 * DAY),
});
const SOONER = makeCertificate({
  names: ['www.served.test', 'api.served.test'],
  notBefore: new Date(now - 40 * DAY),
  notAfter: new Date(now + 6 * DAY),
});

/**
 * Issue #46, served certificates (contract §3 "What is served and what is issued"): a watched
 * certificate's names are asked over TLS with SNI, on loopback servers whose certificates the test
 * swaps between looks; a stale one is alerted once per name, address and port; after an issuance the
 * order's thread hears when every name serves it, or which do not a day later.
 */
describe('served certificates of a watched certificate (app, sandbox, node:tls on loopback)', () => {
  let h: Harness;
  let clock: { t: number };
  let world: ServedWorld;

  const addCertificate = (id: string, fields: Partial<SandboxCertificate>) => {
    const seed = h.sandbox.state.certificates.get('cert-issued-recent');
    if (seed === undefined) throw new Error('seed changed');
    h.sandbox.state.certificates.set(id, {
      ...seed,
      id,
      common_name: 'www.served.test',
      dns_names: ['www.served.test', 'api.served.test'],
      validity_days: 47,
      orderedAt: clock.t - 2 * DAY,
      pem: NEW.pem,
      ...fields,
    });
  };

  beforeAll(async () => {
    world = await startServedWorld({
      names: {
        'www.served.test': ['127.56.2.1'],
        'api.served.test': ['127.56.2.2'],
        'late.served.test': ['127.56.2.3'],
      },
      serving: { '127.56.2.1': OLD, '127.56.2.2': NEW, '127.56.2.3': OLD },
    });
    ({ h, clock } = await startWatching({
      env: {
        DNS_RESOLVERS: world.resolver,
        LIVE_CHECK_ALLOW: `127.54.0.0/16,${SERVED_RANGE}`,
        TLS_CHECK_PORTS: String(world.port),
      },
    }));
    addCertificate('cert-served', {});
  }, 60_000);
  afterAll(async () => {
    await h?.stop();
    await world?.stop();
  });

  const stale = () => posted(h, CHANNEL, 'still serves an older certificate');
  const sooner = () => posted(h, CHANNEL, 'serves a certificate that ends');

  it('a name still serving an older certificate two days after the new one was issued is alerted, once', async () => {
    const { last } = await command(h, '/tls', 'watch add cert-served');
    expect(last).toContain('Now watching');
    await looksDone(h);
    await h.slack.waitFor(() => stale().length > 0, 20_000);
    const alert = stale()[0];
    if (alert === undefined) throw new Error('no alert');
    expect(messageText(alert)).toContain('www.served.test');
    expect(messageText(alert)).toContain(`127.56.2.1:${world.port}`);
    expect(messageText(alert)).not.toContain('api.served.test*');
    assertWithinBlockKitLimits(alert.args, 'message');
    await sweepLater(h, clock);
    await sweepLater(h, clock);
    expect(stale()).toHaveLength(1);
    const state = await h.running.services.watchStore.state(WS, 'certificate', 'cert-served');
    expect(state.served).toMatchObject({ current: 1, stale: 1, unchecked: [] });
    // The list says it by name, as a person asks it.
    const list = await command(h, '/tls', 'watch list');
    expect(list.last).toContain(
      'served: 1 of 2 names serves it; `www.served.test` still serves the older one',
    );
  });

  it('once the server has the new certificate nothing more is said; one that ends sooner is alerted', async () => {
    world.serve('127.56.2.1', NEW);
    await sweepLater(h, clock);
    expect(
      (await h.running.services.watchStore.state(WS, 'certificate', 'cert-served')).served,
    ).toMatchObject({
      current: 2,
      stale: 0,
    });
    expect((await command(h, '/tls', 'watch list')).last).toContain('served: both names serve it');
    world.serve('127.56.2.2', SOONER);
    await sweepLater(h, clock);
    await h.slack.waitFor(() => sooner().length > 0, 20_000);
    expect(messageText(sooner()[0] ?? { method: '', args: {}, at: 0 })).toContain('api.served.test');
    await sweepLater(h, clock);
    expect(sooner()).toHaveLength(1);
    expect(stale()).toHaveLength(1);
    world.serve('127.56.2.2', NEW);
  });

  const inThread = (ts: string, needle: string) =>
    h.slack
      .callsTo('chat.postMessage')
      .filter((call) => call.args.thread_ts === ts && messageText(call).includes(needle));

  it('after an issuance the order thread says when every name serves the new certificate', async () => {
    addCertificate('cert-reissued', { status: 'pending', issueAt: clock.t, order_state: 'PENDING' });
    world.serve('127.56.2.1', OLD);
    const thread = '1790000000.000100';
    const before = world.connections('127.56.2.1');
    await h.running.services.follow(WS, 'certificate', 'cert-reissued', {
      channel: 'CORDER',
      threadTs: thread,
    });
    await h.slack.waitFor(() => world.connections('127.56.2.1') > before, 30_000);
    expect(inThread(thread, 'now serves the new certificate')).toHaveLength(0);
    world.serve('127.56.2.1', NEW);
    await h.slack.waitFor(() => inThread(thread, 'now serves the new certificate').length > 0, 45_000);
    const said = inThread(thread, 'now serves the new certificate')[0];
    expect(messageText(said ?? { method: '', args: {}, at: 0 })).toContain('`cert-reissued`');
    assertWithinBlockKitLimits(said?.args ?? {}, 'message');
  });

  it('a day after the issuance the thread names the names that still do not serve it', async () => {
    addCertificate('cert-late', {
      status: 'pending',
      issueAt: clock.t,
      order_state: 'PENDING',
      common_name: 'late.served.test',
      dns_names: ['late.served.test', 'gone.served.test'],
    });
    const thread = '1790000000.000200';
    const before = world.connections('127.56.2.3');
    await h.running.services.follow(WS, 'certificate', 'cert-late', { channel: 'CORDER', threadTs: thread });
    await h.slack.waitFor(() => world.connections('127.56.2.3') > before, 30_000);
    clock.t += 25 * 3_600_000;
    await h.slack.waitFor(() => inThread(thread, 'do not serve it yet').length > 0, 45_000);
    const said = messageText(inThread(thread, 'do not serve it yet')[0] ?? { method: '', args: {}, at: 0 });
    expect(said).toContain('late.served.test');
    expect(said).toContain('serves another certificate');
    // A name without an address is "could not check", never counted as serving it.
    expect(said).toMatch(/gone\.served\.test.*could not check/);
  });
});
