import type { WebClient } from '@slack/web-api';
import { REGISTRAR_ID } from '../../registrar/index.js';
import { parseDomainName, splitNames } from '../../shared/domain-names.js';
import type { WorkspaceRef } from '../../shared/workspace.js';
import { conversationLink } from '../../slack/blocks.js';
import { usage } from '../../slack/lookup.js';
import { codeSpan, escapeMrkdwn } from '../../slack/mrkdwn.js';
import type { Subcommand, SubcommandContext } from '../../slack/router.js';
import type { SlackDirectory } from '../../slack/users.js';
import { openModal } from '../../slack/views.js';
import { workspaceOf } from '../../slack/workspace.js';
import { markup, text } from '../../text/index.js';
import type { Roles } from '../policy/permissions.js';
import type { RenewalLedger } from '../tls/renewals.js';
import { type AddDeps, addWatches } from './adding.js';
import { listMessage, settingsModal } from './blocks.js';
import { type DigestDeps, sendDigest } from './digest.js';
import { discover } from './discover.js';
import { management, maySaveSettings, removalRefusal } from './managers.js';
import type { DigestSettings, WatchKind } from './store.js';

export interface WatchCommandDeps extends DigestDeps, AddDeps {
  roles: Roles;
  directory: SlackDirectory;
  renewals: Pick<RenewalLedger, 'ordersFor'>;
}

/** Names or ids per `watch add|remove`; more are refused with the usage (a list of 500 goes in parts). */
export const MAX_PER_COMMAND = 100;
/** Certificate ids per `/tls watch add` (each is read from the registrar, like domains). */
export const MAX_CERTIFICATES_PER_COMMAND = 20;
/** A trigger_id is good for 3 s (docs/requirements.md R2); past this the settings modal cannot open. */
const TRIGGER_BUDGET_MS = 2_500;

/** Acks, then asks whether the person may use the workspace's key (members in good standing, R33). */
async function allowed(ctx: SubcommandContext, deps: WatchCommandDeps, operation: string): Promise<boolean> {
  await ctx.ack();
  const { body, client } = ctx.bolt;
  const access = await deps.roles.check(client, workspaceOf(body), body.user_id, 'lookup', { operation });
  if (!access.allowed)
    await ctx.respond({
      response_type: 'ephemeral',
      text: text.watches.locked({ reason: markup(access.reason) }),
    });
  return access.allowed;
}

const words = (ctx: SubcommandContext) => ctx.args.slice(1);

/** `/domain watch …`: domains, the digest settings and the digest now. */
export function domainWatchCommand(deps: WatchCommandDeps): Subcommand {
  return {
    name: 'watch',
    usage: () => text.watches.domainCommandUsage,
    summary: () => text.watches.domainCommandSummary,
    run: async (ctx) => {
      const verb = ctx.args[0]?.toLowerCase();
      switch (verb) {
        case 'add':
          return addDomains(ctx, deps);
        case 'remove':
          return removeWatches(ctx, deps, 'domain');
        case 'list':
          return listWatches(ctx, deps);
        case 'all':
          return watchEverything(ctx, deps);
        case 'settings':
          return openSettings(ctx, deps);
        case 'digest':
          return digestNow(ctx, deps);
        default:
          return usage(ctx, text.watches.domainUsage);
      }
    },
  };
}

/** `/tls watch …`: certificates. */
export function tlsWatchCommand(deps: WatchCommandDeps): Subcommand {
  return {
    name: 'watch',
    usage: () => text.watches.tlsCommandUsage,
    summary: () => text.watches.tlsCommandSummary,
    run: async (ctx) => {
      const verb = ctx.args[0]?.toLowerCase();
      if (verb === 'add') return addCertificates(ctx, deps);
      if (verb === 'remove') return removeWatches(ctx, deps, 'certificate');
      if (verb === 'list') return listWatches(ctx, deps, 'certificate');
      return usage(ctx, text.watches.tlsUsage);
    },
  };
}

/**
 * `/domain watch all`: admins only (it takes the workspace's whole limit). Lists the registrar's zones
 * and certificates now and then within the hour (discover.ts); alerts go to the channel it was typed in.
 */
