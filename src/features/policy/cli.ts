import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import type { Config } from '../../config.js';
import { createLogger, type Logger } from '../../shared/logger.js';
import type { KeySpace, Redis } from '../../shared/redis.js';
import type { WorkspaceRef } from '../../shared/workspace.js';
import { parseWorkspace } from '../../vault/cli.js';
import { AuditLog } from '../audit/service.js';
import { policyChange } from './change.js';
import { type DocumentError, documentOf, notYetEnforced, policyOf } from './document.js';
import { PolicyStore } from './policy.js';

/** How a policy was read, as a YAML comment above it (the document itself stays what rules apply). */
const STATE_NOTE = {
  default: 'never saved: the defaults apply',
  saved: 'as saved',
  repaired: 'saved, but some fields were out of range or unknown: they hold their strictest values',
  unreadable: 'saved, but it cannot be read: the strictest policy applies until an admin saves one',
} as const;

/**
 * `regdesk policy get --team T…`: the workspace's policy as one YAML document, version 2 (contract §1,
 * §3 "Policy"), a policy saved by `/domain policy` included.
 */
export async function policyGet(
  redis: Redis,
  keys: KeySpace,
  logger: Logger,
  workspace: WorkspaceRef,
  out: (text: string) => void,
): Promise<void> {
  const { policyYaml } = await import('./yaml.js');
  const read = await new PolicyStore(redis, keys, logger).read(workspace);
  const team = `${workspace.enterpriseId === undefined ? '' : `${workspace.enterpriseId}/`}${workspace.teamId}`;
  out(`# Regdesk policy of ${team}: ${STATE_NOTE[read.state]}\n${policyYaml(documentOf(read.policy))}`);
}

/**
 * `regdesk policy set --team T… FILE`: the document validated in full — every error named with its
 * path, and nothing saved then — else saved, and the change audited with each field before and after.
 * What Regdesk does not enforce yet is an error too (document.ts `notYetEnforced`): never saved to no
 * effect.
 */
export async function policySet(
  deps: { redis: Redis; keys: KeySpace; logger: Logger; audit: AuditLog },
  workspace: WorkspaceRef,
  source: string,
  actor: string,
): Promise<{ ok: true; change: string } | { ok: false; errors: DocumentError[] }> {
  const { parsePolicyYaml } = await import('./yaml.js');
  const parsed = parsePolicyYaml(source);
  if (!parsed.ok) return parsed;
  const unsupported = notYetEnforced(parsed.document);
  if (unsupported.length > 0) return { ok: false, errors: unsupported };
  const store = new PolicyStore(deps.redis, deps.keys, deps.logger);
  const before = await store.read(workspace);
  const after = policyOf(parsed.document);
  const change = policyChange(before.state === 'unreadable' ? undefined : before.policy, after);
  await store.set(workspace, after);
  await deps.audit.append(workspace, { action: 'policy_change', actor, detail: change });
  return { ok: true, change };
}

/** What the CLI program lends its commands: its configuration, Redis, error handling and output. */
export interface CliTools {
  config(): Config;
  withRedis<T>(config: Config, work: (redis: Redis, keys: KeySpace) => Promise<T>): Promise<T>;
  /** Runs a one-shot command: an error becomes one line on stderr and exit code 1. */
  action(work: () => Promise<void>): Promise<void>;
  /** Who the audit names for changes made from this terminal (`cli:<user>`). */
  actor: string;
  out(line: string): void;
}

/** All of stdin, as text (a document piped in: `regdesk policy set --team T… - < policy.yaml`). */
async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks).toString('utf8');
}

/** `regdesk policy get|set` (contract §1). Warnings go to stderr: stdout is the document or the result. */
export function policyCommands(program: Command, tools: CliTools): void {
  const logger = () => createLogger({ level: 'warn', destination: process.stderr });
  const policy = program.command('policy').description("a workspace's approval policy, as YAML (version 2)");
  policy
    .command('get')
    .description("print the workspace's approval policy as YAML")
    .requiredOption('--team <id>', 'Slack team id (T…)')
    .option('--enterprise <id>', 'Enterprise Grid id (E…)')
    .action((options: { team: string; enterprise?: string }) =>
      tools.action(() =>
        tools.withRedis(tools.config(), (redis, keys) =>
          policyGet(redis, keys, logger(), parseWorkspace(options.team, options.enterprise), (text) =>
            process.stdout.write(text),
          ),
        ),
      ),
    );
  policy
    .command('set')
    .description("validate FILE (or - for stdin) and save it as the workspace's approval policy")
    .requiredOption('--team <id>', 'Slack team id (T…)')
    .option('--enterprise <id>', 'Enterprise Grid id (E…)')
    .argument('<file>', 'the policy as YAML (version 2), or - to read it from stdin')
    .action((file: string, options: { team: string; enterprise?: string }) =>
      tools.action(async () => {
        const workspace = parseWorkspace(options.team, options.enterprise);
        const source = file === '-' ? await readStdin() : readFileSync(file, 'utf8');
        const config = tools.config();
        const result = await tools.withRedis(config, (redis, keys) =>
          policySet(
            { redis, keys, logger: logger(), audit: new AuditLog(redis, keys, config.audit) },
            workspace,
            source,
            tools.actor,
          ),
        );
        if (!result.ok) {
          for (const error of result.errors)
            process.stderr.write(`regdesk: ${error.path === '' ? '' : `${error.path}: `}${error.message}\n`);
          process.stderr.write('regdesk: nothing was saved\n');
          process.exitCode = 1;
          return;
        }
        tools.out(`Saved. ${result.change}`);
      }),
    );
}
