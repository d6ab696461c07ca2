import { statSync } from 'node:fs';
import { userInfo } from 'node:os';
import { Command, type CommanderError, InvalidArgumentError, Option } from 'commander';
import { type Config, ConfigError, loadConfig } from './config.js';
import { auditCommands } from './features/audit/cli.js';
import { policyCommands } from './features/policy/cli.js';
import { type Role, runRegdesk } from './main.js';
import { runningPrivateRedisUrl } from './runtime/local-redis.js';
import { acceptData } from './shared/integrity.js';
import { createLogger } from './shared/logger.js';
import { createRedis, KeySpace, type Redis, waitForReady } from './shared/redis.js';
import { packageVersion } from './shared/version.js';
import type { Shutdown } from './shutdown.js';
import { parseWorkspace, vaultDelete, vaultList, vaultRotate, vaultSet } from './vault/cli.js';
import { masterKey } from './vault/crypto.js';
import { Vault } from './vault/store.js';

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

/**
 * Why `--env-file PATH` cannot be loaded, or undefined once it is. Node's own loader reads it
 * (`process.loadEnvFile`, Node 20.12+; the format of `node --env-file`): a variable already set in the
 * environment, even to an empty value, keeps its value, so a deployment's own settings override the file.
 * Pipes (`--env-file <(…)`) are read like files; a directory is refused here, as Node's answer to one
 * does not say what is wrong.
 */
function envFileProblem(path: string): string | undefined {
  if (typeof process.loadEnvFile !== 'function')
    return `--env-file needs Node.js 20.12 or later (this is ${process.version})`;
  try {
    if (statSync(path).isDirectory()) return 'it is a directory';
    process.loadEnvFile(path);
    return undefined;
  } catch (error) {
    const code = error instanceof Error && 'code' in error ? error.code : undefined;
    if (code === 'ENOENT') return 'no such file';
    if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
    return error instanceof Error ? error.message : String(error);
  }
}