async function watchEverything(ctx: SubcommandContext, deps: WatchCommandDeps): Promise<void> {
  if (!(await allowed(ctx, deps, 'domain watch all'))) return;
  const { body, client } = ctx.bolt;
  const workspace = workspaceOf(body);
  const say = async (said: string): Promise<void> => {
    await ctx.respond({ response_type: 'ephemeral', text: said });
  };
  if (!(await deps.roles.isAdmin(client, workspace, body.user_id)))
    return say(text.watches.watchAllAdminsOnly);
  const result = await discover({ ...deps, logger: ctx.logger }, workspace, {
    channel: body.channel_id,
    by: body.user_id,
    listedAt: 0,
  });
  if (result.kind === 'not-offered') return say(text.watches.watchAllNotOffered);
  if (result.kind === 'over-limit') return say(text.watches.watchAllOverLimit({ limit: result.limit }));
  const lines = [
    text.watches.watchAllDone({
      domains: result.domains.length,
      certificates: result.certificates.length,
      channel: conversationLink(body.channel_id),
    }),
    ...(result.certificatesListed ? [] : [text.watches.watchAllNoCertificates]),
    ...(result.foreign.length === 0
      ? []
      : [text.watches.watchAllForeign({ ids: result.foreign.slice(0, 20).map(codeSpan).join(', ') })]),
  ];
  await say(lines.join('\n'));
}

async function addDomains(ctx: SubcommandContext, deps: WatchCommandDeps): Promise<void> {
  const { names, overflow } = splitNames(words(ctx).join(' '), MAX_PER_COMMAND);
  if (names.length === 0) return usage(ctx, text.watches.addDomainsUsage);
  if (overflow > 0) return usage(ctx, text.watches.tooManyDomains({ max: MAX_PER_COMMAND }));
  const refused = names.flatMap((name) =>
    name.ok
      ? []
      : [text.watches.domainNotAdded({ name: codeSpan(name.input), reason: escapeMrkdwn(name.reason) })],
  );
  const valid = names.flatMap((name) => (name.ok ? [name.ascii] : []));
  if (valid.length === 0) {
    await ctx.ack({ response_type: 'ephemeral', text: [...refused, text.watches.nothingAdded].join('\n') });
    return;
  }
  if (!(await allowed(ctx, deps, 'domain watch add'))) return;
  await addAndTell(ctx, deps, 'domain', valid, refused);
}

async function addCertificates(ctx: SubcommandContext, deps: WatchCommandDeps): Promise<void> {
  const ids = [...new Set(words(ctx))];
  if (ids.length === 0) return usage(ctx, text.watches.addCertificatesUsage);
  if (ids.length > MAX_CERTIFICATES_PER_COMMAND)
    return usage(ctx, text.watches.tooManyCertificates({ max: MAX_CERTIFICATES_PER_COMMAND }));
  const malformed = ids.filter((id) => !REGISTRAR_ID.test(id));
  if (malformed.length > 0) {
    await ctx.ack({
      response_type: 'ephemeral',
      text: text.watches.notCertificateIds({
        ids: malformed.map((id) => codeSpan(id.slice(0, 100))).join(', '),
      }),
    });
    return;
  }
  if (!(await allowed(ctx, deps, 'tls watch add'))) return;
  await addAndTell(ctx, deps, 'certificate', ids, []);
}

async function addAndTell(
  ctx: SubcommandContext,
  deps: WatchCommandDeps,
  kind: WatchKind,
  ids: string[],
  refused: string[],
): Promise<void> {
  const { body, client } = ctx.bolt;
  const where = { channel: body.channel_id, user: body.user_id };
  const message = await addWatches(deps, client, workspaceOf(body), kind, ids, where, refused, ctx.logger);
  await ctx.respond({ response_type: 'ephemeral', ...message });
}

/**
 * Stops watching: everything named, or (the policy's `watchManagers`, managers.ts) only what the
 * remover added themselves; the rest is refused, saying who added it. Each removal and refusal is
 * audited.
 */
