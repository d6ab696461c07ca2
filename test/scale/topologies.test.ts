import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testRedisUrl } from '../helpers/provided-context.js';
import {
  type SentinelTopology,
  startRedisCluster,
  startRedisSentinel,
  type Topology,
} from '../helpers/redis-topology.js';
import { startProcess, stopProcess } from './processes.js';
import {
  approveAndRevoke,
  askQuestions,
  domainCheck,
  followerAcrossKill,
  measure,
  metricsEverywhere,
} from './scenario.js';
import { startWorld, type World } from './world.js';

/**
 * The same key paths on each topology Regdesk supports (docs/requirements.md C1, C2), with two
 * `regdesk web` and two `regdesk worker` processes. One file, so the topologies run one after another
 * instead of competing for the machine's cores.
 */
function scenario(
  name: string,
  start: () => Promise<Topology>,
  options: { duringQuestions?: (topology: Topology) => Promise<void>; measure?: boolean } = {},
) {
  describe(`two web and two worker processes on ${name}`, () => {
    let topology: Topology;
    let world: World;
    beforeAll(async () => {
      topology = await start();
      world = await startWorld(topology.env, { webs: 2, workers: 2, roomyQuotas: options.measure === true });
    }, 90_000);
    afterAll(async () => {
      await world?.stop();
      await topology?.stop();
    });

    it('answers a /domain check', async () => {
      await domainCheck(world, 0, 'c1');
    });

    it('executes a revoke approved through the other web process once', async () => {
      await approveAndRevoke(world, 'CSCALE1');
    });

    it(`answers every question once, never two in flight${options.duringQuestions ? ', across a master fail-over' : ''}`, async () => {
      const during = options.duringQuestions;
      await askQuestions(
        world,
        ['UQ1', 'UQ2', 'UQ3', 'UQ4', 'UQ5', 'UQ6'],
        during === undefined ? undefined : () => during(topology),
      );
    }, 120_000);

    it.runIf(options.measure === true)(
      'measures throughput with one worker, then two',
      async () => {
        const second = world.workers.pop();
        if (second !== undefined) await stopProcess(second);
        const one = await measure(world, 'one', { checks: 10, questions: 10 });
        world.workers.push(await startProcess('worker', world.env));
        const two = await measure(world, 'two', { checks: 10, questions: 10 });
        // Figures for docs/scaling.md; no assertion on speed (the machine is shared).
        console.info(`[scale] ${name}: ${JSON.stringify([one, two])}`);
        expect([one.workers, two.workers]).toEqual([1, 2]);
      },
      120_000,
    );

    it('follows DNSSEC to the end across a worker killed with SIGKILL', async () => {
      await followerAcrossKill(world, 'CSCALE4');
    });

    it('reports queue depth on /metrics of every process, and job metrics on the workers', async () => {
      await metricsEverywhere(world);
    });

    it('logged no Redis error that would mean keys crossed slots or commands were lost', () => {
      for (const proc of [...world.webs, ...world.workers]) {
        expect(proc.output()).not.toMatch(/CROSSSLOT|MOVED|Unhandled|job failed/);
      }
    });
  });
}

scenario('one Redis', async () => ({
  env: { REDIS_URL: testRedisUrl(), REDIS_ALLOW_EPHEMERAL: '1' },
  stop: async () => {},
}));

scenario('a 3-master Redis Cluster', startRedisCluster, { measure: true });

scenario('Sentinel (master, replica, sentinel)', startRedisSentinel, {
  duringQuestions: async (topology) => {
    const sentinel = topology as SentinelTopology;
    const before = await sentinel.masterPort();
    expect(await sentinel.failover()).not.toBe(before);
  },
});
