import { MAX_QUESTION_LENGTH } from '../../src/features/assistant/service.js';
import { auditCommand } from '../../src/features/audit/commands.js';
import { checkCommand as dnsCheckCommand } from '../../src/features/diagnostics/commands.js';
import { recordsCommand, zoneCommand } from '../../src/features/dns/commands.js';
import { dnssecCommand } from '../../src/features/dnssec/commands.js';
import { checkCommand } from '../../src/features/domains/check.js';
import { authcodeCommand, infoCommand, nsCommand } from '../../src/features/domains/commands.js';
import { keyCommand } from '../../src/features/keys/commands.js';
import { PermissionRefused } from '../../src/features/policy/permissions.js';
import { policyCommand } from '../../src/features/policy/view.js';
import { recordCommand } from '../../src/features/records/commands.js';
import { showCommand } from '../../src/features/tls/commands.js';
import { downloadCommand } from '../../src/features/tls/download.js';
import { orderCommand } from '../../src/features/tls/order.js';
import { orgCommand } from '../../src/features/tls/organizations.js';
import { reissueCommand } from '../../src/features/tls/reissue.js';
import { revocationCommand } from '../../src/features/tls/revoke.js';
import { domainWatchCommand, MAX_PER_COMMAND, tlsWatchCommand } from '../../src/features/watches/commands.js';
import {
  BadRequestError,
  ConflictError,
  DuplicateRecordError,
  ForbiddenError,
  InternalUpstreamError,
  MalformedResponseError,
  NetworkError,
  NotFoundError,
  NotOfferedError,
  RateLimitedError,
  TimeoutError,
  UnauthorizedError,
  UnexpectedStatusError,
  UpstreamFailedError,
} from '../../src/registrar/index.js';
import { createLogger } from '../../src/shared/logger.js';
import { RedisUnavailableError } from '../../src/shared/redis.js';
import { AckGate } from '../../src/slack/ack-gate.js';
import { noticeModal } from '../../src/slack/blocks.js';
import { replyForError } from '../../src/slack/error-reply.js';
import { usage } from '../../src/slack/lookup.js';
import { CommandRouter, type SubcommandContext } from '../../src/slack/router.js';
import { text } from '../../src/text/index.js';
import { checkBuilders, type Entry } from '../helpers/builder-checks.js';
import { guestRefusal, REGISTRAR_SAID } from '../helpers/builder-fixtures.js';

/**
 * Help, usage, error replies and the modals every feature shares. Each is rendered in every language at the
 * largest its inputs realistically get and checked by test/helpers/builder-checks.ts (Block Kit limits, no
 * outside markup, German differs, dates as tokens). A builder added later is one line of `BUILDERS` here.
 */

// ——— Help and usage ——————————————————————————————————————————————————————————————————————————————————

/**
 * Every command with the subcommands the features register. Help reads only each subcommand's name,
 * usage and summary; `run` (the only user of the features' services) is never called, so they get none.
 */
const none = {} as never;
const router = new CommandRouter(createLogger({ level: 'silent' }), new AckGate())
  .add('/domain', checkCommand(none))
  .add('/domain', infoCommand(none))
  .add('/domain', nsCommand(none))
  .add('/domain', authcodeCommand(none))
  .add('/domain', policyCommand(none, none, none))
  .add('/domain', auditCommand(none))
  .add('/domain', keyCommand(none, none))
  .add('/domain', domainWatchCommand(none))
  .add('/dns', zoneCommand(none))
  .add('/dns', recordsCommand(none))
  .add('/dns', recordCommand(none))
  .add('/dns', dnssecCommand(none))
  .add('/dns', dnsCheckCommand(none))
  .add('/tls', orderCommand(none))
  .add('/tls', showCommand(none, none))
  .add('/tls', reissueCommand(none))
  .add('/tls', downloadCommand(none, none))
  .add('/tls', revocationCommand('revoke', none))
  .add('/tls', revocationCommand('cancel', none))
  .add('/tls', orgCommand(none, none))
  .add('/tls', tlsWatchCommand(none))
  // `/ask` is registered by registerAssistantHandlers, which needs a Bolt app: its two lines, as there.
  .setFreeText('/ask', {
    usage: () => text.assistant.askUsage,
    summary: () => text.assistant.askSummary({ max: MAX_QUESTION_LENGTH }),
    run: async () => undefined,
  });

/** What `usage()` acks: the reply to a subcommand called without what it needs. */
async function usageReply(syntax: () => string): Promise<unknown> {
  let said: unknown;
  const ack = async (response: unknown) => {
    said = response;
  };
  await usage({ ack } as unknown as SubcommandContext, syntax());
  return said;
}

