import { AppError } from '../../shared/app-error.js';
import { text } from '../../text/index.js';
import { type Outsider, outsiderGroup } from './outsiders.js';

/** Everything a person can ask Regdesk to do, as far as who may do it is concerned. */
export type Act =
  /** Read-only look-ups (`/tls show`, downloads …). */
  | 'lookup'
  /** The audit trail and pending approvals (`/domain audit`, App Home). */
  | 'view'
  /** Certificate orders and renewals, reissues, TLS organization create/edit: they cost money or change what a certificate vouches for. */
  | 'order'
  | 'reissue'
  | 'organization'
  /** Sensitive actions (docs/requirements.md R8). */
  | 'request'
  | 'approve'
  /** The whole audit trail as a file. */
  | 'export'
  | 'policy'
  /** The workspace's registrar API key. */
  | 'key';

/** The acts an approval request can be made for: each operation says which one its requester needs. */
export type RequestAct = Extract<Act, 'request' | 'order' | 'reissue'>;

/**
 * Why someone may not do something, as a code (`refusalText` words it). `act` is what they asked to
 * do; `outsider` which kind of outsider they are.
 */
export type Refusal =
  | { code: 'policyUnreadable'; act: Act }
  | { code: 'unconfirmed' }
  | { code: 'outsider'; outsider: Outsider; act: Act }
  | { code: 'onlyApprovers'; act: Act }
  | { code: 'onlyListed'; act: Act }
  | { code: 'onlyListedRequesters'; act: Act }
  | { code: 'notApprover'; adminsApprove: boolean }
  | { code: 'onlyAdmins'; act: Act };

/** How a refusal names each act ("Guests cannot order certificates."). */
function verbOf(act: Act): string {
  const verbs: Record<Act, string> = {
    lookup: text.approvals.actLookup,
    view: text.approvals.actView,
    order: text.approvals.actOrder,
    reissue: text.approvals.actReissue,
    organization: text.approvals.actOrganization,
    request: text.approvals.actRequest,
    approve: text.approvals.actApprove,
    export: text.approvals.actExport,
    policy: text.approvals.actPolicy,
    key: text.approvals.actKey,
  };
  return verbs[act];
}

/** A refusal in the words of the moment's language (text.approvals). */
export function refusalText(refusal: Refusal): string {
  switch (refusal.code) {
    case 'policyUnreadable':
      return text.approvals.policyUnreadableRefusal({ act: verbOf(refusal.act) });
    case 'unconfirmed':
      return text.approvals.accountUnconfirmed;
    case 'outsider':
      return text.approvals.outsiderCannot({
        who: outsiderGroup(refusal.outsider),
        act: verbOf(refusal.act),
      });
    case 'onlyApprovers':
      return text.approvals.onlyApproversMay({ act: verbOf(refusal.act) });
    case 'onlyListed':
      return text.approvals.onlyListedMay({ act: verbOf(refusal.act) });
    case 'onlyListedRequesters':
      return text.approvals.onlyListedRequestersMay({ act: verbOf(refusal.act) });
    case 'notApprover':
      return refusal.adminsApprove ? text.approvals.notApproverAdminsApprove : text.approvals.notApprover;
    case 'onlyAdmins':
      return text.approvals.onlyAdminsCan({ act: verbOf(refusal.act) });
  }
}

/**
 * A decision. A refusal carries its code; `reason` is it worded for the person asking, and `say`
 * words it again (in English for logs, in another language for someone else).
 */
export type Decision =
  | { allowed: true }
  | { allowed: false; refusal: Refusal; reason: string; say: () => string };

/** A refusal as an error, for handlers that show failures the usual way (replyForError). */
export class PermissionRefused extends AppError {
  constructor(reason: string | (() => string)) {
    super('regdesk_permission_refused', reason);
  }
}
