import { blockKitProblems, type Surface } from '../block-limits.js';
import { TRIGGER_LIFETIME_MS } from './types.js';

/** Slack answers `invalid_blocks` with the offending paths in `response_metadata.messages`. */
export function blocksRefusal(args: Record<string, unknown>, surface: Surface): unknown {
  const problems = blockKitProblems({ text: args.text, blocks: args.blocks }, surface);
  if (problems.length === 0) return undefined;
  const tooLong = typeof args.text === 'string' && args.text.length > 40_000;
  return {
    ok: false,
    error: tooLong && problems.length === 1 ? 'msg_too_long' : 'invalid_blocks',
    errors: problems,
    response_metadata: { messages: problems },
  };
}

/** Views are refused as a whole with `invalid_arguments`, like Slack's views.* methods do. */
export function viewRefusal(view: unknown, surface: Surface): string | undefined {
  if (typeof view !== 'object' || view === null) return 'invalid_arguments';
  return blockKitProblems(view, surface).length > 0 ? 'invalid_arguments' : undefined;
}

/** The same refusal as a Web API answer, with the problems Slack lists. */
export function viewRefusalBody(view: unknown, surface: Surface): unknown {
  if (typeof view !== 'object' || view === null) return { ok: false, error: 'invalid_arguments' };
  const problems = blockKitProblems(view, surface);
  if (problems.length === 0) return undefined;
  return { ok: false, error: 'invalid_arguments', response_metadata: { messages: problems } };
}

export function triggerRefusal(trigger: unknown): string | undefined {
  const issued = Number(String(trigger ?? '').split('.')[0]);
  if (!Number.isFinite(issued) || issued <= 0) return 'invalid_trigger_id';
  return Date.now() - issued > TRIGGER_LIFETIME_MS ? 'expired_trigger_id' : undefined;
}
