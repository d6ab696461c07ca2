#!/usr/bin/env node
import { userInfo } from 'node:os';
import { Command, InvalidArgumentError } from 'commander';
import { type Config, ConfigError, loadConfig } from './config.js';
import { type Role, type Running, runRegdesk } from './main.js';
import { runSandboxCli } from './sandbox/index.js';
import { createLogger } from './shared/logger.js';
import { createRedis, KeySpace, waitForReady } from './shared/redis.js';
import { parseWorkspace, vaultDelete, vaultList, vaultRotate, vaultSet } from './vault/cli.js';
import { masterKey } from './vault/crypto.js';
import { Vault } from './vault/store.js';

const program = new Command()
  .name('regdesk')
  .description('Slack chat-ops for domains, DNS and TLS certificates')
  .showHelpAfterError();

function loadConfigOrExit(): Config {
  try {
    return loadConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`regdesk: ${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
}

function runRole(role: Role): () => Promise<void> {
  return async () => {
    const config = loadConfigOrExit();
    const logger = createLogger({ level: config.logLevel });
    let running: Running;
    try {
      running = await runRegdesk({ role, config, logger, env: process.env });
    } catch (error) {
      process.stderr.write(`regdesk: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(1);
    }
    handleSignals(() => running.stop(), logger);
  };
}

/** RELIABILITY 20: stop taking work, close workers, queues and Redis, exit 0. A second signal forces exit. */
function handleSignals(stop: () => Promise<void>, logger: ReturnType<typeof createLogger>): void {
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) {
      logger.warn({ signal }, 'second signal: exiting now');
      process.exit(1);
    }
    stopping = true;
    logger.info({ signal }, 'shutting down');
    stop()
      .then(() => process.exit(0))
      .catch((error: unknown) => {
        logger.error({ err: error instanceof Error ? error.message : String(error) }, 'shutdown failed');
        process.exit(1);
      });
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
}

program.command('start').description('HTTP front and queue workers in one process').action(runRole('start'));
program.command('web').description('the HTTP front alone (scale out with several)').action(runRole('web'));
program
  .command('worker')
  .description('queue workers alone (scale out with several)')
  .action(runRole('worker'));

function port(value: string): number {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 0 || parsed > 65_535)
    throw new InvalidArgumentError('not a port number');
  return parsed;
}

program
  .command('sandbox')
  .description(
    'run the registrar simulator alone (demo key from --api-key, REGFISH_SANDBOX_API_KEY, or printed)',
  )
  .option('--port <n>', 'port to listen on', port, 4010)
  .option('--api-key <key>', 'the demo API key to accept')
  .action(async (options: { port: number; apiKey?: string }) => {
    await runSandboxCli(options, process.env, (line) => process.stdout.write(`${line}\n`));
  });

/** Opens the vault the CLI works on: master keys from the environment, Redis from REDIS_URL. */
async function withVault<T>(work: (vault: Vault) => Promise<T>): Promise<T> {
  const config = loadConfigOrExit();
  const current = masterKey(config.vault.masterKey);
  const previous =
    config.vault.previousMasterKey === undefined
      ? undefined
      : masterKey(config.vault.previousMasterKey, 'VAULT_MASTER_KEY_PREVIOUS');
  const redis = createRedis(config.redis.url ?? 'redis://127.0.0.1:6379', 'request', 'regdesk-cli');
  redis.on('error', () => {});
  try {
    await waitForReady(redis, 5_000);
    return await work(new Vault(redis, new KeySpace(config.redis.keyPrefix), current, previous));
  } finally {
    redis.disconnect();
  }
}

const io = { stdin: process.stdin, out: (line: string) => process.stdout.write(`${line}\n`) };
const actor = `cli:${userInfo().username}`;
const vault = program
  .command('vault')
  .description("manage the encrypted store of workspaces' registrar keys");
vault
  .command('set')
  .description('store a workspace registrar API key, read from stdin')
  .requiredOption('--team <id>', 'Slack team id (T…)')
  .option('--enterprise <id>', 'Enterprise Grid id (E…)')
  .action((options: { team: string; enterprise?: string }) =>
    cliAction(() =>
      withVault((v) => vaultSet(v, parseWorkspace(options.team, options.enterprise), io, undefined, actor)),
    ),
  );
vault
  .command('list')
  .description('list stored secrets, masked')
  .action(() => cliAction(() => withVault((v) => vaultList(v, io))));
vault
  .command('delete')
  .description("delete a workspace's registrar API key")
  .requiredOption('--team <id>', 'Slack team id (T…)')
  .option('--enterprise <id>', 'Enterprise Grid id (E…)')
  .action((options: { team: string; enterprise?: string }) =>
    cliAction(() => withVault((v) => vaultDelete(v, parseWorkspace(options.team, options.enterprise), io))),
  );
vault
  .command('rotate')
  .description(
    're-encrypt everything under VAULT_MASTER_KEY (reads VAULT_MASTER_KEY_PREVIOUS); safe to re-run',
  )
  .action(() =>
    cliAction(async () => {
      if (!(await withVault((v) => vaultRotate(v, io)))) process.exitCode = 1;
    }),
  );

/** One-shot commands: errors become one line on stderr and exit code 1, never a stack trace. */
async function cliAction(work: () => Promise<void>): Promise<void> {
  try {
    await work();
  } catch (error) {
    process.stderr.write(`regdesk: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  }
}

await program.parseAsync(process.argv);
