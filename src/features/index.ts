import { approvalsFeature } from './approvals/index.js';
import { assistantFeature } from './assistant/index.js';
import { auditFeature } from './audit/index.js';
import { changeSetsFeature } from './changesets/index.js';
import { diagnosticsFeature } from './diagnostics/index.js';
import { dnsFeature } from './dns/index.js';
import { dnssecFeature } from './dnssec/index.js';
import { domainsFeature } from './domains/index.js';
import { followingFeature } from './follow/index.js';
import { homeFeature } from './home/index.js';
import { installFeature } from './install/index.js';
import { keysFeature } from './keys/index.js';
import { policyFeature } from './policy/index.js';
import { publishFeature } from './publish/index.js';
import { recordsFeature } from './records/index.js';
import { tlsFeature } from './tls/index.js';
import { watchesFeature } from './watches/index.js';

/**
 * The table of contents: every feature, in the order its commands appear in help. Each folder's
 * index.ts declares what the feature adds: handlers, workers, sensitive operations and followers.
 */
export const FEATURES = [
  domainsFeature,
  keysFeature,
  policyFeature,
  auditFeature,
  approvalsFeature,
  dnsFeature,
  recordsFeature,
  changeSetsFeature,
  dnssecFeature,
  diagnosticsFeature,
  tlsFeature,
  publishFeature,
  watchesFeature,
  assistantFeature,
  followingFeature,
  installFeature,
  homeFeature,
] as const;