/** `regdesk start|web|worker|sandbox|vault …`; `shutdown` was installed before this module loaded. */
export async function runCli(argv: string[], shutdown: Shutdown): Promise<void> {
  const program = new Command()
    .name('regdesk')
    .description('Slack chat-ops for domains, DNS and TLS certificates')
    .version(packageVersion(), '-V, --version', 'print the version')
    .showHelpAfterError()
    .option(
      '--env-file <path>',
      'read settings from a file of KEY=value lines (the format of regdesk.env.example) before the ' +
        'configuration, for every command; variables already set in the environment win over the file',
    )
    // Before any command's action, so the file's variables are in place when the configuration is read.
    .hook('preAction', (command) => {
      const { envFile } = command.opts<{ envFile?: string }>();
      if (envFile === undefined) return;
      const problem = envFileProblem(envFile);
      if (problem === undefined) return;
      process.stderr.write(`regdesk: cannot read the env file ${envFile}: ${problem}\n`);
      process.exit(1);
    });

  const runRole = (role: Role) => async () => {
    const config = loadConfigOrExit();
    const logger = createLogger({ level: config.logLevel });
    try {
      await shutdown.serve(
        (signal) => runRegdesk({ role, config, logger, env: process.env, signal }),
        (line) => logger.info(line),
      );
    } catch (error) {
      process.stderr.write(`regdesk: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(1);
    }
  };

  program
    .command('start')
    .description('HTTP front and queue workers in one process (with no Slack app: the local playground)')
    .action(runRole('start'));
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
      // Human-facing lines go to stderr: stdout carries only JSON log lines.
      const say = (line: string) => process.stderr.write(`${line}\n`);
      await shutdown.serve(async () => {
        // Loaded only for this command: the other roles never hold the simulator in memory.
        const { runSandboxCli } = await import('./sandbox/index.js');
        const sandbox = await runSandboxCli(options, process.env, say);
        return { stop: () => sandbox.close() };
      }, say);
    });

  program
    .command('manifest')
    .description(
      'print the Slack app manifest (JSON) for your public host or for Socket Mode, from manifest.yml',
    )
    .option(
      '--host <host>',
      'the public host that reaches Regdesk: request URLs become https://HOST/slack/events',
    )
    .addOption(
      new Option('--socket-mode', 'Socket Mode: no request URLs (no public host needed)').conflicts('host'),
    )
    .action((options: { host?: string; socketMode?: boolean }) =>
      cliAction(async () => {
        // Loaded only for this command (and the playground): the bot's roles never parse YAML.
        const { loadAppManifest, renderAppManifest } = await import('./manifest.js');
        const manifest = renderAppManifest(loadAppManifest(), {
          ...(options.host === undefined ? {} : { host: options.host }),
          ...(options.socketMode === true ? { socketMode: true } : {}),
        });
        if (options.host === undefined && options.socketMode !== true)
          process.stderr.write(
            'regdesk: no --host or --socket-mode given: the request URLs still point at the placeholder regdesk.example.com.\n',
          );
        process.stdout.write(`${JSON.stringify(manifest, null, 2)}\n`);
      }),
    );

  /** Opens the vault the CLI works on: master keys from the environment, Redis as configured (any mode). */
  async function withVault<T>(work: (vault: Vault) => Promise<T>): Promise<T> {
    const config = loadConfigOrExit();
    const current = masterKey(config.vault.masterKey);
    const previous =
      config.vault.previousMasterKey === undefined
        ? undefined
        : masterKey(config.vault.previousMasterKey, 'VAULT_MASTER_KEY_PREVIOUS');
    return withRedis(config, (redis, keys) => work(new Vault(redis, keys, current, previous)));
  }

  /**
   * The Redis the CLI works on: as configured (any mode), else the private Redis that `regdesk start`
   * runs from this REGDESK_DATA_DIR, else 127.0.0.1:6379.
   */
  async function withRedis<T>(
    config: Config,
    work: (redis: Redis, keys: KeySpace) => Promise<T>,
  ): Promise<T> {
    const redis = createRedis(
      config.redis.connection ?? {
        target: { mode: 'single', url: runningPrivateRedisUrl(config.dataDir) ?? 'redis://127.0.0.1:6379' },
      },
      'request',
      'regdesk-cli',
    );
    redis.on('error', () => {});
    try {
      await waitForReady(redis, 5_000);
      return await work(redis, new KeySpace(config.redis.keyPrefix));
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

  policyCommands(program, {
    config: loadConfigOrExit,
    withRedis,
    action: cliAction,
    actor,
    out: io.out,
  });

  auditCommands(program, { config: loadConfigOrExit, withRedis, action: cliAction, out: io.out });
  program
    .command('doctor')
    .description(
      'check this deployment from its environment, one line per check, and say what to fix (docs/troubleshooting.md): exit 0 all holds, 1 something to fix, 2 could not run',
    )
    .addOption(
      new Option('--lang <language>', 'the language of the report').choices(['en', 'de']).default('en'),
    )
    .exitOverride((error: CommanderError) => process.exit(error.exitCode === 0 ? 0 : 2))
    .action(async (options: { lang: 'en' | 'de' }) => {
      shutdown.oneShot();
      const { doctorAction } = await import('./doctor/index.js');
      await doctorAction(options, io.out);
    });

  program
    .command('data')
    .description('Regdesk\'s data in Redis after a loss or a rollback (docs/data.md "Backup and restore")')
    .command('accept')
    .description(
      'confirm the data as it is now after a detected loss or rollback: processes become ready again',
    )
    .action(() =>
      cliAction(async () => {
        const incident = await withRedis(loadConfigOrExit(), (redis, keys) => acceptData(redis, keys));
        io.out(
          incident === undefined
            ? 'No data incident is open; nothing to accept.'
            : `Accepted: the data ${incident.kind === 'lost' ? 'loss' : 'rollback'} detected at ${new Date(incident.detectedAt).toISOString()} (${incident.detail}). Processes report ready within their next check; approval requests from before it stay closed.`,
        );
      }),
    );

  // Exit codes: 0 done, 1 refused or failed (one line saying why), 2 usage.
  const usageExit = (error: CommanderError) => process.exit(error.exitCode === 0 ? 0 : 2);
  const backupIo = { out: io.out, say: (line: string) => process.stderr.write(`${line}\n`) };
  program
    .command('backup')
    .description(
      'copy every key under the key prefix into FILE, while no Regdesk runs on that Redis (docs/data.md "Backup and restore")',
    )
    .argument('<file>', 'where to write the copy (replaced whole if it exists)')
    .exitOverride(usageExit)
    .action((file: string) =>
      cliAction(async () => {
        // Loaded only for this command, like the sandbox: the bot's roles never hold it in memory.
        const { backupCommand } = await import('./backup/cli.js');
        await backupCommand(loadConfigOrExit(), file, backupIo);
      }),
    );
  program
    .command('restore')
    .description(
      "replace every key under the key prefix with FILE's, while no Regdesk runs on that Redis; requests from before do not run",
    )
    .argument('<file>', 'a copy made by `regdesk backup`')
    .exitOverride(usageExit)
    .action((file: string) =>
      cliAction(async () => {
        const { restoreCommand } = await import('./backup/cli.js');
        await restoreCommand(loadConfigOrExit(), file, backupIo);
      }),
    );

  /** One-shot commands: errors become one line on stderr and exit code 1, never a stack trace. */
  async function cliAction(work: () => Promise<void>): Promise<void> {
    shutdown.oneShot();
    try {
      await work();
    } catch (error) {
      process.stderr.write(`regdesk: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exitCode = 1;
    }
  }

  await program.parseAsync(argv);
}
