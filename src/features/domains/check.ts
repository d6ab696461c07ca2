import { createHash } from 'node:crypto';
import type { KnownBlock } from '@slack/types';
import type { LimitWindow } from '../../config.js';
import type { RegistrarClient } from '../../registrar/index.js';
import { displayName, type ParsedName, splitNames } from '../../shared/domain-names.js';
import type { Limiter } from '../../shared/limiter.js';
import type { KeySpace } from '../../shared/redis.js';
import { context, header, packLines } from '../../slack/blocks.js';
import { replyForError } from '../../slack/error-reply.js';
import { codeSpan, escapeMrkdwn } from '../../slack/mrkdwn.js';
import type { Subcommand } from '../../slack/router.js';
import { workspaceOf } from '../../slack/workspace.js';
import type { WorkspaceKeys } from '../keys/service.js';

export const MAX_NAMES = 50;
/** A check still waiting for quota after this long is reported as "could not check". */
const MAX_QUOTA_WAIT_MS = 120_000;
const PARALLEL = 4;

export type CheckState =
  | { kind: 'waiting' }
  | { kind: 'available' }
  | { kind: 'taken'; status: string }
  | { kind: 'invalid'; reason: string }
  | { kind: 'unknown'; reason: string };

export interface CheckRow {
  name: ParsedName;
  state: CheckState;
}

function line(row: CheckRow): string {
  const label = codeSpan(row.name.ok ? displayName(row.name.ascii) : row.name.input);
  switch (row.state.kind) {
    case 'waiting':
      return `:hourglass_flowing_sand: ${label}`;
    case 'available':
      return `:white_check_mark: ${label} is available`;
    case 'taken':
      return `:x: ${label} is taken${row.state.status === '' ? '' : ` (${escapeMrkdwn(row.state.status)})`}`;
    case 'invalid':
      return `:warning: ${label}: ${escapeMrkdwn(row.state.reason)}`;
    case 'unknown':
      return `:grey_question: ${label}: could not check — try again (${escapeMrkdwn(row.state.reason)})`;
  }
}

export function checkMessage(
  rows: readonly CheckRow[],
  overflow: number,
): { text: string; blocks: KnownBlock[] } {
  const count = (kind: CheckState['kind']) => rows.filter((row) => row.state.kind === kind).length;
  const waiting = count('waiting');
  const summary =
    waiting > 0
      ? `Checking… ${rows.length - waiting} of ${rows.length} done.`
      : `${count('available')} available, ${count('taken')} taken, ${count('invalid')} invalid, ${count('unknown')} could not be checked.`;
  const blocks: KnownBlock[] = [
    header(`Availability of ${rows.length} name(s)`),
    ...packLines(rows.map(line)),
    context(summary),
  ];
  if (overflow > 0)
    blocks.push(context(`${overflow} more name(s) were ignored: at most ${MAX_NAMES} per check.`));
  return { text: `Availability: ${summary}`, blocks };
}

export interface CheckDeps {
  registrarFor(workspace: { teamId: string; enterpriseId?: string | undefined }): RegistrarClient;
  workspaceKeys: WorkspaceKeys;
  limiter: Limiter;
  keys: KeySpace;
  limit: LimitWindow;
}

/**
 * `/domain check`: names are validated locally first (no quota spent on invalid ones), then checked
 * against the per-key availability limit shared by every process (docs/requirements.md R14), so Regdesk itself
 * never causes a 429. One ephemeral message shows every name; Slack allows five response_url uses,
 * so it is replaced at most four times after the first answer (docs/requirements.md R3).
 */
