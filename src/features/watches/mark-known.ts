import type { App, BlockAction, ButtonAction } from '@slack/bolt';
import { domainArgument } from '../../shared/domain-names.js';
import type { Logger } from '../../shared/logger.js';
import type { WorkspaceRef } from '../../shared/workspace.js';
import { onAction, presser } from '../../slack/handlers.js';
import { replyPrivately } from '../../slack/reply.js';
import { workspaceOf } from '../../slack/workspace.js';
import { markup, text } from '../../text/index.js';
import type { AuditLog } from '../audit/service.js';
import type { Roles } from '../policy/permissions.js';
import { WATCH_IDS } from './ids.js';
import type { KnownIssuances } from './known-issuances.js';
import type { WatchStore } from './store.js';

export interface MarkKnownDeps {
  roles: Roles;
  audit: Pick<AuditLog, 'append'>;
  knownIssuances: Pick<KnownIssuances, 'mark'>;
  store: Pick<WatchStore, 'item' | 'state' | 'saveState'>;
  /** App Home is re-published: its CT line no longer counts the issuance. */
  changed?: (workspace: WorkspaceRef) => void;
  now: () => number;
}

/** The operation the permission model and the audit entry name. */
const OPERATION = 'ct-known';
/** A TBS SHA-256 as Cert Spotter writes it. */
const TBS = /^[0-9a-f]{64}$/;

/**
 * **Mark as known** on a Certificate Transparency alert (contract §3): the issuance is not alerted
 * again, and the audit trail says who decided it was theirs. The button's value is the sender's to
 * choose, so it is checked: a watched zone and a digest's shape, and the presser must be allowed to
 * use the workspace's key (R43), as for every watch action.
 */
export function registerMarkKnown(app: App, deps: MarkKnownDeps, logger: Logger): void {
  onAction<BlockAction<ButtonAction>>(app, WATCH_IDS.markKnown, logger, async (args) => {
    const [rawZone = '', tbs = ''] = (args.action.value ?? '').split('|');
    const zone = domainArgument(rawZone);
    if (zone === undefined || !TBS.test(tbs)) throw new Error('malformed mark known button value');
    const workspace: WorkspaceRef = workspaceOf(args.body);
    const user = args.body.user.id;
    const access = await deps.roles.check(args.client, workspace, user, 'lookup', {
      operation: OPERATION,
      target: zone,
    });
    if (!access.allowed) {
      await replyPrivately(
        presser(args),
        { text: text.watches.locked({ reason: markup(access.reason) }) },
        logger,
      );
      return;
    }
    if ((await deps.store.item(workspace, 'domain', zone)) === undefined)
      throw new Error('mark known for a zone that is not watched');
    const marked = await deps.knownIssuances.mark(workspace, tbs, deps.now());
    await forgetUnknown(deps, workspace, zone, tbs);
    if (marked)
      await deps.audit.append(workspace, {
        action: 'ct_known',
        actor: user,
        operation: OPERATION,
        target: zone,
        outcome: text.served.auditMarkedKnown({ zone, issuance: tbs }),
      });
    await replyPrivately(
      presser(args),
      { text: marked ? text.served.markedKnown({ zone }) : text.served.markedKnownAlready },
      logger,
    );
  });
}

/**
 * The zone's list and Home stop counting the issuance at once; any other zone's (a parent's) at its
 * next look, which drops what is marked known (ct-look.ts). A look saving meanwhile may put it back
 * until then, for the same reason.
 */
async function forgetUnknown(deps: MarkKnownDeps, workspace: WorkspaceRef, zone: string, tbs: string) {
  const state = await deps.store.state(workspace, 'domain', zone);
  const unknown = state.ct?.unknown;
  if (state.ct === undefined || unknown === undefined || !unknown.some((issuance) => issuance.tbs === tbs))
    return;
  const { unknown: _all, ...ct } = state.ct;
  const left = unknown.filter((issuance) => issuance.tbs !== tbs);
  await deps.store.saveState(workspace, 'domain', zone, {
    ...state,
    ct: left.length === 0 ? ct : { ...ct, unknown: left },
  });
  deps.changed?.(workspace);
}