// ——— Errors ————————————————————————————————————————————————————————————————————————————————————————

const silent = createLogger({ level: 'silent' });
/** An unexpected error's reply carries a random reference: fixed here, so the languages compare on words alone. */
const fixedReference = <T>(reply: T): T =>
  JSON.parse(JSON.stringify(reply).replace(/`[0-9a-f]{8}`/g, '`0badc0de`')) as T;
const slackError = (error: string) => ({ code: 'slack_webapi_platform_error', data: { error } });
const ERRORS: [name: string, error: () => unknown][] = [
  ...[
    'not_in_channel',
    'channel_not_found',
    'is_archived',
    'message_not_found',
    'expired_trigger_id',
    'user_not_in_channel',
  ].map((refusal): [string, () => unknown] => [`Slack refused: ${refusal}`, () => slackError(refusal)]),
  ['Slack rate limit', () => ({ code: 'slack_webapi_rate_limited_error' })],
  ['Redis down', () => new RedisUnavailableError()],
  ['registrar 400', () => new BadRequestError('dns.recordCreate', REGISTRAR_SAID)],
  ['registrar 401', () => new UnauthorizedError('domains.get', REGISTRAR_SAID)],
  ['registrar 401 on a record write', () => new UnauthorizedError('dns.recordCreate', REGISTRAR_SAID)],
  ['registrar 403 guard', () => new ForbiddenError('domains.nameservers', REGISTRAR_SAID)],
  ['registrar 403 assistant', () => new ForbiddenError('assistant.search', REGISTRAR_SAID)],
  ['registrar 404', () => new NotFoundError('domains.get', REGISTRAR_SAID)],
  ['registrar 405', () => new NotOfferedError('dns.recordCreate')],
  ['registrar 409', () => new ConflictError('tls.order', REGISTRAR_SAID)],
  ['registrar 417 duplicate', () => new DuplicateRecordError('dns.recordCreate', REGISTRAR_SAID)],
  ['registrar 429', () => new RateLimitedError('domains.availability', '', 3_600_000)],
  ['registrar 500', () => new InternalUpstreamError('tls.get')],
  ['registrar 502', () => new UpstreamFailedError('tls.order', REGISTRAR_SAID)],
  ['registrar 502 availability', () => new UpstreamFailedError('domains.availability')],
  ['registrar unexpected status', () => new UnexpectedStatusError(418, 'tls.get', REGISTRAR_SAID)],
  ['registrar timeout', () => new TimeoutError('tls.get', 30_000)],
  ['registrar unreachable', () => new NetworkError('tls.get', 'ECONNRESET')],
  [
    'registrar malformed answer',
    () => new MalformedResponseError('tls.get', 'dns_names[3]', 'expected string'),
  ],
  ['permission refused (guest)', () => new PermissionRefused(guestRefusal())],
];

const BUILDERS: Entry[] = [
  ['slack: /domain help', 'message', () => router.help('/domain')],
  ['slack: /dns help', 'message', () => router.help('/dns')],
  ['slack: /tls help', 'message', () => router.help('/tls')],
  ['slack: /ask help', 'message', () => router.help('/ask')],
  ['slack: /domain near miss', 'message', () => router.help('/domain', 'polcy')],
  ['slack: /tls unknown subcommand', 'message', () => router.help('/tls', 'x'.repeat(2_000))],
  ['slack: usage, watch add', 'message', () => usageReply(() => text.watches.addDomainsUsage)],
  [
    'slack: usage, too many domains',
    'message',
    () => usageReply(() => text.watches.tooManyDomains({ max: MAX_PER_COMMAND })),
  ],
  ...ERRORS.map(
    ([name, error]): Entry => [
      `slack: error reply, ${name}`,
      'message',
      () => replyForError(error(), silent),
    ],
  ),
  [
    'slack: error reply, unexpected (nothing changed)',
    'message',
    () => fixedReference(replyForError(new Error('boom'), silent, { nothingChanged: true })),
  ],
  [
    'slack: error reply, unexpected',
    'message',
    () => fixedReference(replyForError(new Error('boom'), silent)),
  ],
  [
    'slack: error modal',
    'modal',
    () =>
      noticeModal(
        text.slack.errorModalTitle,
        replyForError(new NotFoundError('tls.get', REGISTRAR_SAID), silent).text,
        'cb',
      ),
  ],
  ['slack: loading modal', 'modal', () => noticeModal(text.tls.completeModalTitle, text.slack.loading, 'cb')],
];

checkBuilders('slack', BUILDERS);
