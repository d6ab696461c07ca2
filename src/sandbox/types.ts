// The simulator's public shapes (options, faults, the handle it returns), apart from the server behind them.
import type { Logger } from '../shared/logger.js';
import type { OperationName } from './http.js';
import type { SandboxLimits } from './limits.js';
import type { SandboxState } from './state.js';

export interface Fault {
  /** Answer with this status and the error envelope. */
  status?: number;
  /** Hang this long before answering (real time). */
  delayMs?: number;
  /** Answer 200 with a body that breaks the schema. */
  malformed?: boolean;
  /** How many calls it applies to; default unlimited. */
  times?: number;
}

export interface SandboxOptions {
  port?: number;
  host?: string;
  apiKey?: string;
  clock?: { now(): number };
  delays?: {
    certificateIssueMs?: number;
    dnssecSettleMs?: number;
    assistantAnswerMs?: number;
    /**
     * A random delay of up to this long before a request counts (the network's way there): limits
     * count a request on its arrival, as a real registrar's do.
     */
    arrivalJitterMs?: number;
  };
  limits?: Partial<SandboxLimits>;
  logger?: Logger;
}

/** One request the simulator answered, for the playground's registrar panel. */
export interface SandboxRequest {
  at: number;
  method: string;
  path: string;
  status: number;
  /** The upstream limit(s) the call counted against (docs/registrar-api.md §8), when any. */
  limit?: string;
  durationMs: number;
}

/** The seeded account as a person would list it. */
export interface SandboxAccount {
  domains: Array<{ name: string; expires?: string; autoRenew?: boolean; dnssec?: string }>;
  certificates: Array<{ id: string; commonName: string; status: string; product?: string }>;
  organizations: Array<{ id: string; name: string }>;
}

export interface Sandbox {
  url: string;
  apiKey: string;
  state: SandboxState;
  /** Another key of the demo account (or of `account`) with the given permissions. */
  addKey(key: string, permissions: string[], account?: string): void;
  faults: { inject(operation: OperationName, fault: Fault): void; clear(): void };
  calls: ReadonlyArray<{
    operation: OperationName | 'unknown';
    method: string;
    path: string;
    status: number;
  }>;
  /** The newest requests (bounded), oldest first. */
  requests(): SandboxRequest[];
  /** Called after each answered request. */
  onRequest(listener: (request: SandboxRequest) => void): () => void;
  /** The account's domains, certificates and organizations as of the simulator's clock. */
  account(): SandboxAccount;
  /**
   * Move the simulator's clock ahead: pending certificates issue and DNSSEC transitions settle once
   * their time has come, as they would after that much real time.
   */
  advanceClock(ms: number): void;
  /** How far the clock has been moved ahead of the one it was given. */
  readonly clockOffsetMs: number;
  close(): Promise<void>;
}
