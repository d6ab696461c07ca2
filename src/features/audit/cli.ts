import { type Command, type CommanderError, InvalidArgumentError } from 'commander';
import type { Config } from '../../config.js';
import type { KeySpace, Redis } from '../../shared/redis.js';
import type { WorkspaceRef } from '../../shared/workspace.js';
import { parseWorkspace } from '../../vault/cli.js';
import type { ChainProblem, ChainVerdict } from './chain.js';
import { exportRecord } from './entry.js';
import { AuditLog, type TrailVerdict } from './service.js';

/** What the CLI program lends these commands: its configuration, Redis, error handling and output. */
export interface AuditCliTools {
  config(): Config;
  withRedis<T>(config: Config, work: (redis: Redis, keys: KeySpace) => Promise<T>): Promise<T>;
  /** Runs a one-shot command: an error becomes one line on stderr and exit code 1. */
  action(work: () => Promise<void>): Promise<void>;
  out(line: string): void;
}

const ISO_8601 =
  /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2}))?$/;

/**
 * `--since`: an ISO 8601 date (midnight UTC) or date and time with its offset (`Z`, `+02:00`); a time
 * without one is refused, as it would be read in whatever zone this machine is in.
 */
export function parseSince(value: string): number {
  const match = ISO_8601.exec(value.trim());
  const at = Date.parse(value.trim());
  const [year, month, day] = [Number(match?.[1]), Number(match?.[2]), Number(match?.[3])];
  const calendar = new Date(Date.UTC(year, month - 1, day));
  if (
    match === null ||
    Number.isNaN(at) ||
    calendar.getUTCFullYear() !== year ||
    calendar.getUTCMonth() !== month - 1 ||
    calendar.getUTCDate() !== day
  )
    throw new InvalidArgumentError(
      'not an ISO 8601 time: give a date (2025-01-31) or a date and time with its offset (2025-01-31T08:00:00Z, 2025-01-31T09:00+01:00)',
    );
  return at;
}

/** `--team`, checked as commander reads it, so a bad id is a usage error (exit 2). */
function teamOption(value: string): string {
  try {
    parseWorkspace(value);
  } catch (error) {
    throw new InvalidArgumentError(error instanceof Error ? error.message : String(error));
  }
  return value;
}

function enterpriseOption(value: string): string {
  try {
    parseWorkspace('T000', value);
  } catch (error) {
    throw new InvalidArgumentError(error instanceof Error ? error.message : String(error));
  }
  return value;
}

/** What is wrong, said for an operator (chain.ts names the kind). */
function problemText(problem: ChainProblem): string {
  switch (problem.kind) {
    case 'changed':
      return 'changed: its fields do not hash to the hash it carries';
    case 'replaced':
      return `changed: it hashes right, but the chain's head holds another hash for position ${problem.position} (rewritten whole)`;
    case 'unchained':
      return 'changed or inserted: it carries no hash, after entries that do';
    case 'missing_before':
      return problem.cause === 'gap'
        ? `an entry before it is missing: it is position ${problem.position}, the entry before it position ${problem.after}`
        : `an entry before it is missing or changed: it does not carry the hash of position ${problem.after} before it`;
    case 'out_of_order':
      return `out of order: position ${problem.position} is stored before position ${problem.before}, written before it`;
    case 'missing_after':
      return `the newest entries are missing: the chain ends at position ${problem.position}, its head says ${problem.head}`;
    case 'head_missing':
      return "the chain's head key is missing: the next entry would not link to this one";
  }
}

function teamName(workspace: WorkspaceRef): string {
  return `${workspace.enterpriseId === undefined ? '' : `${workspace.enterpriseId}/`}${workspace.teamId}`;
}

