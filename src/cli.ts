#!/usr/bin/env node
import { Command } from 'commander';
import { ConfigError, loadConfig } from './config.js';
import { type Role, type Running, runRegdesk } from './main.js';
import { createLogger } from './shared/logger.js';

const program = new Command()
  .name('regdesk')
  .description('Slack chat-ops for domains, DNS and TLS certificates')
  .showHelpAfterError();

function runRole(role: Role): () => Promise<void> {
  return async () => {
    let config: ReturnType<typeof loadConfig>;
    try {
      config = loadConfig(process.env);
    } catch (error) {
      if (error instanceof ConfigError) {
        process.stderr.write(`regdesk: ${error.message}\n`);
        process.exit(1);
      }
      throw error;
    }
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

await program.parseAsync(process.argv);
