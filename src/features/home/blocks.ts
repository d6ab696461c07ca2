import type { KnownBlock, View } from '@slack/types';
import { button, context, divider, header, section } from '../../slack/blocks.js';
import { approvalMessage } from '../approvals/blocks.js';
import type { ApprovalRequest } from '../approvals/store.js';
import { auditLine } from '../audit/blocks.js';
import type { StoredAuditEntry } from '../audit/service.js';
import { describeKeyStatus } from '../keys/blocks.js';
import type { KeyStatus } from '../keys/service.js';
import { homeSection } from '../watches/blocks.js';
import type { WatchedEntry } from '../watches/service.js';
import type { DigestSettings } from '../watches/store.js';
import { HOME_IDS } from './ids.js';

export interface HomeData {
  key: KeyStatus;
  pending: ApprovalRequest[];
  /** Pending work being followed (certificate validation, DNSSEC transitions), one mrkdwn line each. */
  running: string[];
  recent: StoredAuditEntry[];
  /** Watches: the next expiries and the digest settings (features/watches). */
  watch?: {
    coming: WatchedEntry[];
    settings: DigestSettings | undefined;
    next: number | undefined;
    now: number;
  };
}

/** Home tabs hold at most 100 blocks: each section below is capped so the total stays well inside. */
const MAX_PENDING = 8;
const MAX_RUNNING = 10;
const MAX_RECENT = 15;

export function homeView(data: HomeData): View {
  const blocks: KnownBlock[] = [
    header('Regdesk'),
    section(`*Registrar API key*\n${describeKeyStatus(data.key)}`),
    quickActions(),
    divider(),
    ...(data.watch === undefined
      ? []
      : homeSection(data.watch.coming, data.watch.settings, data.watch.next, data.watch.now)),
  ];

  blocks.push(header(`Pending approvals (${data.pending.length})`));
  if (data.pending.length === 0) blocks.push(section('Nothing is waiting for approval.'));
  for (const request of data.pending.slice(0, MAX_PENDING)) {
    // The same message and buttons as in the channel; who may press is decided at the press.
    blocks.push(...approvalMessage(request).blocks.filter((block) => block.type !== 'header'), divider());
  }
  if (data.pending.length > MAX_PENDING)
    blocks.push(context(`…and ${data.pending.length - MAX_PENDING} more.`));

  blocks.push(header('Running jobs'));
  blocks.push(
    section(
      data.running.length === 0
        ? 'No pending work is being followed.'
        : data.running.slice(0, MAX_RUNNING).join('\n'),
    ),
  );

  blocks.push(header('Recent activity'));
  blocks.push(
    section(
      data.recent.length === 0
        ? 'Nothing recorded yet.'
        : data.recent.slice(0, MAX_RECENT).map(auditLine).join('\n'),
    ),
  );
  return { type: 'home', blocks };
}

function quickActions(): KnownBlock {
  return {
    type: 'actions',
    elements: [
      button('Registrar API key', HOME_IDS.setKey, 'key'),
      button('Refresh', HOME_IDS.refresh, 'refresh'),
    ],
  };
}

const COMMANDS = [
  '`/domain check NAME…` availability of up to 50 names',
  '`/domain info DOMAIN` registration, expiry and nameservers',
  '`/dns records DOMAIN` and `/dns dnssec DOMAIN` zones and DNSSEC',
  '`/tls order`, `/tls show ID` certificates, followed until issued',
  '`/domain watch add DOMAIN…`, `/tls watch add ID…` alerts before expiries and on drift',
  "`/ask QUESTION` the registrar's assistant, answered in a thread",
  '`/domain help`, `/dns help`, `/tls help` everything else',
];

/**
 * A person's first visit: what Regdesk does and how to start, then the usual Home below. The key
 * status comes first because without a key nothing else works.
 */
export function onboardingView(data: HomeData): View {
  const intro: KnownBlock[] = [
    header('Welcome to Regdesk'),
    section(
      'Regdesk runs your domains, DNS and TLS certificates from Slack. Look-ups answer only you, with a ' +
        '*Share in channel* button; dangerous actions (revocations, auth codes, delegation and DNSSEC ' +
        "changes) need a second person's approval, and everything is audited.",
    ),
    section(`*Commands*\n${COMMANDS.map((line) => `• ${line}`).join('\n')}`),
    context('Admins: set the registrar API key below, and approvers with `/domain policy`.'),
    divider(),
  ];
  const home = homeView(data);
  return { ...home, blocks: [...intro, ...home.blocks.slice(1)] };
}

/** For guests and people from outside the workspace: what Regdesk is, and why they see no more. */
export function restrictedView(reason: string): View {
  return {
    type: 'home',
    blocks: [
      header('Regdesk'),
      section(
        "Regdesk runs this workspace's domains, DNS and TLS certificates from Slack, with a second person's " +
          'approval for dangerous changes.',
      ),
      section(`:lock: ${reason} You have no access to approvals here.`),
      context('Pending approvals, running work and the audit trail are for members of this workspace only.'),
    ],
  };
}
