import type { App, BlockAction, ButtonAction } from '@slack/bolt';
import { domainArgument } from '../../shared/domain-names.js';
import type { Logger } from '../../shared/logger.js';
import { replyForError } from '../../slack/error-reply.js';
import { type LookupDeps, lookup, usage } from '../../slack/lookup.js';
import type { Subcommand } from '../../slack/router.js';
import { workspaceOf } from '../../slack/workspace.js';
import { recordsPage, zoneCard } from './blocks.js';
import { DNS_IDS } from './ids.js';

const RECORD_TYPE = /^[A-Za-z0-9]{1,10}$/;

export function zoneCommand(deps: LookupDeps): Subcommand {
  return {
    name: 'zone',
    usage: 'zone DOMAIN',
    summary: 'SOA, delegation, DNSSEC and record counts by type',
    run: async (ctx) => {
      const domain = domainArgument(ctx.args[0]);
      if (domain === undefined) return usage(ctx, '`/dns zone DOMAIN`.');
      await lookup(ctx, deps, async (registrar) => zoneCard(await registrar.dns.zone(domain)));
    },
  };
}

export function recordsCommand(deps: LookupDeps): Subcommand {
  return {
    name: 'records',
    usage: 'records DOMAIN [TYPE]',
    summary: 'records with name, type, TTL, data, auto/manual and active; large zones page',
    run: async (ctx) => {
      const [name, typeText] = ctx.args;
      const domain = domainArgument(name);
      if (domain === undefined || (typeText !== undefined && !RECORD_TYPE.test(typeText))) {
        return usage(ctx, '`/dns records DOMAIN [TYPE]`, e.g. `/dns records example.com MX`.');
      }
      const type = typeText?.toUpperCase();
      await lookup(ctx, deps, async (registrar) => {
        const records = (await registrar.dns.records(domain)).filter(
          (r) => type === undefined || r.type.toUpperCase() === type,
        );
        return recordsPage(domain, records, 0, type);
      });
    },
  };
}

/** Previous/Next: re-read the zone (it may have changed) and replace the page in place. */
export function registerRecordPaging(app: App, deps: LookupDeps, logger: Logger): void {
  const handler = async ({
    ack,
    body,
    action,
    respond,
  }: {
    ack: () => Promise<void>;
    body: BlockAction;
    action: ButtonAction;
    respond: (m: object) => Promise<unknown>;
  }) => {
    await ack();
    try {
      const { d, t, p } = JSON.parse(action.value ?? '{}') as { d: string; t: string; p: number };
      const domain = domainArgument(d);
      if (domain === undefined || !Number.isInteger(p)) return;
      const type = t === '' ? undefined : t;
      const records = (await deps.registrarFor(workspaceOf(body)).dns.records(domain)).filter(
        (r) => type === undefined || r.type.toUpperCase() === type,
      );
      await respond({
        response_type: 'ephemeral',
        replace_original: true,
        ...recordsPage(domain, records, p, type),
      });
    } catch (error) {
      await respond({
        response_type: 'ephemeral',
        replace_original: false,
        text: replyForError(error, logger).text,
      });
    }
  };
  app.action<BlockAction<ButtonAction>>(DNS_IDS.recordsPrev, handler);
  app.action<BlockAction<ButtonAction>>(DNS_IDS.recordsNext, handler);
}
