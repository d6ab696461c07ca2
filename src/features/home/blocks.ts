import type { KnownBlock, View } from '@slack/types';
import { button, context, divider, header, packLines, section } from '../../slack/blocks.js';
import { markup, text } from '../../text/index.js';
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
    /** Every watch: App Home names those whose served certificate or CT search wants a look. */
    all?: WatchedEntry[];
  };
}

/** Home tabs hold at most 100 blocks: each section below is capped so the total stays well inside. */
const MAX_PENDING = 8;
const MAX_RUNNING = 10;
const MAX_RECENT = 15;

/** The usual Home; the commands close it on every visit, so a person never has to remember them. */
export function homeView(data: HomeData): View {
  return { type: 'home', blocks: [...homeBlocks(data), divider(), section(text.workspace.welcomeCommands)] };
}

function homeBlocks(data: HomeData): KnownBlock[] {
  const blocks: KnownBlock[] = [
    header(text.workspace.homeHeader),
    section(text.workspace.homeKeySection({ status: markup(describeKeyStatus(data.key)) })),
    quickActions(),
    divider(),
    ...(data.watch === undefined
      ? []
      : homeSection(data.watch.coming, data.watch.settings, data.watch.next, data.watch.now, data.watch.all)),
  ];

  blocks.push(header(text.workspace.homePendingHeader({ count: data.pending.length })));
  if (data.pending.length === 0) blocks.push(section(text.workspace.homeNothingPending));
  for (const request of data.pending.slice(0, MAX_PENDING)) {
    // The same message and buttons as in the channel; who may press is decided at the press.
    blocks.push(...approvalMessage(request).blocks.filter((block) => block.type !== 'header'), divider());
  }
  if (data.pending.length > MAX_PENDING)
    blocks.push(context(text.workspace.homeMorePending({ count: data.pending.length - MAX_PENDING })));

  blocks.push(header(text.workspace.homeRunningHeader));
  // Whole lines per section: a line cut at Slack's 3000 characters could end inside a date token.
  blocks.push(
    ...(data.running.length === 0
      ? [section(text.workspace.homeNothingRunning)]
      : packLines(data.running.slice(0, MAX_RUNNING))),
  );

  blocks.push(header(text.workspace.homeRecentHeader));
  blocks.push(
    ...(data.recent.length === 0
      ? [section(text.workspace.nothingRecorded)]
      : packLines(data.recent.slice(0, MAX_RECENT).map((entry) => auditLine(entry, { recorded: false })))),
  );
  return blocks;
}

function quickActions(): KnownBlock {
  return {
    type: 'actions',
    elements: [
      button(text.workspace.homeKeyButton, HOME_IDS.setKey, 'key'),
      button(text.workspace.homeRefreshButton, HOME_IDS.refresh, 'refresh'),
    ],
  };
}

/**
 * A person's first visit: what Regdesk does and how to start (the commands at the top, not only at
 * the end), then the usual Home below. The key status comes first because without a key nothing else works.
 */
export function onboardingView(data: HomeData): View {
  const intro: KnownBlock[] = [
    header(text.workspace.welcomeHeader),
    section(text.workspace.welcomeIntro),
    section(text.workspace.welcomeCommands),
    context(text.workspace.welcomeAdmins),
    divider(),
  ];
  return { type: 'home', blocks: [...intro, ...homeBlocks(data).slice(1)] };
}

/** For guests and people from outside the workspace: what Regdesk is, and why they see no more. */
export function restrictedView(reason: string): View {
  return {
    type: 'home',
    blocks: [
      header(text.workspace.homeHeader),
      section(text.workspace.restrictedIntro),
      section(text.workspace.restrictedNoAccess({ reason })),
      context(text.workspace.restrictedNote),
    ],
  };
}
