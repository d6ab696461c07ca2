import type { AllMiddlewareArgs, App, RespondFn, SlackCommandMiddlewareArgs } from '@slack/bolt';
import type { KnownBlock } from '@slack/types';
import type { Logger } from '../shared/logger.js';
import { text } from '../text/index.js';
import type { AckGate } from './ack-gate.js';
import { dispatchOf } from './dispatch.js';
import { type ErrorReply, replyForError } from './error-reply.js';
import { escapeMrkdwn } from './mrkdwn.js';

export type CommandArgs = SlackCommandMiddlewareArgs & AllMiddlewareArgs;

/** What a subcommand handler gets: the parsed words plus Bolt's arguments, with `ack` callable once. */
export interface SubcommandContext {
  /** Words after the subcommand name. */
  args: string[];
  /** Text after the subcommand name, as typed (for free text such as questions or name lists). */
  rest: string;
  bolt: CommandArgs;
  ack: CommandArgs['ack'];
  /**
   * After the ack, for heavy follow-up work: waits (≤ 500 ms) until this process's other requests
   * have their acks, so a burst is answered first (`AckGate`).
   */
  acksFirst(): Promise<void>;
  respond: RespondFn;
  logger: Logger;
}

/**
 * A subcommand of a slash command. `usage` and `summary` are said each time help lists them, in the
 * language of the person asking: a subcommand is registered once, for everyone.
 */
export interface Subcommand {
  name: string;
  /** Usage after the command, e.g. `check NAME [NAME…]`. */
  usage: () => string;
  summary: () => string;
  run(ctx: SubcommandContext): Promise<void>;
}

/** A command such as `/ask` that takes free text instead of subcommands. */
export interface FreeTextCommand {
  usage: () => string;
  summary: () => string;
  run(ctx: SubcommandContext): Promise<void>;
}

export const SLASH_COMMANDS = ['/domain', '/dns', '/tls', '/ask'] as const;
export type SlashCommandName = (typeof SLASH_COMMANDS)[number];
const COMMAND_PATTERN = new RegExp(`^(?:${SLASH_COMMANDS.join('|')})$`);

/** A handler's context whose `logger` is the command's child logger, made when first read. */
function context(
  args: string[],
  rest: string,
  bolt: CommandArgs,
  ack: CommandArgs['ack'],
  logger: () => Logger,
  gate: AckGate,
): SubcommandContext {
  return {
    args,
    rest,
    bolt,
    ack,
    acksFirst: () => gate.acksFirst(),
    respond: bolt.respond,
    get logger() {
      return logger();
    },
  };
}

/**
 * Routes `/domain`, `/dns`, `/tls` and `/ask`. Features register what they have built; help lists only
 * that. Every path acks exactly once and within Slack's 3 s (docs/requirements.md R1): help and refusals are the
 * ack itself, handlers ack before their slow work, and a handler that throws is answered here.
 */
export class CommandRouter {
  readonly #subcommands = new Map<SlashCommandName, Map<string, Subcommand>>();
  readonly #freeText = new Map<SlashCommandName, FreeTextCommand>();

  constructor(
    private readonly logger: Logger,
    private readonly gate: AckGate,
  ) {}

  add(command: SlashCommandName, subcommand: Subcommand): this {
    const table = this.#subcommands.get(command) ?? new Map<string, Subcommand>();
    table.set(subcommand.name, subcommand);
    this.#subcommands.set(command, table);
    return this;
  }

  setFreeText(command: SlashCommandName, handler: FreeTextCommand): this {
    this.#freeText.set(command, handler);
    return this;
  }

  /** Every command through the app's dispatch table (src/slack/dispatch.ts). */
  attach(app: App): void {
    dispatchOf(app).commands(COMMAND_PATTERN, (args) =>
      this.dispatch(args.command.command as SlashCommandName, args),
    );
  }

