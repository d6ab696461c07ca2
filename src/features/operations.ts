import type { RegfishLimits } from '../config.js';
import type { KeySpace } from '../shared/redis.js';
import type { RegistrarContext, SensitiveOperation } from './approvals/operations.js';
import type { ApprovalService } from './approvals/service.js';
import { disableDnssec, setExternalDnssec } from './dnssec/operations.js';
import { changeNameservers, requestAuthCode } from './domains/operations.js';
import type { VanitySets } from './domains/vanity.js';
import { cancelOrder, revokeCertificate } from './tls/operations.js';

/** What the composition root gives every sensitive operation when it runs. */
export type OperationEnv = RegistrarContext & {
  limits: RegfishLimits;
  keys: KeySpace;
  vanitySets: VanitySets;
};

/**
 * Every sensitive action (docs/requirements.md R8), each needing approval before it runs: the one
 * list. Approvals take these objects, so requesting one that is missing here, or one that needs more
 * than `OperationEnv` gives, is a type error; stored requests name them by `name`.
 */
export const SENSITIVE_OPERATIONS = [
  revokeCertificate,
  cancelOrder,
  requestAuthCode,
  changeNameservers,
  disableDnssec,
  setExternalDnssec,
] as const satisfies readonly SensitiveOperation<OperationEnv>[];

export type RegisteredOperation = (typeof SENSITIVE_OPERATIONS)[number];
export type OperationName = RegisteredOperation['name'];
export type Approvals = ApprovalService<OperationEnv, RegisteredOperation>;
