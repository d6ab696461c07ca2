import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APPROVAL_IDS } from '../../src/features/approvals/ids.js';
import { CHANGESET_IDS } from '../../src/features/changesets/ids.js';
import { buttonPress, messageText, stateInput, viewSubmission } from '../helpers/payloads.js';
import { testRedisUrl } from '../helpers/provided-context.js';
import { startProcess } from './processes.js';
import { APPROVERS, startWorld, type World } from './world.js';

const ZONE = 'example.com';
const STEPS = 10;

/**
 * A worker killed (SIGKILL) in the middle of applying a change set: another worker takes the job
 * over (BullMQ's stalled-job check) and finishes it; every record is there once, none written twice
 * (contract §3 "Change sets": "resumes after a worker dies").
 */
describe('a change set survives its worker being killed mid-way', () => {
  let world: World;
  beforeAll(async () => {
    world = await startWorld(
      { REDIS_URL: testRedisUrl(), REDIS_ALLOW_EPHEMERAL: '1' },
      { webs: 1, workers: 1 },
    );
  }, 120_000);
  afterAll(() => world?.stop());

  const killed = () =>
    (world.sandbox.state.domains.get(ZONE)?.records ?? []).filter((r) => /^k\d+\./.test(r.name));

  it('finishes on another worker with every record once', async () => {
    const driver = world.driver(0);
    const user = 'U0KILLREQ';
    world.slack.users.set(user, { id: user });
    const opened = () =>
      world.slack
        .succeeded('views.open')
        .filter((call) => messageText(call).includes(CHANGESET_IDS.importModal));
    await driver.command('/dns', `zone import ${ZONE}`, { user, channel: 'CKILL' });
    await world.slack.waitFor(() => opened().length > 0, 15_000);
    const view = opened().at(-1)?.args.view as { private_metadata?: string } | undefined;
    const source = Array.from({ length: STEPS }, (_, i) => `k${i} 300 IN TXT "record ${i}"`).join('\n');
    await driver.interaction(
      viewSubmission(
        CHANGESET_IDS.importModal,
        {
          ...stateInput(CHANGESET_IDS.importText, { value: source }),
          ...stateInput(CHANGESET_IDS.importMode, { selected_option: { value: 'merge' } }),
        },
        { user, privateMetadata: view?.private_metadata ?? '' },
      ),
    );
    const isRequest = (call: { args: Record<string, unknown> }) =>
      call.args.channel === 'CKILL' && messageText(call as never).includes(APPROVAL_IDS.withdraw);
    await world.slack.waitFor(() => world.slack.succeeded('chat.postMessage').some(isRequest), 20_000);
    const posted = world.slack.succeeded('chat.postMessage').find(isRequest);
    const id = /"value":"(apr_[0-9a-f]+)"/.exec(JSON.stringify(posted?.args.blocks))?.[1] ?? '';
    // Each write takes a while: the worker is killed with some records written and some not.
    world.sandbox.faults.inject('dns.recordCreate', { delayMs: 1_000 });
    await driver.interaction(
      buttonPress(APPROVAL_IDS.approve, id, { user: APPROVERS[0] ?? '', channel: 'CKILL' }),
    );
    await expect.poll(() => killed().length, { timeout: 60_000, interval: 50 }).toBeGreaterThanOrEqual(3);
    world.workers[0]?.child.kill('SIGKILL');
    world.workers.push(await startProcess('worker', world.env));
    world.sandbox.faults.clear();
    await world.slack.waitFor(
      () =>
        world.slack
          .succeeded('chat.postMessage')
          .some((call) => call.args.channel === 'CKILL' && messageText(call).includes(`${STEPS} steps done`)),
      120_000,
    );
    const names = killed()
      .map((r) => r.name)
      .sort();
    expect(names).toEqual(Array.from({ length: STEPS }, (_, i) => `k${i}.${ZONE}.`).sort());
  }, 240_000);
});
