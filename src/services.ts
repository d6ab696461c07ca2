import { join } from 'node:path';
import type { WebClient } from '@slack/web-api';
import type { Queue } from 'bullmq';
import type { Config } from './config.js';
import type { ApprovalJob } from './features/approvals/jobs.js';
import { buildApprovalServices } from './features/approvals/services.js';
import type { ApprovalStore } from './features/approvals/store.js';
import type { AgentQuestions } from './features/assistant/agent.js';
import type { AssistantJob, AssistantService } from './features/assistant/service.js';
import { buildAssistantServices } from './features/assistant/services.js';
import type { AuditLog } from './features/audit/service.js';
import { buildAuditLog } from './features/audit/services.js';
import { buildChangeSetServices, type ChangeSetServices } from './features/changesets/services.js';
import { buildDiagnosticsServices, type DiagnosticsServices } from './features/diagnostics/services.js';
import { buildDomainServices, type DomainServices } from './features/domains/services.js';
import type { Follower, FollowJob, Origin } from './features/follow/jobs.js';
import { buildFollowServices } from './features/follow/services.js';
import type { HomeService } from './features/home/service.js';
import { buildHomeServices } from './features/home/services.js';
import type { KeyAdminCheck, WorkspaceKeys } from './features/keys/service.js';
import { buildKeyServices } from './features/keys/services.js';
import type { Approvals } from './features/operations.js';
import type { Roles } from './features/policy/permissions.js';
import type { PolicyStore } from './features/policy/policy.js';
import { buildPolicyServices } from './features/policy/services.js';
import { buildPublishServices, type PublishServices } from './features/publish/services.js';
import { buildRecordServices, type RecordServices } from './features/records/services.js';
import { buildTlsServices, type TlsServices } from './features/tls/services.js';
import type { WatchJob } from './features/watches/jobs.js';
import type { WatchService } from './features/watches/service.js';
import { buildWatchServices, type WatchServices } from './features/watches/services.js';
import type { WatchStore } from './features/watches/store.js';
import type { RdapClient } from './rdap/index.js';
import { createRegistrarClient, type RegistrarClient } from './registrar/index.js';
import type { BaseDeps } from './shared/deps.js';
import { ClaimDurability } from './shared/durable-claim.js';
import { DataIntegrity } from './shared/integrity.js';
import type { Limiter } from './shared/limiter.js';
import type { Logger } from './shared/logger.js';
import type { Metrics } from './shared/metrics.js';
import type { KeySpace, Redis } from './shared/redis.js';
import type { WorkspaceRef } from './shared/workspace.js';
import type { SlackClients } from './slack/clients.js';
import type { Languages } from './slack/language.js';
import type { LookupAccess } from './slack/lookup.js';
import type { ChannelPoster } from './slack/poster.js';
import { buildSlackServices } from './slack/services.js';
import type { ShareableCards } from './slack/share.js';
import type { SlackDirectory } from './slack/users.js';
import { buildVault } from './vault/build.js';
import type { Vault } from './vault/store.js';

export interface Registrar {
  baseUrl: string;
  /** The sandbox's demo key, used by workspaces without a key of their own (sandbox mode only). */
  sandboxKey?: string | undefined;
}

export interface ServiceDeps {
  config: Config;
  redis: Redis;
  keys: KeySpace;
  logger: Logger;
  metrics: Metrics;
  registrar: Registrar;
  now?: () => number;
  /** Every feature's "is it settled?" check (features/index.ts FOLLOWERS). */
  followers: readonly Follower[];
}

/**
 * The services of one process, built once by the composition root. Features never import this: each
 * declares the narrow part it uses (its `Deps` in its index.ts) and is handed this object.
 */
