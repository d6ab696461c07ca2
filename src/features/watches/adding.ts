import type { KnownBlock } from '@slack/types';
import type { WebClient } from '@slack/web-api';
import type { RdapClient } from '../../rdap/index.js';
import type { RegistrarClient } from '../../registrar/index.js';
import type { Logger } from '../../shared/logger.js';
import type { WorkspaceRef } from '../../shared/workspace.js';
import { replyForError } from '../../slack/error-reply.js';
import { codeSpan } from '../../slack/mrkdwn.js';
import { text } from '../../text/index.js';
import { addedMessage, itemName } from './blocks.js';
import { sortKnown } from './known.js';
import type { ManagerDeps } from './managers.js';
import { type PaceDeps, watchPace } from './pace.js';
import { askRdap, type HeldElsewhere, watchedViaRdapLine } from './rdap-adding.js';
import { WATCHES_PER_PERSON, type WatchService } from './service.js';
import type { WatchKind } from './store.js';

export interface AddDeps extends PaceDeps, ManagerDeps {
  service: WatchService;
  registrarFor(workspace: WorkspaceRef): RegistrarClient;
  /** Domains the registrar does not hold are watched through RDAP when their registry knows them. */
  rdap: Pick<RdapClient, 'domain'>;
}

type Message = { text: string; blocks: KnownBlock[] };

const names = (kind: WatchKind, ids: readonly string[]) =>
  ids.map((id) => codeSpan(itemName({ kind, id }).slice(0, 100))).join(', ');

/**
 * Adds watches for `user` (a command or a card's Watch button) and says privately what happened:
 * what is now watched, what already was, what the registrar does not know for this workspace's key
 * (not watched, unless its registry's RDAP service knows it: then it is watched through RDAP,
 * rdap-adding.ts), what could not be read now (not watched either), and the caps. Each item is read
 * from the registrar first (known.ts); admins are held by the workspace's limit only, others by the
 * per-person cap too (service.ts). Every watch added is audited.
 */
export async function addWatches(
  deps: AddDeps,
  client: WebClient,
  workspace: WorkspaceRef,
  kind: WatchKind,
  ids: readonly string[],
  where: { channel: string; user: string },
  refused: readonly string[],
  logger: Logger,
): Promise<Message> {
  const admin = await deps.roles.isAdmin(client, workspace, where.user);
  const perPerson = admin ? undefined : WATCHES_PER_PERSON;
  const watched = await deps.service.list(workspace);
  const isWatched = new Set(watched.filter((e) => e.item.kind === kind).map((e) => e.item.id));
  const mine = watched.filter((entry) => entry.item.addedBy === where.user).length;
  const fresh = ids.filter((id) => !isWatched.has(id));
  // Nothing could be added: say so before reading anything.
  if (fresh.length > 0 && perPerson !== undefined && mine >= perPerson)
    return overCap(mine, perPerson, fresh.length);
  if (fresh.length > 0 && watched.length >= deps.service.limit)
    return overLimit(watched.length, deps.service.limit, fresh.length);

  const registrar = deps.registrarFor(workspace);
  const paced = await watchPace(deps, workspace);
  const read = (id: string): Promise<unknown> =>
    kind === 'domain' ? registrar.domains.get(id) : registrar.tls.get(id);
  const sorted = await sortKnown(fresh, (id) => paced(() => read(id)));
  // A domain the registrar does not hold may be held elsewhere: its registry's RDAP service says.
  const elsewhere: HeldElsewhere =
    kind === 'domain' && sorted.unknown.length > 0
      ? await askRdap(deps.rdap, sorted.unknown)
      : { found: new Map(), lines: [] };
  const unknown = sorted.unknown.filter((id) => !elsewhere.found.has(id));
  const notAdded = [
    ...refused,
    ...(unknown.length === 0
      ? []
      : [
          kind === 'domain'
            ? text.watches.unknownDomainsNotAdded({ names: names(kind, unknown) })
            : text.watches.unknownCertificatesNotAdded({ names: names(kind, unknown) }),
        ]),
    ...elsewhere.lines,
    ...sorted.failed.map(({ id, error }) =>
      text.watches.unreadableNotAdded({
        name: names(kind, [id]),
        why: replyForError(error, logger, { nothingChanged: true }).text.replace(/^:\w+: /, ''),
      }),
    ),
  ];
  const already = ids.filter((id) => isWatched.has(id));
  const viaRdap = new Set(elsewhere.found.keys());
  const known = [...sorted.known, ...viaRdap];
  if (known.length === 0) return addedMessage(kind, [], already, [...notAdded, text.watches.nothingAdded]);

  const result = await deps.service.add(workspace, kind, known, where, { perPerson, viaRdap });
  if (!result.ok) {
    return result.over === 'person'
      ? overCap(result.mine, result.cap, known.length)
      : overLimit(result.total, result.limit, known.length);
  }
  for (const item of result.added) {
    await deps.audit.append(workspace, {
      action: 'watch_add',
      actor: where.user,
      operation: `${kind} watch`,
      target: item.id,
      outcome: text.watches.auditAlertsIn({ channel: item.channel }),
    });
  }
  const rdapLines = result.added.flatMap((item) => {
    const facts = elsewhere.found.get(item.id);
    return facts === undefined ? [] : [watchedViaRdapLine(item.id, facts)];
  });
  return addedMessage(
    kind,
    result.added.map((item) => item.id),
    [...already, ...result.already],
    [...rdapLines, ...notAdded],
  );
}

const plain = (said: string): Message => ({
  text: said,
  blocks: [{ type: 'section', text: { type: 'mrkdwn', text: said } }],
});

function overCap(mine: number, cap: number, more: number): Message {
  return plain(text.watches.overPersonCap({ mine, cap, more }));
}

function overLimit(total: number, limit: number, more: number): Message {
  return plain(text.watches.overWorkspaceLimit({ total, limit, more }));
}
