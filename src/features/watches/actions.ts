import type { App, BlockAction, ButtonAction } from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import { z } from 'zod';
import { REGISTRAR_ID } from '../../registrar/index.js';
import { domainArgument } from '../../shared/domain-names.js';
import type { Logger } from '../../shared/logger.js';
import { slackDate } from '../../slack/blocks.js';
import { type ActionArgs, onAction, onView, presser } from '../../slack/handlers.js';
import { fieldErrors, stateOf } from '../../slack/modal.js';
import { notifyByDm, replyPrivately } from '../../slack/reply.js';
import { openModal } from '../../slack/views.js';
import { workspaceOf } from '../../slack/workspace.js';
import { markup, text } from '../../text/index.js';
import { dnssecCard } from '../dnssec/blocks.js';
import { verifyDnssec } from '../dnssec/service.js';
import { domainCard } from '../domains/blocks.js';
import { certificateCard } from '../tls/blocks.js';
import { addWatches } from './adding.js';
import { settingsModal } from './blocks.js';
import { currentSettings, digestOutcome, type WatchCommandDeps } from './commands.js';
import { sendDigest } from './digest.js';
import { WATCH_IDS } from './ids.js';
import { nextDigestAt } from './jobs.js';
import { maySaveSettings } from './managers.js';
import { CADENCES, type DigestSettings, type WatchKind } from './store.js';

type ButtonArgs = ActionArgs<BlockAction<ButtonAction>>;

/** Whether the presser may read with the workspace's key; a refusal is told to them (R33). */
async function mayRead(
  deps: WatchCommandDeps,
  args: ButtonArgs,
  operation: string,
  logger: Logger,
): Promise<boolean> {
  const access = await deps.roles.check(args.client, workspaceOf(args.body), args.body.user.id, 'lookup', {
    operation,
    target: args.action.value ?? '',
  });
  if (!access.allowed)
    await replyPrivately(
      presser(args),
      { text: text.watches.locked({ reason: markup(access.reason) }) },
      logger,
    );
  return access.allowed;
}

/**
 * The settings as submitted: each field's problem goes back on its own block, worded when the form is
 * checked (zod's `error` functions), in the language of the person who sent it.
 */
const SettingsForm = z.lazy(() =>
  z.object({
    channel: z.string().optional(),
    cadence: z.enum(CADENCES, { error: () => text.watches.chooseCadence }),
    hour: z.coerce
      .number({ error: () => text.watches.chooseHour })
      .int()
      .min(0)
      .max(23),
    timeZone: z
      .string()
      .trim()
      .min(1, { error: () => text.watches.enterTimeZone })
      .refine(isTimeZone, { error: () => text.watches.unknownTimeZone }),
  }),
);

const BLOCK_OF: Record<string, string> = {
  channel: WATCH_IDS.channel,
  cadence: WATCH_IDS.cadence,
  hour: WATCH_IDS.hour,
  timeZone: WATCH_IDS.timeZone,
};

function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