async function removeWatches(ctx: SubcommandContext, deps: WatchCommandDeps, kind: WatchKind): Promise<void> {
  const given = [...new Set(words(ctx))];
  const example = kind === 'domain' ? text.watches.removeDomainsUsage : text.watches.removeCertificatesUsage;
  if (given.length === 0) return usage(ctx, example);
  if (given.length > MAX_PER_COMMAND)
    return usage(ctx, text.watches.tooManyToRemove({ max: MAX_PER_COMMAND, usage: example }));
  if (!(await allowed(ctx, deps, `${kind} watch remove`))) return;
  const { body, client } = ctx.bolt;
  const workspace = workspaceOf(body);
  const user = body.user_id;
  const ids = given.map((word) => {
    if (kind !== 'domain') return word;
    const parsed = parseDomainName(word);
    return parsed.ok ? parsed.ascii : word.toLowerCase();
  });
  const scope = await management(deps, client, workspace, user);
  const { removed, refused } = await deps.service.remove(
    workspace,
    kind,
    ids,
    scope === 'own' ? user : undefined,
  );
  const operation = `${kind} watch`;
  for (const item of removed)
    await deps.audit.append(workspace, { action: 'watch_remove', actor: user, operation, target: item.id });
  const refusal = refused.length === 0 ? undefined : removalRefusal(refused);
  for (const item of refused) {
    await deps.audit.append(workspace, {
      action: 'refuse',
      actor: user,
      operation: `${kind} watch remove`,
      target: item.id,
      outcome: text.watches.auditRemovalRefused({ addedBy: item.addedBy }),
    });
  }
  const gone = new Set([...removed, ...refused].map((item) => item.id));
  const missing = ids.filter((id) => !gone.has(id));
  const lines = [
    ...(removed.length === 0
      ? []
      : [text.watches.noLongerWatching({ items: removed.map((item) => codeSpan(item.id)).join(', ') })]),
    ...(refusal === undefined ? [] : [text.watches.locked({ reason: markup(refusal) })]),
    ...(missing.length === 0
      ? []
      : [text.watches.notWatched({ ids: missing.map((id) => codeSpan(id.slice(0, 100))).join(', ') })]),
  ];
  await ctx.respond({ response_type: 'ephemeral', text: lines.join('\n') });
}

async function listWatches(ctx: SubcommandContext, deps: WatchCommandDeps, kind?: WatchKind): Promise<void> {
  if (!(await allowed(ctx, deps, 'watch list'))) return;
  const entries = await deps.service.list(workspaceOf(ctx.bolt.body));
  await ctx.respond({
    response_type: 'ephemeral',
    ...listMessage(entries, deps.service.limit, deps.now(), kind),
  });
}

/** The settings as the modal starts: saved ones, else daily at 09:00 in the opener's own time zone. */
export async function currentSettings(
  deps: Pick<WatchCommandDeps, 'service' | 'directory'>,
  client: WebClient,
  workspace: WorkspaceRef,
  user: string,
): Promise<DigestSettings> {
  const saved = await deps.service.settings(workspace);
  if (saved !== undefined) return saved;
  const profile = await deps.directory.user(client, workspace, user).catch(() => undefined);
  return { cadence: 'daily', hour: 9, timeZone: profile?.tz ?? 'UTC' };
}

async function openSettings(ctx: SubcommandContext, deps: WatchCommandDeps): Promise<void> {
  const started = Date.now();
  if (!(await allowed(ctx, deps, 'watch settings'))) return;
  const { body, client } = ctx.bolt;
  const workspace = workspaceOf(body);
  // Refused at once rather than after the modal was filled in; checked again when it is saved.
  const may = await maySaveSettings(
    deps,
    client,
    workspace,
    body.user_id,
    await deps.service.settings(workspace),
  );
  if (!may.allowed) {
    await ctx.respond({
      response_type: 'ephemeral',
      text: text.watches.locked({ reason: markup(may.reason) }),
    });
    return;
  }
  const settings = await currentSettings(deps, client, workspace, body.user_id);
  if (Date.now() - started > TRIGGER_BUDGET_MS) {
    await ctx.respond({
      response_type: 'ephemeral',
      text: text.watches.settingsSlackTooSlow,
    });
    return;
  }
  await openModal(client, body.trigger_id, settingsModal(settings));
}

async function digestNow(ctx: SubcommandContext, deps: WatchCommandDeps): Promise<void> {
  if (!(await allowed(ctx, deps, 'watch digest'))) return;
  const { body } = ctx.bolt;
  const sent = await sendDigest(deps, workspaceOf(body), {
    scheduled: false,
    fallback: { channel: body.channel_id, user: body.user_id },
  });
  await ctx.respond({ response_type: 'ephemeral', text: digestOutcome(sent) });
}

export function digestOutcome(sent: { channel?: string; where: 'channel' | 'dm' | 'nowhere' }): string {
  if (sent.where === 'channel') return text.watches.digestPosted({ channel: sent.channel });
  if (sent.where === 'dm') return text.watches.digestWentToDm({ channel: sent.channel });
  return text.watches.digestNotPosted;
}