/** `regdesk audit verify`: one line with the count, or one line per broken chain naming its first bad entry. */
export function verifyReport(
  workspace: WorkspaceRef,
  verdict: TrailVerdict,
): { ok: boolean; lines: string[] } {
  const chains: Array<[string, ChainVerdict]> = [
    ['trail', verdict.trail],
    ['refusals', verdict.refusals],
  ];
  const team = teamName(workspace);
  const broken = chains.flatMap(([name, chain]) => {
    const problem = chain.problem;
    if (problem === undefined) return [];
    const at = problem.id === undefined ? 'after its last entry' : `entry ${problem.id}`;
    return [`audit ${name} of ${team}, ${at}: ${problemText(problem)}`];
  });
  if (broken.length > 0) return { ok: false, lines: broken };
  const checked = verdict.trail.checked + verdict.refusals.checked;
  const legacy = verdict.trail.legacy + verdict.refusals.legacy;
  // A mistyped team id has no trail either: said, not passed off as a verified one.
  if (checked + legacy === 0)
    return { ok: true, lines: [`Audit trail of ${team} has no entries: nothing to verify.`] };
  const lines = [
    `Audit trail of ${team} verified: ${checked} entries (${verdict.trail.checked} in the trail, ${verdict.refusals.checked} refusals), each linked to the one before it.`,
  ];
  if (legacy > 0)
    lines.push(
      `${legacy} older entries precede the chain (written before entries carried hashes): counted, not checked.`,
    );
  return { ok: true, lines };
}

/** Writes to stdout, waiting when the pipe is full: an export of a long trail holds one page at a time. */
async function write(text: string): Promise<void> {
  if (!process.stdout.write(text)) await new Promise((resolve) => process.stdout.once('drain', resolve));
}

/** Exit codes: 0 done, 1 a broken chain or a failure (one line each on stderr), 2 usage. */
const usageExit = (error: CommanderError) => process.exit(error.exitCode === 0 ? 0 : 2);

/** `regdesk audit verify|export` (contract §1, docs/requirements.md R52). */
export function auditCommands(program: Command, tools: AuditCliTools): void {
  const audit = program
    .command('audit')
    .description("a workspace's audit trail: check its hash chain, or print it as JSON Lines");
  const workspaceOf = (options: { team: string; enterprise?: string }) =>
    parseWorkspace(options.team, options.enterprise);
  // Both commands name the workspace the same way, and refuse bad usage with exit 2.
  const forWorkspace = (name: string) =>
    audit
      .command(name)
      .requiredOption('--team <id>', 'Slack team id (T…)', teamOption)
      .option('--enterprise <id>', 'Enterprise Grid id (E…)', enterpriseOption)
      .exitOverride(usageExit);
  forWorkspace('verify')
    .description(
      "check the workspace's audit chains (trail and refusals): exit 0 with the count, 1 naming the first missing, changed or reordered entry",
    )
    .action((options: { team: string; enterprise?: string }) =>
      tools.action(async () => {
        const workspace = workspaceOf(options);
        const config = tools.config();
        const verdict = await tools.withRedis(config, (redis, keys) =>
          new AuditLog(redis, keys, config.audit).verify(workspace),
        );
        const report = verifyReport(workspace, verdict);
        if (report.ok) for (const line of report.lines) tools.out(line);
        else {
          for (const line of report.lines) process.stderr.write(`regdesk: ${line}\n`);
          process.exitCode = 1;
        }
      }),
    );
  forWorkspace('export')
    .description(
      "print the workspace's audit entries, oldest first, as JSON Lines (the shape of /domain audit export)",
    )
    .option('--since <time>', 'only entries written at or after this ISO 8601 time', parseSince)
    .action((options: { team: string; enterprise?: string; since?: number }) =>
      tools.action(async () => {
        const workspace = workspaceOf(options);
        const config = tools.config();
        await tools.withRedis(config, async (redis, keys) => {
          const trail = new AuditLog(redis, keys, config.audit);
          const since = options.since === undefined ? {} : { since: options.since };
          for await (const entry of trail.all(workspace, since))
            await write(`${JSON.stringify(exportRecord(entry))}\n`);
        });
      }),
    );
}