export function checkCommand(deps: CheckDeps): Subcommand {
  return {
    name: 'check',
    usage: 'check NAME [NAME…]',
    summary: `availability of up to ${MAX_NAMES} names (spaces, commas or new lines between them)`,
    run: async ({ ack, rest, bolt, respond, logger }) => {
      const { names, overflow } = splitNames(rest, MAX_NAMES);
      if (names.length === 0) {
        await ack({
          response_type: 'ephemeral',
          text: 'Usage: `/domain check example.com [more names…]` (up to 50, IDN welcome).',
        });
        return;
      }
      const rows: CheckRow[] = names.map((name) => ({
        name,
        state: name.ok ? { kind: 'waiting' } : { kind: 'invalid', reason: name.reason },
      }));
      await ack({ response_type: 'ephemeral', ...checkMessage(rows, overflow) });
      const pending = rows.filter((row) => row.state.kind === 'waiting');
      if (pending.length === 0) return;

      const workspace = workspaceOf(bolt.body);
      const registrar = deps.registrarFor(workspace);
      let apiKeyId: string;
      try {
        apiKeyId = createHash('sha256')
          .update(await deps.workspaceKeys.apiKeyFor(workspace))
          .digest('hex')
          .slice(0, 16);
      } catch (error) {
        const reply = replyForError(error, logger);
        await respond({
          response_type: 'ephemeral',
          replace_original: true,
          text: reply.text,
          blocks: reply.blocks,
        });
        return;
      }
      // The quota is per API key (docs/registrar-api.md §8); the key is known here only by a hash.
      const window = {
        key: deps.keys.key(`key:${apiKeyId}`, 'quota', 'availability'),
        max: deps.limit.max,
        windowMs: withLatencyMargin(deps.limit.windowMs),
      };

      // Progress updates at a third and two thirds, then the final one: four uses at most.
      const milestones = new Set([Math.ceil(pending.length / 3), Math.ceil((2 * pending.length) / 3)]);
      let done = 0;
      let updates = Promise.resolve();
      const checkOne = async (row: CheckRow) => {
        if (!row.name.ok) return;
        if (!(await deps.limiter.acquireWithin([window], MAX_QUOTA_WAIT_MS))) {
          row.state = { kind: 'unknown', reason: 'availability limit reached' };
        } else {
          try {
            const result = await registrar.domains.checkAvailability(row.name.ascii);
            row.state = result.available
              ? { kind: 'available' }
              : { kind: 'taken', status: result.status ?? '' };
          } catch (error) {
            row.state = badRequest(error)
              ? { kind: 'invalid', reason: 'the registry does not accept this name' }
              : { kind: 'unknown', reason: reasonOf(error) };
          }
        }
        done++;
        if (milestones.has(done) && done < pending.length) {
          const snapshot = checkMessage(rows, overflow);
          updates = updates.then(() =>
            respond({ response_type: 'ephemeral', replace_original: true, ...snapshot }).then(
              () => undefined,
            ),
          );
        }
      };
      const queue = [...pending];
      await Promise.all(
        Array.from({ length: Math.min(PARALLEL, queue.length) }, async () => {
          for (let row = queue.shift(); row !== undefined; row = queue.shift()) await checkOne(row);
        }),
      );
      await updates;
      await respond({ response_type: 'ephemeral', replace_original: true, ...checkMessage(rows, overflow) });
    },
  };
}

function badRequest(error: unknown): boolean {
  return error instanceof Error && 'status' in error && (error as { status: number }).status === 400;
}

/** A short reason for an unknown result: never "taken" (docs/registrar-api.md §4.5: a 502 is not an answer). */
function reasonOf(error: unknown): string {
  const status = error instanceof Error && 'status' in error ? (error as { status: number }).status : 0;
  if (status === 502) return 'registry unreachable';
  if (status === 429) return 'registrar limit';
  if (status === 0) return 'no answer';
  return `registrar error ${status}`;
}

/**
 * A slot is taken here a little before the registrar counts the call (network latency varies per
 * request), so a schedule that is exact at our end can be a hair over at theirs. The window is
 * widened by 2 % (at least 250 ms): with the documented 60 per minute that costs about one check a
 * minute at full speed, and it removes the 429s.
 */
export function withLatencyMargin(windowMs: number): number {
  return windowMs + Math.max(250, Math.ceil(windowMs * 0.02));
}
