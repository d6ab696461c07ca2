import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { loadConfig } from '../../src/config.js';
import { type Running, type RunOptions, runRegdesk } from '../../src/main.js';
import { createSandbox, type Sandbox, type SandboxOptions } from '../../src/sandbox/index.js';
import { createLogger, type Logger } from '../../src/shared/logger.js';
import { FakeSlack } from './fake-slack.js';
import { testRedisUrl } from './provided-context.js';
import { SlackDriver } from './slack-driver.js';

export const SIGNING_SECRET = 'test-signing-secret-0123456789abcdef';
export const BOT_TOKEN = 'xoxb-test-bot-token-canary-7f3a';

export interface Harness {
  running: Running;
  sandbox: Sandbox;
  slack: FakeSlack;
  driver: SlackDriver;
  url: string;
  keyPrefix: string;
  logs: string[];
  logger: Logger;
  /** The environment the app was started with (to start more processes against the same world). */
  env: Record<string, string>;
  stop(): Promise<void>;
}

/** Captures every log line so tests can assert what was (and was not) logged. */
export function memoryLogger(level = 'debug'): { logger: Logger; logs: string[] } {
  const logs: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      logs.push(chunk.toString('utf8'));
      callback();
    },
  });
  return { logger: createLogger({ level, destination }), logs };
}

/**
 * The whole app in-process, over real HTTP: signed requests in, the fake Slack server as
 * SLACK_API_URL and every response_url, real Redis under a key prefix of its own.
 */
export async function startHarness(
  options: {
    /** More environment; a function is given the fake Slack (its URLs are known once it listens). */
    env?: Record<string, string> | ((slack: FakeSlack) => Record<string, string>);
    features?: RunOptions['features'];
    workers?: RunOptions['workers'];
    sandbox?: SandboxOptions;
    now?: () => number;
    role?: RunOptions['role'];
    /** Shape the fake Slack before the app starts (conversations, users, failures at start-up). */
    prepareSlack?: (slack: FakeSlack) => void;
  } = {},
): Promise<Harness> {
  const slack = await new FakeSlack().start();
  options.prepareSlack?.(slack);
  const sandbox = await createSandbox({ delays: { assistantAnswerMs: 20 }, ...options.sandbox });
  const keyPrefix = `t${randomBytes(5).toString('hex')}`;
  const env = {
    // Claim files of this world only (src/shared/durable-claim.ts).
    REGDESK_DATA_DIR: join(tmpdir(), `regdesk-test-${keyPrefix}`),
    PORT: '0',
    // A `regdesk worker` started from this env serves /healthz and /metrics on a port of its own.
    WORKER_PORT: '0',
    SLACK_SIGNING_SECRET: SIGNING_SECRET,
    SLACK_BOT_TOKEN: BOT_TOKEN,
    SLACK_API_URL: slack.apiUrl,
    REDIS_URL: testRedisUrl(),
    REDIS_ALLOW_EPHEMERAL: '1',
    REDIS_KEY_PREFIX: keyPrefix,
    REGFISH_SANDBOX: '1',
    REGFISH_API_URL: sandbox.url,
    REGFISH_SANDBOX_API_KEY: sandbox.apiKey,
    // The world's DNS is outside the tests: a closed loopback port refuses at once (ICMP), so live
    // checks say "could not check" without waiting. Tests of the checks pass the lab's resolver
    // (test/helpers/dns-lab/).
    DNS_RESOLVERS: '127.0.0.1:9',
    // Nor is IANA's RDAP bootstrap asked: a name the registrar does not hold is "could not check"
    // through RDAP at once. Tests of RDAP pass their own (test/watches/rdap*.test.ts).
    RDAP_BOOTSTRAP_URL: 'http://127.0.0.1:9/rdap/dns.json',
    ...(typeof options.env === 'function' ? options.env(slack) : options.env),
  };
  const { logger, logs } = memoryLogger();
  const running = await runRegdesk({
    role: options.role ?? 'start',
    config: loadConfig(env),
    logger,
    env,
    say: () => {},
    ...(options.features === undefined ? {} : { features: options.features }),
    ...(options.workers === undefined ? {} : { workers: options.workers }),
    ...(options.now === undefined ? {} : { now: options.now }),
  });
  const url = running.http?.url ?? '';
  return {
    running,
    sandbox,
    slack,
    driver: new SlackDriver(url, SIGNING_SECRET, slack.url),
    url,
    keyPrefix,
    logs,
    logger,
    env,
    stop: async () => {
      await running.stop();
      await slack.stop();
      await sandbox.close();
    },
  };
}
