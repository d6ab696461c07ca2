import type { en } from '../en/index.js';
import { approvals } from './approvals.js';
import { assistant } from './assistant.js';
import { changesets } from './changesets.js';
import { diagnosticFindings, diagnostics } from './diagnostics.js';
import { dns } from './dns.js';
import { doctor } from './doctor.js';
import { domains } from './domains.js';
import { mcp } from './mcp.js';
import { policy } from './policy.js';
import { policyModal } from './policy-modal.js';
import { publish } from './publish.js';
import { rdap } from './rdap.js';
import { recordRules } from './record-rules.js';
import { records } from './records.js';
import { served } from './served.js';
import { slack } from './slack.js';
import { tls } from './tls.js';
import { watches } from './watches.js';
import { workspace } from './workspace.js';

/**
 * The German catalog (docs/glossary.md: its terms and style), one area per English one; the English
 * catalog's type makes a missing or extra key, or an entry with other parameters, a compile error.
 */
export const de: typeof en = {
  approvals,
  assistant,
  changesets,
  diagnostics,
  diagnosticFindings,
  dns,
  doctor,
  domains,
  mcp,
  policy,
  policyModal,
  publish,
  rdap,
  records,
  recordRules,
  served,
  slack,
  tls,
  watches,
  workspace,
};
