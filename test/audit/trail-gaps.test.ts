import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APPROVAL_IDS } from '../../src/features/approvals/ids.js';
import { AuditLog } from '../../src/features/audit/service.js';
import { createRedis, KeySpace } from '../../src/shared/redis.js';
import { ask, press, WS, waitForDm } from '../approvals/support.js';
import { type Harness, startHarness } from '../helpers/app-harness.js';
import { buttonPress } from '../helpers/payloads.js';
import { testRedisUrl } from '../helpers/provided-context.js';

/** docs/requirements.md R12: what the trail must hold, and what must not push it out. */
describe('audit trail gaps closed', () => {
  const redis = createRedis(testRedisUrl(), 'worker');
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
    h.slack.users.set('UADMR', { id: 'UADMR', is_admin: true });
  });
  afterAll(async () => {
    await h.stop();
    redis.disconnect();
  });

  it('a flood of refusals does not evict requests, decisions and executions; both show in order', async () => {
    const audit = new AuditLog(redis, new KeySpace(`tgap${randomBytes(4).toString('hex')}`), {
      refusalsKept: 100,
    });
    await audit.append(WS, { action: 'execute', actor: 'regdesk', requestId: 'apr_1', target: 'x.example' });
    for (let i = 0; i < 600; i++)
      await audit.append(WS, { action: 'refuse', actor: 'USPAM', outcome: `no ${i}` });
    await audit.append(WS, { action: 'succeed', actor: 'regdesk', requestId: 'apr_1', target: 'x.example' });
    const all: string[] = [];
    for await (const entry of audit.all(WS)) all.push(entry.action);
    expect(all[0]).toBe('execute');
    expect(all.at(-1)).toBe('succeed');
    expect(all.filter((action) => action === 'refuse').length).toBeLessThanOrEqual(200);
    const latest = await audit.latest(WS, { limit: 5 });
    expect(latest[0]?.action).toBe('succeed');
    expect(latest.slice(1).every((entry) => entry.action === 'refuse')).toBe(true);
    expect((await audit.latest(WS, { target: 'x.example' })).map((e) => e.action)).toEqual([
      'succeed',
      'execute',
    ]);
  });

  it('records who revealed an auth code (never the code), and who was refused it', async () => {
    const channel = 'CGAPS';
    const { id } = await ask(h, '/domain', 'authcode regdesk-demo.de', { user: 'UREQG', channel });
    await press(h, APPROVAL_IDS.approve, id, 'UADMR', channel);
    await waitForDm(h, 'UREQG', 'auth code for regdesk-demo.de is ready');
    await h.driver.interaction(buttonPress(APPROVAL_IDS.reveal, id, { user: 'UADMR', channel: 'DUADMR' }));
    await h.driver.interaction(buttonPress(APPROVAL_IDS.reveal, id, { user: 'UREQG', channel: 'DUREQG' }));
    await h.slack.waitFor(() => h.slack.callsTo('views.open').length > 0);
    const trail = await h.running.services.audit.latest(WS, { limit: 10 });
    expect(trail.find((e) => e.action === 'reveal')).toMatchObject({ actor: 'UREQG', requestId: id });
    expect(trail.find((e) => e.action === 'refuse' && e.actor === 'UADMR')?.outcome).toContain('reveal');
    // Ids and hashes only: the entry carries no outcome or detail where a code could hide.
    const reveal = trail.find((e) => e.action === 'reveal');
    expect(reveal?.outcome).toBeUndefined();
    expect(reveal?.detail).toBeUndefined();
  });
});