  async dispatch(command: SlashCommandName, bolt: CommandArgs): Promise<void> {
    let acked = false;
    const ack: CommandArgs['ack'] = async (response) => {
      if (acked) return;
      acked = true;
      await bolt.ack(response);
    };
    const typed = bolt.command.text.trim();
    const [first = '', ...words] = typed.split(/\s+/).filter((word) => word !== '');
    const name = first.toLowerCase();
    // Built on first use: most handlers log only after their ack, if at all (issue #17, ack latency).
    let child: Logger | undefined;
    const logger = (): Logger => {
      child ??= this.logger.child({ command, subcommand: name || 'help' });
      return child;
    };

    const freeText = this.#freeText.get(command);
    const subcommand = this.#subcommands.get(command)?.get(name);
    const wantsHelp = name === '' || name === 'help';

    try {
      if (freeText !== undefined && !(wantsHelp && words.length === 0)) {
        await freeText.run(context(typed.split(/\s+/), typed, bolt, ack, logger, this.gate));
      } else if (subcommand !== undefined) {
        const rest = typed.replace(/^\S+\s*/, '');
        await subcommand.run(context(words, rest, bolt, ack, logger, this.gate));
      } else {
        await ack(this.help(command, wantsHelp ? undefined : first));
      }
    } catch (error) {
      const reply: ErrorReply = replyForError(error, logger());
      if (!acked) await ack({ response_type: 'ephemeral', text: reply.text, blocks: reply.blocks });
      else await bolt.respond({ response_type: 'ephemeral', text: reply.text, blocks: reply.blocks });
    } finally {
      // A handler that forgot to ack must not leave the user with Slack's timeout error.
      if (!acked) await ack();
    }
  }

  /** The subcommands features registered under `command`, in the order they were added. */
  registered(command: SlashCommandName): Subcommand[] {
    return [...(this.#subcommands.get(command)?.values() ?? [])];
  }

  /** Usage for one command; with `unknown`, says it was not understood and suggests a near miss. */
  help(
    command: SlashCommandName,
    unknown?: string,
  ): { response_type: 'ephemeral'; text: string; blocks: KnownBlock[] } {
    const lines = this.usageLines(command);
    const names = [...(this.#subcommands.get(command)?.keys() ?? [])];
    const suggestion = unknown === undefined ? undefined : closest(unknown.toLowerCase(), names);
    const intro =
      unknown === undefined
        ? text.slack.helpIntro({ command })
        : text.slack.unknownSubcommand({
            typed: escapeMrkdwn(`${command} ${unknown}`),
            suggestion: suggestion === undefined ? undefined : `${command} ${suggestion}`,
          });
    const body = lines.length > 0 ? lines.join('\n') : text.slack.nothingUnderCommand({ command });
    // Each command's help points to the others, so `/domain help` is never a dead end.
    const others = text.slack.helpOthers({ command });
    return {
      response_type: 'ephemeral',
      text: `${intro}\n${body}\n${others}`,
      blocks: [
        { type: 'section', text: { type: 'mrkdwn', text: intro } },
        { type: 'section', text: { type: 'mrkdwn', text: body.slice(0, 3000) } },
        { type: 'context', elements: [{ type: 'mrkdwn', text: others }] },
      ],
    };
  }

  usageLines(command: SlashCommandName): string[] {
    const freeText = this.#freeText.get(command);
    if (freeText !== undefined) {
      return [text.slack.usageLine({ command, usage: freeText.usage(), summary: freeText.summary() })];
    }
    const lines = this.registered(command).map((sub) =>
      text.slack.usageLine({ command, usage: sub.usage(), summary: sub.summary() }),
    );
    const help = text.slack.usageLine({ command, usage: 'help', summary: text.slack.helpSummary });
    return lines.length > 0 ? [...lines, help] : [];
  }
}

/** The registered name within edit distance 2 (or sharing a 3-letter prefix) of `word`, if any. */
export function closest(word: string, candidates: readonly string[]): string | undefined {
  let best: { name: string; distance: number } | undefined;
  for (const name of candidates) {
    const distance = word.length >= 3 && name.startsWith(word) ? 1 : editDistance(word, name);
    if (distance <= 2 && (best === undefined || distance < best.distance)) best = { name, distance };
  }
  return best?.name;
}

/** Optimal string alignment distance: a transposed pair ("chekc") counts as one edit. */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[][] = Array.from({ length: rows }, (_, i) =>
    Array.from({ length: cols }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  const at = (i: number, j: number): number => d[i]?.[j] ?? Number.POSITIVE_INFINITY;
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        value = Math.min(value, at(i - 2, j - 2) + 1);
      }
      const row = d[i];
      if (row !== undefined) row[j] = value;
    }
  }
  return at(a.length, b.length);
}