export interface Services
  extends BaseDeps,
    DiagnosticsServices,
    DomainServices,
    PublishServices,
    RecordServices,
    ChangeSetServices,
    TlsServices {
  config: Config;
  /** This process's metrics (/metrics): features count what they do here. */
  metrics: Metrics;
  limits: Config['limits'];
  vault: Vault;
  audit: AuditLog;
  workspaceKeys: WorkspaceKeys;
  isKeyAdmin: KeyAdminCheck;
  limiter: Limiter;
  poster: ChannelPoster;
  shareable: ShareableCards;
  slackClients: SlackClients;
  slackFor(workspace: WorkspaceRef): Promise<WebClient>;
  /** Whether a person may read with the workspace's key (the permission model's `lookup`). */
  mayLookUp: LookupAccess;
  /** Slack users and user groups, cached 60 s across processes. */
  directory: SlackDirectory;
  policies: PolicyStore;
  /** The language of each person and of the workspace's channels (contract §3 "Language"). */
  languages: Languages;
  /** Who may do what: the one permission model every feature asks (features/policy/permissions.ts). */
  roles: Roles;
  approvalStore: ApprovalStore;
  approvals: Approvals;
  approvalQueue: Queue<ApprovalJob>;
  assistant: AssistantService;
  assistantQueue: Queue<AssistantJob>;
  /** Agents' questions to the registrar's assistant, through its queue (MCP `ask_registrar`). */
  agentQuestions: AgentQuestions;
  followQueue: Queue<FollowJob>;
  followers: readonly Follower[];
  follow(workspace: WorkspaceRef, kind: string, resource: string, origin: Origin): Promise<void>;
  runningJobs(workspace: WorkspaceRef): Promise<string[]>;
  home: HomeService;
  /** Watched domains and certificates, their digest settings and schedulers (features/watches). */
  watches: WatchService;
  watchStore: WatchStore;
  watchQueue: Queue<WatchJob>;
  /** RDAP for watched domains held at other registrars (src/rdap). */
  rdap: RdapClient;
  /** What watched certificates' names serve, and Certificate Transparency (features/watches). */
  servedProbe: WatchServices['servedProbe'];
  certSpotter: WatchServices['certSpotter'];
  identities: WatchServices['identities'];
  knownIssuances: WatchServices['knownIssuances'];
  /** Notices Regdesk's data vanishing or going back in time (docs/requirements.md R39); started by main. */
  integrity: DataIntegrity;
  /** Makes approval claims durable before the registrar is called (R40). */
  durability: ClaimDurability;
  registrarFor(workspace: WorkspaceRef): RegistrarClient;
  close(): Promise<void>;
}

/** The registrar timeout on the request path: a hanging registrar must not hold a Slack request. */
const REGISTRAR_TIMEOUT_MS = 10_000;