export function registerWatchActions(app: App, deps: WatchCommandDeps, logger: Logger): void {
  // "Watch" on a domain or certificate card: watched where the card was shown.
  const watchButton = (actionId: string, kind: WatchKind) =>
    onAction<BlockAction<ButtonAction>>(app, actionId, logger, async (args) => {
      const raw = args.action.value ?? '';
      const id = kind === 'domain' ? domainArgument(raw) : REGISTRAR_ID.test(raw) ? raw : undefined;
      if (id === undefined) throw new Error(`malformed watch button value for ${kind}`);
      if (!(await mayRead(deps, args, `${kind} watch add`, logger))) return;
      const channel = args.body.channel?.id ?? args.body.user.id;
      const where = { channel, user: args.body.user.id };
      // The card came from a registrar read, but a button's value is the sender's to choose: read again.
      const message = await addWatches(
        deps,
        args.client,
        workspaceOf(args.body),
        kind,
        [id],
        where,
        [],
        logger,
      );
      await replyPrivately(presser(args), message, logger);
    });
  watchButton(WATCH_IDS.watchDomain, 'domain');
  watchButton(WATCH_IDS.watchCertificate, 'certificate');

  // "Show" on an alert: the current card, to the presser only.
  onAction<BlockAction<ButtonAction>>(app, WATCH_IDS.show, logger, async (args) => {
    const [kind, ...rest] = (args.action.value ?? '').split(':');
    const id = rest.join(':');
    if (!(await mayRead(deps, args, `watch show ${kind}`, logger))) return;
    const registrar = deps.registrarFor(workspaceOf(args.body));
    const card =
      kind === 'domain'
        ? domainCard(await registrar.domains.get(id), deps.now())
        : certificateCard(await registrar.tls.get(id), deps.now());
    await replyPrivately(presser(args), card, logger);
  });

  // "Verify DNSSEC" on an alert: what `/dns dnssec DOMAIN verify` does, answered to the presser.
  onAction<BlockAction<ButtonAction>>(app, WATCH_IDS.verifyDnssec, logger, async (args) => {
    const domain = domainArgument(args.action.value);
    if (domain === undefined) throw new Error('malformed verify button value');
    if (!(await mayRead(deps, args, 'dnssec verify', logger))) return;
    const { state } = await verifyDnssec(deps.registrarFor(workspaceOf(args.body)), domain);
    await replyPrivately(presser(args), dnssecCard(domain, state), logger);
  });

  // App Home's "Digest settings".
  onAction<BlockAction<ButtonAction>>(app, WATCH_IDS.openSettings, logger, async (args) => {
    const workspace = workspaceOf(args.body);
    if (!(await mayRead(deps, args, 'watch settings', logger))) return;
    const saved = await deps.service.settings(workspace);
    const may = await maySaveSettings(deps, args.client, workspace, args.body.user.id, saved);
    if (!may.allowed) {
      await replyPrivately(
        presser(args),
        { text: text.watches.locked({ reason: markup(may.reason) }) },
        logger,
      );
      return;
    }
    const settings = await currentSettings(deps, args.client, workspace, args.body.user.id);
    await openModal(args.client, args.body.trigger_id, settingsModal(settings));
  });

  // "Post digest now" in the modal or on App Home: in the digest channel, else to the presser's DM.
  onAction<BlockAction<ButtonAction>>(app, WATCH_IDS.digestNow, logger, async (args) => {
    if (!(await mayRead(deps, args, 'watch digest', logger))) return;
    const user = args.body.user.id;
    const sent = await sendDigest(deps, workspaceOf(args.body), {
      scheduled: false,
      fallback: { channel: user, user },
    });
    if (sent.channel !== user) await replyPrivately(presser(args), { text: digestOutcome(sent) }, logger);
  });

  onView(app, WATCH_IDS.settingsModal, logger, async ({ body, view, client }) => {
    const values = view.state.values;
    const parsed = SettingsForm.safeParse({
      channel: stateOf(values, WATCH_IDS.channel).selected_conversation ?? undefined,
      cadence: stateOf(values, WATCH_IDS.cadence).selected_option?.value,
      hour: stateOf(values, WATCH_IDS.hour).selected_option?.value,
      timeZone: stateOf(values, WATCH_IDS.timeZone).value ?? '',
    });
    if (!parsed.success) {
      const errors = fieldErrors(parsed.error, (field) => BLOCK_OF[field], WATCH_IDS.cadence);
      return { answer: { response_action: 'errors', errors } };
    }
    const workspace = workspaceOf(body);
    const user = body.user.id;
    return {
      after: async () => {
        const access = await deps.roles.check(client, workspace, user, 'lookup', {
          operation: 'watch settings',
        });
        if (!access.allowed) {
          await notifyByDm(
            client,
            user,
            { text: text.watches.locked({ reason: markup(access.reason) }) },
            logger,
          );
          return;
        }
        // Checked again: the modal may have been open while the policy or the settings changed.
        const before = await deps.service.settings(workspace);
        const may = await maySaveSettings(deps, client, workspace, user, before);
        if (!may.allowed) {
          await notifyByDm(
            client,
            user,
            { text: text.watches.locked({ reason: markup(may.reason) }) },
            logger,
          );
          return;
        }
        const { channel, ...rest } = parsed.data;
        const settings = { ...rest, ...(channel === undefined ? {} : { channel }), setBy: user };
        await deps.service.saveSettings(workspace, settings);
        await deps.audit.append(workspace, {
          action: 'watch_settings',
          actor: user,
          operation: 'watch settings',
          outcome: text.watches.auditSettingsChanged({
            settings: describe(settings),
            before: before === undefined ? text.watches.auditSettingsNeverSet : describe(before),
          }),
        });
        await tellSaved(client, user, settings, deps.now(), logger);
      },
    };
  });
}

/** The settings in a few words, for the audit trail (ids only, as every entry). */
function describe(settings: DigestSettings): string {
  const when =
    settings.cadence === 'off'
      ? text.watches.auditNoDigest
      : text.watches.auditDigestAt({
          cadence: settings.cadence,
          hour: settings.hour,
          timeZone: settings.timeZone,
        });
  return text.watches.auditSettings({ channel: settings.channel ?? text.watches.auditNoChannel, when });
}

async function tellSaved(
  client: WebClient,
  user: string,
  settings: Parameters<typeof nextDigestAt>[0],
  now: number,
  logger: Logger,
): Promise<void> {
  const next = nextDigestAt(settings, now);
  const saved =
    settings.channel === undefined
      ? text.watches.settingsSavedNoChannel
      : next === undefined
        ? text.watches.settingsSavedNoSchedule({ channel: settings.channel })
        : text.watches.settingsSaved({ channel: settings.channel, next: slackDate(next) });
  await notifyByDm(client, user, { text: saved }, logger);
}
