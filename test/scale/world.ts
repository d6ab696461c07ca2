import { randomBytes } from 'node:crypto';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { BOT_TOKEN, SIGNING_SECRET } from '../helpers/app-harness.js';
import { FakeSlack } from '../helpers/fake-slack.js';
import { SlackDriver } from '../helpers/slack-driver.js';
import { type Proc, RegistrarProxy, startProcess, stopProcess } from './processes.js';

/** One world shared by every process: the Slack stand-in, the sandbox behind the proxy, one Redis. */
export interface World {
  slack: FakeSlack;
  sandbox: Sandbox;
  proxy: RegistrarProxy;
  env: Record<string, string>;
  webs: Proc[];
  workers: Proc[];
  driver(web: number): SlackDriver;
  stop(): Promise<void>;
}

export const APPROVERS = ['UADM1', 'UADM2', 'UADM3'];
export const METRICS_TOKEN = 'scale-test-metrics-token-0123';

/** Registrar quotas wide enough that a throughput run measures Regdesk, not the quota. */
const ROOMY = { max: 10_000, windowMs: 60_000 };

export async function startWorld(
  redisEnv: Record<string, string>,
  counts: { webs: number; workers: number; roomyQuotas?: boolean },
): Promise<World> {
  const slack = await new FakeSlack().start();
  for (const id of APPROVERS) slack.users.set(id, { id, is_admin: true });
  const roomy = counts.roomyQuotas === true;
  const sandbox = await createSandbox({
    delays: { assistantAnswerMs: 300, dnssecSettleMs: 4_000 },
    ...(roomy ? { limits: { availability: ROOMY, assistantKey: ROOMY, assistantAccount: ROOMY } } : {}),
  });
  const proxy = new RegistrarProxy(sandbox.url);
  const registrarUrl = await proxy.start();
  const env = {
    PORT: '0',
    WORKER_PORT: '0',
    // SCALE_LOG_LEVEL=info SCALE_DUMP=1 prints every process's log after a run (debugging).
    LOG_LEVEL: process.env.SCALE_LOG_LEVEL ?? 'warn',
    SLACK_SIGNING_SECRET: SIGNING_SECRET,
    SLACK_BOT_TOKEN: BOT_TOKEN,
    SLACK_API_URL: slack.apiUrl,
    REDIS_KEY_PREFIX: `t${randomBytes(5).toString('hex')}`,
    REGFISH_SANDBOX: '1',
    REGFISH_API_URL: registrarUrl,
    REGFISH_SANDBOX_API_KEY: sandbox.apiKey,
    // Processes must agree on key fingerprints (quota windows, the assistant's account queue).
    VAULT_MASTER_KEY: randomBytes(32).toString('base64'),
    METRICS_TOKEN: METRICS_TOKEN,
    ...(roomy
      ? {
          REGFISH_LIMITS: JSON.stringify({
            availability: ROOMY,
            assistantKey: ROOMY,
            assistantAccount: ROOMY,
          }),
        }
      : {}),
    ...redisEnv,
  };
  const webs: Proc[] = [];
  const workers: Proc[] = [];
  const world: World = {
    slack,
    sandbox,
    proxy,
    env,
    webs,
    workers,
    driver: (web) => new SlackDriver(`http://127.0.0.1:${webs[web]?.port ?? 0}`, SIGNING_SECRET, slack.url),
    stop: async () => {
      await Promise.all([...webs, ...workers].map((proc) => stopProcess(proc)));
      if (process.env.SCALE_DUMP !== undefined) {
        for (const proc of [...webs, ...workers])
          console.info(`--- ${proc.role} ${proc.port}\n${proc.output()}`);
      }
      await proxy.stop();
      await sandbox.close();
      await slack.stop();
    },
  };
  try {
    // Started one by one: two processes starting at once on 2 cores only slow each other down.
    for (let i = 0; i < counts.webs; i++) webs.push(await startProcess('web', env));
    for (let i = 0; i < counts.workers; i++) workers.push(await startProcess('worker', env));
  } catch (error) {
    await world.stop();
    throw error;
  }
  return world;
}
