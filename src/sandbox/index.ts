// The registrar simulator's entry point: wiring only (docs/architecture.md), the parts live in their own modules.
export { runSandboxCli } from './cli.js';
export { nameserversOf } from './domains.js';
export type { OperationName } from './http.js';
export type { SandboxLimits } from './limits.js';
export { ALL_PERMISSIONS, createSandbox } from './server.js';
export {
  type SandboxDomain,
  type SandboxRecord,
  STANDARD_NAMESERVERS,
  VANITY_SETS,
} from './state.js';
export type { Fault, Sandbox, SandboxAccount, SandboxOptions, SandboxRequest } from './types.js';