/** Composes each feature's services, in the order they need each other; each feature builds its own. */
export function buildServices(deps: ServiceDeps): Services {
  const { config, redis, keys, logger, metrics } = deps;
  const now = deps.now ?? Date.now;
  const vault = buildVault({ vault: config.vault, redis, keys, logger, now });
  const audit = buildAuditLog({ redis, keys, logger, metrics, settings: config.audit });
  const clientFor = (apiKey: string | (() => Promise<string>)) =>
    createRegistrarClient({
      baseUrl: deps.registrar.baseUrl,
      apiKey,
      timeoutMs: REGISTRAR_TIMEOUT_MS,
      logger,
      onRequest: (info) =>
        metrics.registrarDuration.observe(
          { operation: info.operation, status: String(info.status) },
          info.durationMs / 1000,
        ),
    });
  const keyServices = buildKeyServices({ vault, audit, clientFor, sandboxKey: deps.registrar.sandboxKey });
  const slack = buildSlackServices({ slack: config.slack, redis, keys, logger, metrics, vault });
  const common = { redis, keys, logger, now };
  const follow = buildFollowServices({ ...common, followers: deps.followers });
  const watch = buildWatchServices({
    ...common,
    watch: config.watch,
    rdap: { bootstrapUrl: config.rdapBootstrapUrl, allowed: config.liveCheckAllow },
    limiter: slack.limiter,
    // homeRefresh is built below; nothing calls this before buildServices returns.
    onChange: (workspace) => home.homeRefresh.request(workspace),
  });
  const integrity = new DataIntegrity(redis, keys, {
    logger,
    now,
    intervalMs: config.integrityIntervalMs,
    repair: () => watch.watches.restoreSchedules(),
  });
  const durability = new ClaimDurability(redis, join(config.dataDir, 'claims'), logger);
  const domains = buildDomainServices(common);
  const publish = buildPublishServices(common);
  const records = buildRecordServices(common);
  const changeSets = buildChangeSetServices(common);
  const diagnostics = buildDiagnosticsServices({
    now,
    dns: {
      ...(config.dnsResolvers === undefined ? {} : { resolvers: config.dnsResolvers }),
      ...(config.dnsNameserverPort === undefined ? {} : { nameserverPort: config.dnsNameserverPort }),
      ...(config.liveCheckAllow === undefined ? {} : { allowed: config.liveCheckAllow }),
    },
    trustAnchors: config.dnssecTrustAnchors,
  });
  const tls = buildTlsServices({
    ...common,
    ...diagnostics,
    audit,
    registrarFor: keyServices.registrarFor,
    validations: publish.validations,
  });
  const policy = buildPolicyServices({ ...common, audit, directory: slack.directory });
  const approval = buildApprovalServices({
    ...common,
    ...policy,
    audit,
    limiter: slack.limiter,
    poster: slack.poster,
    vault,
    integrity,
    durability,
    operationEnv: {
      registrarFor: keyServices.registrarFor,
      limits: config.limits,
      keys,
      ...domains,
      ...publish,
      recordChanges: records.recordChanges,
      certificateOrders: tls.certificateOrders,
      certificatePreflight: tls.certificatePreflight,
      changeSets: changeSets.changeSets,
      limiter: slack.limiter,
      workspaceKeys: keyServices.workspaceKeys,
    },
    follow: follow.follow,
    // home is built below; nothing calls this before buildServices returns.
    onChange: (request) => home.approvalChanged(request),
  });
  const home = buildHomeServices({
    ...common,
    workspaceKeys: keyServices.workspaceKeys,
    approvalStore: approval.approvalStore,
    audit,
    roles: policy.roles,
    watches: watch.watches,
    approvalQueue: approval.approvalQueue,
    followQueue: follow.followQueue,
    slackFor: slack.slackFor,
    languages: policy.languages,
  });
  const { roles } = policy;
  const mayLookUp: LookupAccess = (client, workspace, user, about) =>
    roles.check(client, workspace, user, 'lookup', about);
  const assistant = buildAssistantServices({
    ...common,
    workspaceKeys: keyServices.workspaceKeys,
    poster: slack.poster,
    directory: slack.directory,
    mayLookUp,
    slackFor: slack.slackFor,
    assistantCacheTtlMs: config.assistantCacheTtlMs,
  });
  return {
    config,
    metrics,
    limits: config.limits,
    ...common,
    vault,
    audit,
    ...keyServices,
    isKeyAdmin: (client, workspace, user) => roles.isAdmin(client, workspace, user),
    ...slack,
    mayLookUp,
    ...policy,
    ...approval,
    ...domains,
    ...follow,
    runningJobs: home.runningJobs,
    home: home.home,
    ...diagnostics,
    ...publish,
    ...records,
    ...changeSets,
    ...tls,
    ...watch,
    integrity,
    durability,
    ...assistant,
    close: async () => {
      integrity.stop();
      await durability.close();
      home.homeRefresh.close();
      await approval.approvalQueue.close();
      await assistant.assistantQueue.close();
      await follow.followQueue.close();
      await watch.watchQueue.close();
      await publish.publishQueue.close();
      await changeSets.changeSetQueue.close();
    },
  };
}
