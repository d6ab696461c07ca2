import { z } from 'zod';
import { PLAYGROUND_LOCALES } from './web/protocol.js';

/** The page's requests (web/protocol.ts), checked before anything acts on them. */
const id = z.string().regex(/^[A-Z0-9]{2,32}$/, 'must be a Slack id');
const ts = z.string().regex(/^\d{1,12}\.\d{1,9}$/, 'must be a Slack ts');
const option = z.object({
  text: z.object({ type: z.literal('plain_text'), text: z.string().max(2_000) }),
  value: z.string().max(2_000),
});

/** One element's value, as Slack builds it into `actions[]` and `view.state.values`. */
const elementValue = z
  .object({
    type: z.string().min(1).max(64),
    value: z.string().max(3_000).optional(),
    selected_option: option.optional(),
    selected_options: z.array(option).max(100).optional(),
    selected_user: z.string().max(64).optional(),
    selected_users: z.array(z.string().max(64)).max(100).optional(),
    selected_conversation: z.string().max(64).optional(),
    selected_conversations: z.array(z.string().max(64)).max(100).optional(),
    selected_channel: z.string().max(64).optional(),
    selected_date: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/)
      .optional(),
  })
  .strict();

const stateValues = z.record(z.string().max(255), z.record(z.string().max(255), elementValue));

export const ComposerSchema = z.object({
  user: id,
  channel: id,
  text: z.string().trim().min(1, 'type something').max(40_000),
  threadTs: ts.optional(),
});

export const ActionSchema = z.object({
  user: id,
  source: z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('message'), channel: id, ts }),
    z.object({ kind: z.literal('view'), viewId: id }),
    z.object({ kind: z.literal('home') }),
  ]),
  action: elementValue.extend({ action_id: z.string().min(1).max(255), block_id: z.string().max(255) }),
  state: stateValues.optional(),
});

export const ViewSubmissionSchema = z.object({ user: id, viewId: id, values: stateValues });
export const ViewClosedSchema = z.object({ user: id, viewId: id });
export const HomeOpenedSchema = z.object({ user: id, tab: z.enum(['home', 'messages']).default('home') });
export const MessageShortcutSchema = z.object({
  user: id,
  channel: id,
  ts,
  callbackId: z.string().min(1).max(255),
});
export const ReactionSchema = z.object({
  user: id,
  channel: id,
  ts,
  name: z.string().regex(/^[a-z0-9_+-]{1,64}$/, 'must be an emoji name'),
});
/** Up to 30 days at once: enough for any pending certificate or DNSSEC transition. */
export const ClockSchema = z.object({
  advanceMs: z
    .number()
    .int()
    .positive()
    .max(30 * 86_400_000),
});

/** The names a demo CSR is for (the order modal's common name and SANs, as typed). */
export const DemoCsrSchema = z.object({ names: z.array(z.string().trim().min(1).max(253)).min(1).max(100) });

/** A member's Slack language: one of the page's choices (web/protocol.ts). */
export const LanguageSchema = z.object({ user: id, locale: z.enum(PLAYGROUND_LOCALES) });
