import type { KeySpace } from '../../shared/redis.js';
import { type WorkspaceRef, workspaceId } from '../../shared/workspace.js';

/** The assistant's Redis keys (docs/architecture.md "Redis key layout"). */
export class AssistantKeys {
  constructor(private readonly keys: KeySpace) {}
  /** Every key of one account shares the tag `acct:<hash>`, so the scripts over them stay in one slot. */
  queue = (account: string) => this.keys.key(`acct:${account}`, 'assistant', 'queue');
  /** The asker's questions of this account, waiting or running (R34), by when each took its place. */
  asker = (account: string, user: string) => this.keys.key(`acct:${account}`, 'assistant', 'asker', user);
  /** Questions let in whose jobs are still taking them in (intake.ts), by when each was let in. */
  arriving = (account: string) => this.keys.key(`acct:${account}`, 'assistant', 'arriving');
  inflight = (account: string) => this.keys.key(`acct:${account}`, 'assistant', 'inflight');
  /** How the question ended (answer or reason), kept so a re-run delivers it instead of asking again. */
  outcome = (account: string, jobId: string) =>
    this.keys.key(`acct:${account}`, 'assistant', 'outcome', jobId);
  /** The question's placeholder: `ts`, `done` (to whom), `progress`, `opening`, `sent` (placeholder.ts). */
  placeholder = (account: string, jobId: string) =>
    this.keys.key(`acct:${account}`, 'assistant', 'placeholder', jobId);
  /** `posting` while one run posts the outcome (a lease), then `done`: one reply per question. */
  delivered = (account: string, jobId: string) =>
    this.keys.key(`acct:${account}`, 'assistant', 'delivered', jobId);
  perKey = (account: string) => this.keys.key(`acct:${account}`, 'quota', 'assistant-key');
  perAccount = (account: string) => this.keys.key(`acct:${account}`, 'quota', 'assistant-account');
  history = (workspace: WorkspaceRef, channel: string, threadTs: string) =>
    this.keys.key(`ws:${workspaceId(workspace)}`, 'assistant', 'thread', channel, threadTs);
  /** An agent's question (agent-answers.ts): who asked, its account, then its bounded outcome. */
  agent = (workspace: WorkspaceRef, questionId: string) =>
    this.keys.key(`ws:${workspaceId(workspace)}`, 'assistant', 'agent', questionId);
  /** A thread in the Messages tab: which question titled it (places.ts). */
  panel = (workspace: WorkspaceRef, channel: string, threadTs: string) =>
    this.keys.key(`ws:${workspaceId(workspace)}`, 'assistant', 'panel', channel, threadTs);
  /** The account's typical answer time in ms (running average), for estimates. */
  typical = (account: string) => this.keys.key(`acct:${account}`, 'assistant', 'typical-ms');
}
