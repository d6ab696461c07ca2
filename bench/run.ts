/**
 * `npm run bench`: assistant throughput against the registrar's limits. Questions from many channels
 * are queued at once; the registrar sandbox enforces a per-key and per-account window. The number
 * that matters: answers per window as a share of the limit (target ≥ 95 %) with zero 429 and 503.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadConfig } from '../src/config.js';
import { runRegdesk } from '../src/main.js';
import { createSandbox } from '../src/sandbox/index.js';
import { ensureLocalRedis } from '../src/shared/local-redis.js';
import { createLogger } from '../src/shared/logger.js';

const WINDOW_MS = 10_000;
const LIMIT = 20;
const WINDOWS = 3;
const QUESTIONS = LIMIT * WINDOWS + 20; // more than can be answered, so the limit is what binds

async function fakeSlack(): Promise<{ url: string; close: () => void }> {
  let ts = 1_700_000_000;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          ok: true,
          ts: `${ts++}.000100`,
          channel: 'C1',
          user: { id: 'U1', locale: 'en-US' },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/`,
    close: () => server.close(),
  };
}

async function main(): Promise<void> {
  const redis = await ensureLocalRedis(process.env, (line) => console.log(line));
  const window = { max: LIMIT, windowMs: WINDOW_MS };
  const sandbox = await createSandbox({
    delays: { assistantAnswerMs: 30 },
    limits: { assistantKey: window, assistantAccount: window },
  });
  const slack = await fakeSlack();
  const env = {
    PORT: '0',
    SLACK_SIGNING_SECRET: 'bench',
    SLACK_BOT_TOKEN: 'xoxb-bench',
    SLACK_API_URL: slack.url,
    REDIS_URL: redis.url,
    REDIS_KEY_PREFIX: `bench${Date.now()}`,
    REGFISH_SANDBOX: '1',
    REGFISH_API_URL: sandbox.url,
    REGFISH_SANDBOX_API_KEY: sandbox.apiKey,
    REGFISH_LIMITS: JSON.stringify({ assistantKey: window, assistantAccount: window }),
    LOG_LEVEL: 'error',
  };
  const running = await runRegdesk({
    role: 'start',
    config: loadConfig(env),
    logger: createLogger({ level: 'error' }),
    env,
    say: () => {},
  });
  const client = running.services.slackClients;
  const started = Date.now();
  for (let i = 0; i < QUESTIONS; i++) {
    await running.services.assistant.ask(
      {
        workspace: { teamId: 'TBENCH' },
        channel: `CB${i}`,
        threadTs: `1.${i}`,
        user: 'U1',
        question: `How do I enable DNSSEC (${i})?`,
        dedupeId: `bench-${i}`,
      },
      await client.forWorkspace({ teamId: 'TBENCH' }),
      undefined,
    );
  }
  await new Promise((resolve) => setTimeout(resolve, WINDOWS * WINDOW_MS));
  const calls = sandbox.calls.filter((c) => c.operation === 'assistant.search');
  const answered = calls.filter((c) => c.status === 200).length;
  const refused = calls.filter((c) => c.status === 429 || c.status === 503).length;
  const elapsed = Date.now() - started;
  const limitInTime = LIMIT * Math.ceil(elapsed / WINDOW_MS);
  const line = `assistant: ${answered} answered in ${(elapsed / 1000).toFixed(1)} s against a limit of ${LIMIT} per ${WINDOW_MS / 1000} s (${((100 * answered) / (LIMIT * WINDOWS)).toFixed(1)} % of ${LIMIT * WINDOWS} over ${WINDOWS} windows; at most ${limitInTime} possible in the elapsed time), ${refused} refused (429/503)`;
  console.log(line);
  await running.stop();
  await sandbox.close();
  slack.close();
  redis.child?.kill('SIGTERM');
  process.exit(refused === 0 ? 0 : 1);
}

await main();
